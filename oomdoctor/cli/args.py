"""Splitting what click leaves over: log paths given without --log, a launch command after
`--`, and mistyped options (with the closest real option named)."""

from __future__ import annotations

import difflib
import sys
from typing import Sequence

import typer

from oomdoctor.errors import UsageError


def _after_dash_dash(argv: Sequence[str]) -> list[str] | None:
    return list(argv[argv.index("--") + 1:]) if "--" in argv else None


def option_names(ctx: typer.Context) -> list[str]:
    names: list[str] = []
    for p in ctx.command.params:
        names += [o for o in getattr(p, "opts", []) if o.startswith("-")]
        names += [o for o in getattr(p, "secondary_opts", []) if o.startswith("-")]
    return names


def unknown_option(ctx: typer.Context, token: str) -> UsageError:
    name = token.partition("=")[0]
    close = difflib.get_close_matches(name, option_names(ctx), n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]}?)" if close else f" (see `oomdoctor {ctx.info_name} --help`)"
    return UsageError(f"no such option: {name}{hint}")


def split_extra(ctx: typer.Context, logs: list[str], argv: Sequence[str] | None = None) -> tuple[list[str], list[str]]:
    """(log paths, the command after `--`) from click's leftover arguments. Click drops the
    `--` itself, so the command is what follows it on the real command line."""
    argv = sys.argv if argv is None else argv
    extra = list(ctx.args)
    command = _after_dash_dash(argv) or []
    before = extra[: len(extra) - len(command)] if command and extra[len(extra) - len(command):] == command else extra
    if not command and _after_dash_dash(argv) is None:
        before = extra
    for tok in before:
        if tok.startswith("-") and tok != "-":
            raise unknown_option(ctx, tok)
    return logs + before, command
