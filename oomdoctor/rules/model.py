"""Rule types, built from YAML dicts with located errors (`from_dict(d, source)`).

Unknown keys and bad values are errors naming the file and line. Conditions match facts,
never raw log text. A leaf condition with `stated: true` weighs only what the log, a probe or
the user stated ({fact: mem.gpu_blocks, gt: 0, stated: true}: the engine said it sized its KV
pool), not what the card table, the model catalog or the memory model filled in.

A condition may also be `{use: NAME}`: the named condition of that name (a rules directory's
`conditions.yaml`), for a block several rules state alike. It is expanded where the rule is read, so
the engine sees one tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Any, Mapping

from oomdoctor.errors import Location, RuleError
from oomdoctor.facts import FACT_KEYS, FactSet, Value, format_bytes
from oomdoctor.knobs import FRAMEWORKS, KNOBS
from oomdoctor.model import CONFIDENCE_ORDER, Account, Action, Confidence

STATUSES = ("experimental", "test", "stable")
OPERATORS = ("exists", "equals", "in", "matches", "lt", "le", "gt", "ge", "lt_fact", "le_fact", "gt_fact", "ge_fact")
# "{key}", "{key|bytes}", and "{a,b|bytes}" (the first of the keys that has a value)
_TEMPLATE = re.compile(r"\{([a-z_][\w.]*(?:,[a-z_][\w.]*)*)(?:\|(bytes|pct|tokens|int|round2|times|if))?\}")


def _loc(source: Location | None, d: Any, key: str | None = None) -> Location | None:
    line = getattr(d, "key_lines", {}).get(key) if key is not None else None
    line = line or getattr(d, "line", None)
    if source is None:
        return None
    return Location(source.path, line if line is not None else source.line)


def _check_keys(d: Mapping[str, Any], allowed: set[str], required: set[str], what: str, source: Location | None) -> None:
    if not isinstance(d, Mapping):
        raise RuleError(f"{what} must be a mapping, got {type(d).__name__}", _loc(source, d))
    unknown = sorted(set(d) - allowed)
    if unknown:
        raise RuleError(f"unknown key(s) {', '.join(map(str, unknown))} in {what} (allowed: {', '.join(sorted(allowed))})",
                        _loc(source, d, str(unknown[0])))
    missing = sorted(required - set(d))
    if missing:
        raise RuleError(f"missing key(s) {', '.join(missing)} in {what}", _loc(source, d))


# a named condition: (its YAML, where it stands), by name
Named = Mapping[str, tuple[Any, Location]]


def is_name(value: Any) -> bool:
    """A rule id or a named condition's name: lower-case words joined by '-'."""
    return isinstance(value, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]*", value) is not None


def _fact_key(key: Any, source: Location | None, d: Any) -> str:
    if not isinstance(key, str) or key not in FACT_KEYS:
        raise RuleError(f"unknown fact key {key!r}", _loc(source, d))
    return key


