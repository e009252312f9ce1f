"""`oomdoctor rules list` and `oomdoctor rules lint`."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from oomdoctor.status import ExitStatus

rules_app = typer.Typer(help="List and lint the YAML rules.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(rules_app, name="rules")


@rules_app.command("list", help="List the rules in triage order.")
def list_rules(
    rules: List[Path] = typer.Option([], "--rules", help="Extra rule directory (repeatable)."),
    fmt: str = typer.Option("text", "--format", help="text or json."),
) -> None:
    from oomdoctor.rules.engine import TRIAGE_ORDER
    from oomdoctor.rules.loader import load_rules

    rs = load_rules(rules)
    order = {a: i for i, a in enumerate(TRIAGE_ORDER)}
    ordered = sorted(rs.rules, key=lambda r: (order[r.account], r.id))
    if fmt == "json":
        import json

        typer.echo(json.dumps([{"id": r.id, "account": r.account.value, "status": r.status, "confidence": r.confidence.value,
                                "frameworks": list(r.frameworks), "title": r.title, "path": r.path} for r in ordered], indent=2))
        return
    for r in ordered:
        typer.echo(f"{r.account.value:12} {r.id:44} {r.confidence.value:6} {','.join(r.frameworks):28} {r.title}")


@rules_app.command("lint", help="Validate every rule; with --fixtures, check each rule has fixtures. Exit 3 on HIGH issues.")
def lint_rules(
    rules: List[Path] = typer.Option([], "--rules", help="Extra rule directory (repeatable)."),
    fixtures: Optional[Path] = typer.Option(None, "--fixtures", help="Fixture root (fixtures/rules) to check rule coverage."),
) -> None:
    from oomdoctor.rules.lint import Severity, lint, load_fixture_cases
    from oomdoctor.rules.loader import load_rules

    rs = load_rules(rules, collect_errors=True)
    for err in rs.errors:
        typer.echo(f"HIGH   {err}")
    cases = load_fixture_cases(fixtures) if fixtures else None
    issues = lint(rs.rules, cases)
    for i in issues:
        typer.echo(f"{i.severity.value.upper():6} {i.rule_id}: {i.message}")
    high = len(rs.errors) + sum(i.severity is Severity.HIGH for i in issues)
    typer.echo(f"{len(rs.rules)} rules, {len(rs.errors)} broken, {len(issues)} issues ({high} high)")
    raise typer.Exit(int(ExitStatus.RULE_ERROR if high else ExitStatus.OK))
