"""`oomdoctor schema`: print the JSON Schema of `--format json` reports."""

from __future__ import annotations

import typer

from oomdoctor.errors import OomDoctorError

SCHEMA_RESOURCE = ("oomdoctor", "data/report.schema.json")


def read_schema() -> str:
    """The schema text shipped in the package (`oomdoctor/data/report.schema.json`)."""
    from importlib import resources

    package, name = SCHEMA_RESOURCE
    try:
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise OomDoctorError(f"the report schema is missing from the installed package ({package}/{name})") from exc


def schema() -> None:
    """Print the JSON Schema that `diagnose --format json` output follows."""
    text = read_schema()
    typer.echo(text, nl=not text.endswith("\n"))


def register(app: typer.Typer) -> None:
    app.command(
        "schema",
        help="Print the JSON Schema of the JSON report (`diagnose --format json`).",
    )(schema)