@dataclass(frozen=True)
class Condition:
    """A leaf (`fact` + one operator) or a group (`all` / `any` / `not`)."""

    fact: str | None = None
    op: str | None = None
    arg: Any = None
    all: tuple["Condition", ...] = ()
    any: tuple["Condition", ...] = ()
    not_: "Condition | None" = None
    stated: bool = False  # only what the log, a probe or the user stated counts: no card table, catalog or estimate

    @classmethod
    def from_dict(cls, d: Any, source: Location | None, named: Named | None = None, using: tuple[str, ...] = ()) -> "Condition":
        """`named`: the conditions `{use: NAME}` may name; `using`: the names being expanded (a cycle is an error)."""
        if not isinstance(d, Mapping):
            raise RuleError("a condition must be a mapping", _loc(source, d))
        if "use" in d:
            return cls._use(d, source, named or {}, using)
        groups = [k for k in ("all", "any", "not") if k in d]
        if groups:
            _check_keys(d, {"all", "any", "not"}, set(), "condition", source)
            if len(groups) != 1:
                raise RuleError("a condition group takes exactly one of all/any/not", _loc(source, d))
            g = groups[0]
            if g == "not":
                return cls(not_=cls.from_dict(d["not"], source, named, using))
            items = d[g]
            if not isinstance(items, list) or not items:
                raise RuleError(f"'{g}' must be a non-empty list of conditions", _loc(source, d))
            parsed = tuple(cls.from_dict(i, source, named, using) for i in items)
            return cls(all=parsed) if g == "all" else cls(any=parsed)
        _check_keys(d, {"fact", "stated", *OPERATORS}, {"fact"}, "condition", source)
        stated = d.get("stated", False)
        if not isinstance(stated, bool):
            raise RuleError("'stated' needs true or false", _loc(source, d))
        ops = [k for k in d if k not in ("fact", "stated")]
        if len(ops) != 1:
            raise RuleError(f"a condition takes exactly one operator ({', '.join(OPERATORS)})", _loc(source, d))
        op = ops[0]
        arg = d[op]
        key = _fact_key(d["fact"], source, d)
        if op.endswith("_fact"):
            arg = _fact_key(arg, source, d)
        elif op in ("lt", "le", "gt", "ge") and (not isinstance(arg, (int, float)) or isinstance(arg, bool)):
            raise RuleError(f"'{op}' needs a number, got {arg!r}", _loc(source, d))
        elif op == "in" and not isinstance(arg, list):
            raise RuleError("'in' needs a list", _loc(source, d))
        elif op == "exists" and not isinstance(arg, bool):
            raise RuleError("'exists' needs true or false", _loc(source, d))
        elif op == "matches":
            try:
                re.compile(str(arg))
            except re.error as exc:
                raise RuleError(f"bad regex in 'matches': {exc}", _loc(source, d)) from None
        return cls(fact=key, op=op, arg=tuple(arg) if isinstance(arg, list) else arg, stated=stated)

    @classmethod
    def _use(cls, d: Mapping[str, Any], source: Location | None, named: Named, using: tuple[str, ...]) -> "Condition":
        _check_keys(d, {"use"}, {"use"}, "condition", source)
        name = d["use"]
        if not isinstance(name, str) or name not in named:
            known = ", ".join(sorted(named)) or "none"
            raise RuleError(f"unknown named condition {name!r} (known: {known})", _loc(source, d))
        if name in using:
            raise RuleError(f"named condition {name!r} uses itself ({' -> '.join((*using, name))})", _loc(source, d))
        body, where = named[name]
        return cls.from_dict(body, where, named, (*using, name))

    def facts_named(self) -> set[str]:
        out: set[str] = set()
        if self.fact:
            out.add(self.fact)
            if self.op and self.op.endswith("_fact"):
                out.add(str(self.arg))
        for c in (*self.all, *self.any, *((self.not_,) if self.not_ else ())):
            out |= c.facts_named()
        return out

    def holds(self, facts: FactSet) -> bool:
        if self.all:
            return all(c.holds(facts) for c in self.all)
        if self.any:
            return any(c.holds(facts) for c in self.any)
        if self.not_ is not None:
            return not self.not_.holds(facts)
        assert self.fact is not None and self.op is not None
        if self.stated:
            facts = facts.stated(self.fact, str(self.arg) if self.op.endswith("_fact") else None)
        if self.op == "exists":
            return facts.has(self.fact) == bool(self.arg)
        if self.op in ("equals", "in", "matches"):
            return any(_compare(self.op, v, self.arg) for v in facts.values(self.fact))
        value = facts.value(self.fact)
        if value is None:
            return False
        other = self.arg
        op = self.op
        if op.endswith("_fact"):
            other = facts.value(str(self.arg))
            if other is None:
                return False
            op = op[: -len("_fact")]
        return _compare(op, value, other)


