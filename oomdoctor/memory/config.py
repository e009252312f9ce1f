"""Reading a model description: a Hugging Face `config.json` (file, model directory, or a model
id in the local Hugging Face cache), or a GGUF file. The only module of `memory` that touches
files; it never uses the network.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from oomdoctor.errors import InputError
from oomdoctor.memory.arch import arch_from_gguf_metadata, arch_from_hf_config
from oomdoctor.memory.model import GgufInfo, ModelSource

_SHARD = re.compile(r"^(?P<stem>.*)-(?P<i>\d{5})-of-(?P<n>\d{5})\.gguf$")
_BIG_ARRAY = 1024  # GGUF arrays longer than this (vocabularies, merges) are kept as lengths


def hf_cache_dirs() -> list[Path]:
    """Where the Hugging Face hub cache lives: HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache."""
    dirs = []
    if os.environ.get("HF_HUB_CACHE"):
        dirs.append(Path(os.environ["HF_HUB_CACHE"]))
    if os.environ.get("HUGGINGFACE_HUB_CACHE"):
        dirs.append(Path(os.environ["HUGGINGFACE_HUB_CACHE"]))
    home = os.environ.get("HF_HOME")
    dirs.append(Path(home) / "hub" if home else Path.home() / ".cache" / "huggingface" / "hub")
    return dirs


def find_in_hf_cache(model_id: str) -> Path | None:
    """`ORG/NAME` -> the newest cached snapshot's config.json (refs/main first)."""
    if model_id.count("/") != 1:
        return None
    folder = "models--" + model_id.replace("/", "--")
    for root in hf_cache_dirs():
        repo = root / folder
        if not repo.is_dir():
            continue
        ref = repo / "refs" / "main"
        if ref.is_file():
            candidate = repo / "snapshots" / ref.read_text().strip() / "config.json"
            if candidate.is_file():
                return candidate
        configs = sorted((repo / "snapshots").glob("*/config.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        if configs:
            return configs[0]
    return None


def _read_json(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc.__class__.__name__}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path} is not a model config (not a JSON object)")
    return data


def _is_gguf(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(4) == b"GGUF"
    except OSError:
        return False


def load_hf_config(path: Path) -> ModelSource:
    data = _read_json(path)
    try:
        arch = arch_from_hf_config(data)
    except InputError as exc:
        raise InputError(f"{path}: {exc.message}") from None
    return ModelSource(arch=arch, origin=str(path))


def _field_value(field: Any) -> Any:
    if len(field.data) > _BIG_ARRAY:
        return len(field.data)
    try:
        return field.contents()
    except Exception:  # a field type the reader cannot decode: skip it
        return None


def _file_type_name(code: Any, tensor_types: dict[str, int]) -> str | None:
    import gguf

    if isinstance(code, int):
        try:
            return gguf.LlamaFileType(code).name.removeprefix("MOSTLY_").removeprefix("ALL_")
        except ValueError:
            pass
    quantized = {k: v for k, v in tensor_types.items() if k not in ("F32", "F16", "BF16")}
    pool = quantized or tensor_types
    return max(pool, key=pool.get) if pool else None


def load_gguf(path: Path) -> ModelSource:
    """Metadata and tensor sizes through `gguf.GGUFReader`; split files are summed."""
    try:
        from gguf import GGUFReader
    except ImportError:  # pragma: no cover - gguf is a dependency
        raise InputError("reading GGUF files needs the 'gguf' package") from None
    shards = [path]
    m = _SHARD.match(path.name)
    if m:
        shards = sorted(path.parent.glob(f"{m.group('stem')}-*-of-{m.group('n')}.gguf"))
    meta: dict[str, Any] = {}
    names: set[str] = set()
    type_bytes: dict[str, int] = {}
    total = params = 0
    for i, shard in enumerate(shards):
        try:
            reader = GGUFReader(str(shard))
        except Exception as exc:
            raise InputError(f"cannot read GGUF file {shard}: {exc}") from None
        if i == 0:
            meta = {name: _field_value(f) for name, f in reader.fields.items() if not name.startswith("GGUF.")}
        for t in reader.tensors:
            names.add(t.name)
            n_bytes, n_el = int(t.n_bytes), int(t.n_elements)
            total += n_bytes
            params += n_el
            type_bytes[t.tensor_type.name] = type_bytes.get(t.tensor_type.name, 0) + n_bytes
    try:
        arch = arch_from_gguf_metadata(meta, frozenset(names))
    except InputError as exc:
        raise InputError(f"{path}: {exc.message}") from None
    info = GgufInfo(
        path=str(path),
        file_type=_file_type_name(meta.get("general.file_type"), type_bytes),
        tensor_bytes=total,
        params=params,
        has_mla_tensors="blk.0.attn_k_b.weight" in names,
        type_bytes=tuple(sorted(type_bytes.items(), key=lambda kv: -kv[1])),
    )
    return ModelSource(arch=arch, origin=str(path), gguf=info)


def load_catalog(name: str) -> ModelSource:
    """A model known by name to the shipped offline catalog (`catalog:ID[@QUANT]` or a name)."""
    from oomdoctor.memory import catalog

    match = catalog.lookup(name.removeprefix("catalog:").split("@", 1)[0])
    if match is None:
        raise InputError(f"{name}: not a file, not in the local Hugging Face cache and not in the offline catalog")
    try:
        arch = arch_from_hf_config(match.config)
    except InputError as exc:
        raise InputError(f"catalog entry {match.id}: {exc.message}") from None
    return ModelSource(arch=arch, origin=f"catalog:{match.id}")


def load_model(spec: str) -> ModelSource:
    """A config.json, a model directory, a .gguf file (first shard), an `ORG/NAME` id already
    in the local Hugging Face cache, or a model the offline catalog knows by name."""
    if not spec or not spec.strip():
        raise InputError("no model config given")
    if spec.startswith("catalog:"):
        return load_catalog(spec)
    path = Path(os.path.expanduser(spec))
    if path.is_dir():
        if (path / "config.json").is_file():
            return load_hf_config(path / "config.json")
        ggufs = sorted(p for p in path.glob("*.gguf") if "mmproj" not in p.name.lower())
        if ggufs:
            first = [p for p in ggufs if not _SHARD.match(p.name) or _SHARD.match(p.name).group("i") == "00001"]
            return load_gguf((first or ggufs)[0])
        raise InputError(f"{path} has no config.json or .gguf file")
    if path.is_file():
        if _is_gguf(path):
            return load_gguf(path)
        return load_hf_config(path)
    cached = find_in_hf_cache(spec.strip())
    if cached is not None:
        return load_hf_config(cached)
    if not spec.startswith((".", "/", "~")) and not path.suffix.lower() in (".json", ".gguf"):
        return load_catalog(spec)  # a name: the offline catalog (no network is used)
    raise InputError(f"{spec}: no such file")
