from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from oomdoctor.cli import schema as schema_cli
from oomdoctor.errors import OomDoctorError


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def _root() -> None:  # a callback keeps `schema` a sub-command, as in the real CLI
        pass

    schema_cli.register(app)
    return app


@pytest.fixture
def fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    pkg = tmp_path / "fake_oomdoctor_pkg"
    (pkg / "data").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "data" / "report.schema.json").write_text('{"$schema": "https://json-schema.org/draft/2020-12/schema"}\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(schema_cli, "SCHEMA_RESOURCE", ("fake_oomdoctor_pkg", "data/report.schema.json"))
    yield "fake_oomdoctor_pkg"
    sys.modules.pop("fake_oomdoctor_pkg", None)


def test_schema_prints_the_packaged_file(fake_package):
    result = CliRunner().invoke(_app(), ["schema"])
    assert result.exit_code == 0
    assert result.stdout == '{"$schema": "https://json-schema.org/draft/2020-12/schema"}\n'


def test_missing_schema_is_a_library_error(monkeypatch):
    monkeypatch.setattr(schema_cli, "SCHEMA_RESOURCE", ("oomdoctor", "data/no-such.schema.json"))
    with pytest.raises(OomDoctorError, match="report schema is missing"):
        schema_cli.read_schema()


def test_shipped_schema_is_json():
    try:
        text = schema_cli.read_schema()
    except OomDoctorError:
        pytest.skip("oomdoctor/data/report.schema.json not written yet")
    result = CliRunner().invoke(_app(), ["schema"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads(text)