def _compare(op: str, value: Value, arg: Any) -> bool:
    if op == "equals":
        return value == arg or (isinstance(value, str) and isinstance(arg, str) and value.lower() == arg.lower())
    if op == "in":
        return value in arg or (isinstance(value, str) and value.lower() in {str(a).lower() for a in arg})
    if op == "matches":
        return isinstance(value, str) and re.search(str(arg), value) is not None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not isinstance(arg, (int, float)):
        return False
    return {"lt": value < arg, "le": value <= arg, "gt": value > arg, "ge": value >= arg}[op]


@dataclass(frozen=True)
class SuggestionSpec:
    knob: str
    action: Action
    value: str | int | float | bool | None
    why: str
    when: Condition | None = None

    @classmethod
    def from_dict(cls, d: Any, source: Location | None, named: Named | None = None) -> "SuggestionSpec":
        _check_keys(d, {"knob", "action", "value", "why", "when"}, {"knob", "action", "why"}, "suggestion", source)
        if d["knob"] not in KNOBS:
            raise RuleError(f"unknown knob id {d['knob']!r}", _loc(source, d))
        try:
            action = Action(d["action"])
        except ValueError:
            raise RuleError(f"unknown action {d['action']!r} (one of {', '.join(a.value for a in Action)})", _loc(source, d)) from None
        value = d.get("value")
        if isinstance(value, str):
            _check_template(value, source, d)
        _check_template(str(d["why"]), source, d)
        when = Condition.from_dict(d["when"], source, named) if "when" in d else None
        return cls(d["knob"], action, value, str(d["why"]), when)


def _check_template(text: str, source: Location | None, d: Any, field: str | None = None) -> None:
    for m in _TEMPLATE.finditer(text):
        for key in m.group(1).split(","):
            if key not in FACT_KEYS:
                raise RuleError(f"template names unknown fact {key!r}", _loc(source, d, f"{field}:value" if field else None))


def _first(keys: str, facts: FactSet) -> Value | None:
    for key in keys.split(","):
        value = facts.value(key)
        if value is not None:
            return value
    return None


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    status: str
    account: Account
    frameworks: tuple[str, ...]
    confidence: Confidence
    description: str
    when: Condition
    message: str
    suggest: tuple[SuggestionSpec, ...]
    references: tuple[str, ...] = ()
    # a last reading: counted only when no other rule fired (a non-memory error line, a phase prior)
    fallback: bool = False
    # the confidence a verdict it decides states, where measurement showed the rule right less often than its
    # `confidence` (which still ranks it against other findings): lower than `confidence`, never higher
    reported_confidence: Confidence | None = None
    path: str = ""

    @classmethod
    def from_dict(cls, d: Any, source: Location, named: Named | None = None) -> "Rule":
        allowed = {f.name for f in fields(cls)} - {"path"}
        _check_keys(d, allowed, {"id", "title", "status", "account", "frameworks", "confidence", "when", "message"}, "rule", source)
        if not is_name(d["id"]):
            raise RuleError(f"rule id {d['id']!r} must be lower-case words joined by '-'", _loc(source, d, "id"))
        if d["status"] not in STATUSES:
            raise RuleError(f"status {d['status']!r} is not one of {', '.join(STATUSES)}", _loc(source, d, "status"))
        for key, enum in (("account", Account), ("confidence", Confidence), ("reported_confidence", Confidence)):
            if key == "reported_confidence" and d.get(key) is None:
                continue  # (optional)
            if d[key] not in {e.value for e in enum}:
                raise RuleError(f"{key} {d[key]!r} is not one of {', '.join(e.value for e in enum)}", _loc(source, d, key))
        account, confidence = Account(d["account"]), Confidence(d["confidence"])
        fws = d["frameworks"]
        if not isinstance(fws, list) or not fws or any(f != "any" and f not in FRAMEWORKS for f in fws):
            raise RuleError(f"frameworks must be a list of {', '.join(FRAMEWORKS)} or [any]", _loc(source, d, "frameworks"))
        _check_template(str(d["message"]), source, d, "message")
        suggest = d.get("suggest") or []
        if not isinstance(suggest, list):
            raise RuleError("suggest must be a list", _loc(source, d, "suggest"))
        refs = d.get("references") or []
        if not isinstance(d.get("fallback", False), bool):
            raise RuleError("fallback must be true or false", _loc(source, d, "fallback"))
        reported = d.get("reported_confidence")
        if reported is not None and CONFIDENCE_ORDER[Confidence(reported)] <= CONFIDENCE_ORDER[confidence]:
            raise RuleError(f"reported_confidence {reported!r} must be lower than confidence {confidence.value!r}",
                            _loc(source, d, "reported_confidence"))
        return cls(
            id=d["id"], title=str(d["title"]), status=d["status"], account=account, frameworks=tuple(fws),
            confidence=confidence, description=str(d.get("description", "")).strip(),
            when=Condition.from_dict(d["when"], source, named), message=str(d["message"]).strip(),
            suggest=tuple(SuggestionSpec.from_dict(s, source, named) for s in suggest),
            references=tuple(str(r) for r in refs), fallback=bool(d.get("fallback", False)),
            reported_confidence=Confidence(reported) if reported is not None else None, path=source.path,
        )

    def applies_to(self, framework: str) -> bool:
        return "any" in self.frameworks or framework in self.frameworks


