"""A recorded cluster served over HTTP to the real `kubernetes` client (see fake_api.py),
a kubeconfig pointing at it, and a way to run `oomdoctor k8s` in-process."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("kubernetes", reason="the k8s command's tests need the Kubernetes client (pip install kubernetes)")

from fake_api import FakeApiServer  # noqa: E402

CLUSTER = Path(__file__).resolve().parents[2] / "fixtures" / "k8s" / "serving-cluster"


@pytest.fixture(scope="module")
def api_server() -> Iterator[FakeApiServer]:
    with FakeApiServer(CLUSTER, max_page=4) as server:
        yield server


@pytest.fixture()
def server(api_server: FakeApiServer) -> Iterator[FakeApiServer]:
    api_server.reset()
    yield api_server
    api_server.reset()


@pytest.fixture()
def kubeconfig(server: FakeApiServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = server.write_kubeconfig(tmp_path / "kubeconfig")
    monkeypatch.setenv("KUBECONFIG", str(path))
    return path


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json(self) -> dict[str, Any]:
        return json.loads(self.out)


def invoke(*args: str) -> Run:
    """`oomdoctor k8s ARGS` through the real entry point (`oomdoctor.cli.main`) in this process:
    an error maps to its exit status and one stderr line, as for a user."""
    import contextlib
    import io
    import sys

    import oomdoctor.cli as cli

    out, err = io.StringIO(), io.StringIO()
    saved = cli.app, sys.argv
    cli.app, sys.argv = _fresh_app(cli), ["oomdoctor", "k8s", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        cli.app, sys.argv = saved
    return Run(code, out.getvalue(), err.getvalue())


@pytest.fixture()
def oomdoctor_k8s(kubeconfig: Path):  # type: ignore[no-untyped-def]
    return invoke


@pytest.fixture(scope="module")
def serving_json(api_server: FakeApiServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """`oomdoctor k8s --namespace serving --format json`, run once for the tests that only read it."""
    import os

    api_server.reset()
    path = api_server.write_kubeconfig(tmp_path_factory.mktemp("kube") / "kubeconfig")
    old = os.environ.get("KUBECONFIG")
    os.environ["KUBECONFIG"] = str(path)
    try:
        run = invoke("--namespace", "serving", "--format", "json")
    finally:
        if old is None:
            os.environ.pop("KUBECONFIG", None)
        else:
            os.environ["KUBECONFIG"] = old
    assert run.code == 1, run.err
    return run.json()


def _fresh_app(cli: Any) -> Any:
    """A Typer app like `oomdoctor.cli.app`, without the commands an earlier main() registered."""
    import typer

    app = typer.Typer(name="oomdoctor", no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                      rich_markup_mode=None)
    app.callback(invoke_without_command=True)(cli._root)
    return app


def find(doc: dict[str, Any], pod: str) -> dict[str, Any]:
    return next(p for p in doc["pods"] if p["pod"] == pod)
