"""JSON encoding of probe dataclasses, and a strict decoder driven by their type hints.

One checker instead of per-field code: `decode(cls, data)` walks the dataclass fields and
accepts exactly the JSON that `encode` writes. `Skipped` is written as `{"skipped": reason}`
wherever a field may be skipped. Unknown keys and wrong types raise `SchemaError` with the
JSON path of the offending value.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, TypeVar, Union, cast

from oomdoctor.probes.base import Skipped

T = TypeVar("T")


class SchemaError(ValueError):
    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def encode(obj: Any) -> Any:
    """A dataclass tree as plain JSON values (dicts, lists, str, int, float, bool, None)."""
    if isinstance(obj, Skipped):
        return {"skipped": obj.reason}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: encode(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [encode(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): encode(v) for k, v in obj.items()}
    return obj


def decode(cls: type[T], data: Any, path: str = "$") -> T:
    """The dataclass `cls` from JSON `data`; raises SchemaError on any mismatch."""
    return cast(T, _decode(cls, data, path))


def _decode(tp: Any, data: Any, path: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return _decode_union(typing.get_args(tp), data, path)
    if origin is tuple:
        item_tp = typing.get_args(tp)[0]
        if not isinstance(data, list):
            raise SchemaError(path, "expected a list")
        return tuple(_decode(item_tp, x, f"{path}[{i}]") for i, x in enumerate(data))
    if origin is dict:
        key_tp, val_tp = typing.get_args(tp)
        if not isinstance(data, dict):
            raise SchemaError(path, "expected an object")
        return {_decode(key_tp, k, path): _decode(val_tp, v, f"{path}.{k}") for k, v in data.items()}
    if dataclasses.is_dataclass(tp):
        return _decode_dataclass(tp, data, path)
    return _decode_scalar(tp, data, path)


def _decode_union(args: tuple[Any, ...], data: Any, path: str) -> Any:
    if data is None:
        if type(None) in args:
            return None
        raise SchemaError(path, "must not be null")
    if Skipped in args and isinstance(data, dict) and "skipped" in data:
        if set(data) != {"skipped"} or not isinstance(data["skipped"], str):
            raise SchemaError(path, 'a skipped value is exactly {"skipped": "<reason>"}')
        return Skipped(data["skipped"])
    rest = [a for a in args if a is not type(None) and a is not Skipped]
    errors = []
    for candidate in rest:
        try:
            return _decode(candidate, data, path)
        except SchemaError as exc:
            errors.append(exc)
    if len(errors) == 1:
        raise errors[0]
    raise SchemaError(path, "does not match any allowed form")


def _decode_dataclass(cls: Any, data: Any, path: str) -> Any:
    if not isinstance(data, dict):
        raise SchemaError(path, "expected an object")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise SchemaError(path, f"unknown key {unknown[0]!r} (known: {', '.join(fields)})")
    values = {}
    for name, f in fields.items():
        if name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise SchemaError(f"{path}.{name}", "missing")
            continue
        values[name] = _decode(hints[name], data[name], f"{path}.{name}")
    return cls(**values)


_SCALARS: dict[type, str] = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}


def _decode_scalar(tp: Any, data: Any, path: str) -> Any:
    if tp is float and isinstance(data, (int, float)) and not isinstance(data, bool):
        return float(data)
    if tp is int and isinstance(data, bool):
        raise SchemaError(path, "expected an integer")
    if tp in _SCALARS:
        if isinstance(data, tp):
            return data
        raise SchemaError(path, f"expected {_SCALARS[tp]}")
    if tp is Any:
        return data
    raise SchemaError(path, f"cannot decode type {tp!r}")  # a programming error in the schema