_OPTIONAL = re.compile(r"\[\[(.*?)\]\]", re.S)


def render_template(text: str, facts: FactSet) -> str:
    """Fill `{fact}` placeholders; an optional segment `[[...]]` is dropped when any
    placeholder inside it has no value."""

    def sub(m: re.Match[str]) -> str:
        value = _first(m.group(1), facts)
        if value is None:
            return "?"
        return format_value(value, m.group(2))

    def optional(m: re.Match[str]) -> str:
        inner = m.group(1)
        if any(_first(k.group(1), facts) is None for k in _TEMPLATE.finditer(inner)):
            return ""
        return _TEMPLATE.sub(sub, inner)

    return " ".join(_TEMPLATE.sub(sub, _OPTIONAL.sub(optional, text)).split())


def unfilled_placeholders(text: str, facts: FactSet) -> list[str]:
    """The placeholders outside optional segments that no fact fills: what render_template prints as "?"."""
    return [m.group(1) for m in _TEMPLATE.finditer(_OPTIONAL.sub("", text)) if _first(m.group(1), facts) is None]


def template_keys(text: str) -> set[str]:
    return {key for m in _TEMPLATE.finditer(text) for key in m.group(1).split(",")}


def template_value(text: str, facts: FactSet) -> Value | None:
    """A suggestion value: a bare `{fact}` keeps the fact's type; missing facts give None."""
    m = _TEMPLATE.fullmatch(text.strip())
    if m and m.group(2) is None:
        return _first(m.group(1), facts)
    if any(_first(k.group(1), facts) is None for k in _TEMPLATE.finditer(text)):
        return None
    return render_template(text, facts)


def format_value(value: Value, fmt: str | None) -> str:
    if fmt == "if":  # shows nothing: an optional segment's condition that the fact is there
        return ""
    if fmt == "bytes" and isinstance(value, (int, float)):
        return format_bytes(int(value))
    if fmt == "pct" and isinstance(value, (int, float)):
        return f"{value * 100:.1f}%" if 0 < value < 0.01 else f"{value * 100:.0f}%"  # a sliver is not 0%
    if fmt == "tokens" and isinstance(value, (int, float)):
        return f"{int(value):,}"
    if fmt == "int" and isinstance(value, (int, float)):
        return str(int(value))
    if fmt == "round2" and isinstance(value, float):
        return f"{value:.2f}"
    if fmt == "times" and isinstance(value, (int, float)):
        return f"{value:.0f}x" if value >= 10 else f"{value:.1f}x"
    return str(value)


