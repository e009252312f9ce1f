"""Finding and reading model descriptions: files, directories, the local Hugging Face cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oomdoctor.errors import InputError
from oomdoctor.memory import load_model
from oomdoctor.memory.config import find_in_hf_cache
from test_memory_arch import LLAMA3_8B


def _snapshot(root: Path, model_id: str, rev: str = "abc123") -> Path:
    snap = root / ("models--" + model_id.replace("/", "--")) / "snapshots" / rev
    snap.mkdir(parents=True)
    (snap / "config.json").write_text(json.dumps(LLAMA3_8B))
    return snap


def test_model_id_from_hf_hub_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    snap = _snapshot(tmp_path, "meta-llama/Meta-Llama-3-8B")
    m = load_model("meta-llama/Meta-Llama-3-8B")
    assert m.origin == str(snap / "config.json")
    assert m.arch.num_layers == 32


def test_hf_home_and_refs_main(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    hub = tmp_path / "hub"
    _snapshot(hub, "org/name", "old")
    new = _snapshot(hub, "org/name", "new")
    (hub / "models--org--name" / "refs").mkdir()
    (hub / "models--org--name" / "refs" / "main").write_text("new\n")
    assert find_in_hf_cache("org/name") == new / "config.json"


def test_uncached_model_id_never_touches_the_network(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    with pytest.raises(InputError, match="local Hugging Face cache"):
        load_model("org/not-there")


def test_directory_with_config(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps(LLAMA3_8B))
    assert load_model(str(tmp_path)).arch.hidden_size == 4096


@pytest.mark.parametrize("content,match", [("{not json", "not JSON"), ("[1, 2]", "not a model config"),
                                           ('{"model_type": "llama"}', "missing")])
def test_bad_files(tmp_path: Path, content: str, match: str) -> None:
    p = tmp_path / "config.json"
    p.write_text(content)
    with pytest.raises(InputError, match=match):
        load_model(str(p))


def test_missing_path_and_empty_dir(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_model(str(tmp_path / "nope.json"))
    with pytest.raises(InputError, match="no config.json"):
        load_model(str(tmp_path))
