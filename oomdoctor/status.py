"""Exit statuses of the `oomdoctor` command (documented in the README and --help)."""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    OK = 0  # no memory failure found / rerun confirmed the fix
    FINDINGS = 1  # a memory failure was diagnosed
    USAGE = 2  # usage or input error (missing, empty, binary, unreadable file; bad option)
    RULE_ERROR = 3  # a rule file or configuration is broken
    STILL_FAILING = 4  # rerun: the fix did not hold
    INTERRUPTED = 130


EXIT_CODES_HELP = (
    "Exit codes: 0 no memory failure found (or rerun confirmed the fix); "
    "1 memory failure diagnosed; 2 usage or input error; 3 broken rule or config; "
    "4 rerun did not confirm a fix; 130 interrupted."
)
