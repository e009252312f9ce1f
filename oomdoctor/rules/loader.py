"""Load rule YAML: one rule per file, file stem equals the id; duplicate keys rejected;
every mapping remembers its line so errors say `path:line`."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from oomdoctor.errors import InputError, Location, RuleError
from oomdoctor.rules.model import Condition, Named, Rule, is_name

CONDITIONS = "conditions.yaml"  # a rules directory's named conditions, not a rule


class _LineDict(dict):  # type: ignore[type-arg]
    line: int | None = None
    key_lines: dict[str, int]


@lru_cache(maxsize=1)
def _yaml_loader() -> type:
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml parses ~10x faster

    class Loader(base):  # type: ignore[valid-type,misc]
        pass

    def construct_mapping(loader: Any, node: Any, deep: bool = False) -> _LineDict:
        loader.flatten_mapping(node)
        out = _LineDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if key in out:
                raise RuleError(f"duplicate key {key!r}", Location("", key_node.start_mark.line + 1))
            out[key] = loader.construct_object(value_node, deep=True)
            out.key_lines[str(key)] = key_node.start_mark.line + 1
            # a block scalar's text starts on the line after its '>' or '|'
            block = getattr(value_node, "style", None) in (">", "|")
            out.key_lines[f"{key}:value"] = value_node.start_mark.line + 1 + (1 if block else 0)
        return out

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    return Loader


def _read_yaml(path: Path, what: str) -> Any:
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleError(f"cannot read {what}: {exc}", Location(str(path))) from None
    try:
        return yaml.load(text, Loader=_yaml_loader())  # noqa: S506 - a SafeLoader subclass
    except RuleError as exc:
        raise RuleError(exc.message, Location(str(path), exc.source.line if exc.source else None)) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise RuleError(f"invalid YAML: {problem}", Location(str(path), mark.line + 1 if mark else None)) from None


def load_named(directory: Path, base: Named | None = None) -> dict[str, tuple[Any, Location]]:
    """The named conditions of a rules directory (its `conditions.yaml`: name → condition), each
    checked once here (they may use `base`'s), so a broken one is reported even where no rule uses it yet."""
    path = directory / CONDITIONS
    if not path.is_file():
        return {}
    data = _read_yaml(path, "named conditions")
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise RuleError("named conditions must be a mapping of names to conditions", Location(str(path)))
    named: dict[str, tuple[Any, Location]] = {}
    for name, body in data.items():
        where = Location(str(path), getattr(data, "key_lines", {}).get(str(name)))
        if not is_name(name):
            raise RuleError(f"named condition {name!r} must be lower-case words joined by '-'", where)
        named[name] = (body, where)
    usable = {**(base or {}), **named}
    for name, (_, where) in named.items():
        Condition.from_dict({"use": name}, where, usable)
    return named


def load_rule(path: Path, named: Named | None = None) -> Rule:
    """One rule file; `named`: the named conditions its `{use: NAME}` may name."""
    data = _read_yaml(path, "rule file")
    if data is None:
        raise RuleError("empty rule file", Location(str(path)))
    rule = Rule.from_dict(data, Location(str(path), getattr(data, "line", None)), named)
    if rule.id != path.stem:
        raise RuleError(f"rule id {rule.id!r} does not match the file name {path.name!r}", Location(str(path), getattr(data, "line", None)))
    return rule


@dataclass(frozen=True)
class RuleSet:
    rules: tuple[Rule, ...]
    errors: tuple[RuleError, ...] = field(default_factory=tuple)


def builtin_rules_dir() -> Path:
    return Path(str(resources.files("oomdoctor.builtin_rules")))


def rule_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.suffix in (".yaml", ".yml") and p != directory / CONDITIONS and p.is_file())


def _cache_name(paths: list[Path]) -> str | None:
    """The cache entry of the parsed built-in rules, keyed by the rule files (path, size,
    modification time) and the oomdoctor version: a changed rule is parsed again."""
    from oomdoctor import cache

    try:  # name, size and modification time: a changed file is a new key, without reading them all
        parts = [f"{p}\0{st.st_size}\0{st.st_mtime_ns}".encode() for p in paths for st in (p.stat(),)]
    except OSError:
        return None
    return f"rules-{cache.key(parts)}.pickle"


def _builtin_rules(paths: list[Path]) -> list[Rule] | None:
    """The built-in rules from the cache, or None (then they are parsed and cached)."""
    import pickle

    from oomdoctor import cache

    name = _cache_name(paths)
    data = cache.read(name) if name else None
    if data is None:
        return None
    try:
        rules = pickle.loads(data)  # noqa: S301 - our own file, keyed by content
    except Exception:  # a stale or torn cache file: parse the YAML instead
        return None
    return rules if isinstance(rules, list) and all(isinstance(r, Rule) for r in rules) else None


def _store_builtin(paths: list[Path], rules: list[Rule]) -> None:
    import pickle

    from oomdoctor import cache

    name = _cache_name(paths)
    if name:
        cache.write(name, pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL))


def load_rules(dirs: Iterable[Path] = (), builtin: bool = True, collect_errors: bool = False) -> RuleSet:
    """Built-in rules plus user rule directories. With collect_errors, bad files are
    returned in `errors` and skipped; otherwise the first error is raised. The built-in rules
    are parsed once per content and version, then read from a cache (fast start)."""
    paths: list[tuple[Path, Named]] = []  # each rule file, with the named conditions it may use
    cached: list[Rule] | None = None
    errors: list[RuleError] = []
    builtin_dir = builtin_rules_dir()
    builtin_paths = rule_files(builtin_dir) if builtin else []
    keyed = builtin_paths + [p for p in (builtin_dir / CONDITIONS,) if builtin and p.is_file()]
    if builtin:
        cached = _builtin_rules(keyed)
    dirs = [Path(d) for d in dirs]
    # (read only where a rule is parsed: a start that finds the built-in rules cached and no --rules reads no YAML)
    builtin_named = load_named(builtin_dir) if builtin and (cached is None or dirs) else {}
    if builtin and cached is None:
        paths.extend((p, builtin_named) for p in builtin_paths)
    for d in dirs:
        if not d.exists():
            raise InputError(f"rules directory not found: {d}")
        try:
            named = _with_own(builtin_named, d if d.is_dir() else d.parent)
        except RuleError as exc:
            if not collect_errors:
                raise
            errors.append(exc)
            continue
        paths.extend((p, named) for p in ([d] if d.is_file() else rule_files(d)))
    rules: list[Rule] = list(cached or ())
    seen: dict[str, str] = {r.id: r.path for r in rules}
    for p, named in paths:
        try:
            rule = load_rule(p, named)
            if rule.id in seen:
                raise RuleError(f"duplicate rule id {rule.id!r} (also in {seen[rule.id]})", Location(str(p)))
            seen[rule.id] = str(p)
            rules.append(rule)
        except RuleError as exc:
            if not collect_errors:
                raise
            errors.append(exc)
    if builtin and cached is None and not errors:
        _store_builtin(keyed, [r for r in rules if r.path in {str(p) for p in builtin_paths}])
    return RuleSet(tuple(rules), tuple(errors))


def _with_own(builtin: Named, directory: Path) -> Named:
    """The built-in named conditions plus a user directory's own (a name both define is an error)."""
    if directory.resolve() == builtin_rules_dir().resolve():
        return builtin
    own = load_named(directory, builtin)
    for name, (_, where) in own.items():
        if name in builtin:
            raise RuleError(f"named condition {name!r} is already a built-in one ({builtin[name][1]})", where)
    return {**builtin, **own}
