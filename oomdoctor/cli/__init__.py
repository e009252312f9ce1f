"""The `oomdoctor` command line. Thin: parse flags, call one library function, render,
map the outcome to an exit status. Only this package prints or exits.

Each command lives in its own module with a `register(app)` function.
"""

from __future__ import annotations

import sys

import typer

from oomdoctor.status import EXIT_CODES_HELP, ExitStatus

app = typer.Typer(
    name="oomdoctor",
    help="OOM doctor for LLM inference servers: which memory account broke, with the numbers, "
    "and the exact change to make.\n\n" + EXIT_CODES_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

_COMMAND_MODULES = ("diagnose", "rules", "estimate", "probe", "rerun", "schema", "k8s", "watch", "run")


_MODULE_OF = {"confirm": "rerun", "sweep": "rerun"}  # commands whose module has another name


def _register(argv: list[str]) -> None:
    """Register the invoked command only (a fast start: its module alone is imported); every
    command when none is named (help). Idempotent: main() may run more than once per process."""
    import importlib

    first = next((a for a in argv[1:] if not a.startswith("-")), None)
    named = _MODULE_OF.get(first or "", first)
    done: set[str] = app.__dict__.setdefault("_oomdoctor_registered", set())
    for name in (named,) if named in _COMMAND_MODULES else _COMMAND_MODULES:
        if name not in done:
            importlib.import_module(f"oomdoctor.cli.{name}").register(app)
            done.add(name)


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True),
) -> None:
    if version:
        from oomdoctor import __version__

        typer.echo(f"oomdoctor {__version__}")
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(int(ExitStatus.USAGE))


def _redact(text: str) -> str:
    if "--no-redact" in sys.argv[1:]:
        return text
    from oomdoctor.redact import Redactor

    return Redactor(hosts="--redact-hosts" in sys.argv[1:]).text(text)


def main() -> None:
    """Entry point: every library error becomes one line on stderr and a documented exit code."""
    from oomdoctor.errors import OomDoctorError

    _register(sys.argv)
    debug = "--debug" in sys.argv[1:]
    if debug:
        sys.argv.remove("--debug")
    try:
        app(standalone_mode=True)
    except OomDoctorError as exc:
        if debug:
            raise
        sys.stderr.write(f"oomdoctor: error: {_redact(str(exc))}\n")
        sys.exit(int(exc.status))
    except KeyboardInterrupt:
        sys.stderr.write("oomdoctor: interrupted\n")
        sys.exit(int(ExitStatus.INTERRUPTED))
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:  # a bug: one line and its own exit status, never 1 ("memory failure diagnosed")
        if debug:
            raise
        sys.stderr.write(f"oomdoctor: internal error: {type(exc).__name__}: {_redact(str(exc))[:300]} "
                         f"(rerun with --debug for the traceback, and please report it)\n")
        sys.exit(int(ExitStatus.INTERNAL))
