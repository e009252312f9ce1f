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

_COMMAND_MODULES = ("diagnose", "rules", "estimate", "probe", "rerun", "schema")


def _register_all() -> None:
    import importlib

    for name in _COMMAND_MODULES:
        module = importlib.import_module(f"oomdoctor.cli.{name}")
        module.register(app)


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

    _register_all()
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
