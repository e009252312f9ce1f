"""Exit statuses of the `oomdoctor` command (documented in the README and --help)."""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    OK = 0  # no memory failure found / rerun confirmed the fix
    FINDINGS = 1  # a memory failure was diagnosed
    USAGE = 2  # usage or input error (missing, empty, binary, unreadable file; bad option)
    RULE_ERROR = 3  # a rule file is broken (a bad model config or spec file is an input error: 2)
    STILL_FAILING = 4  # rerun: the fix did not hold
    INTERNAL = 70  # an unexpected internal error (a bug in oomdoctor: never mistaken for a diagnosis)
    INTERRUPTED = 130


EXIT_CODES_HELP = (
    "Exit codes: 0 no memory failure found (or rerun confirmed the fix); "
    "1 memory failure diagnosed; 2 usage or input error (a bad option, file or config); 3 broken rule file; "
    "4 rerun did not confirm a fix; 70 internal error (a bug: rerun with --debug and report it); 130 interrupted."
)
