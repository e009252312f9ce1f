"""Redaction: mask secrets (always) and host identity (on request) before anything leaves the host.

A report is pasted into tickets read by people who were not on call, so every string that
reaches output goes through a `Redactor` first: evidence lines, messages, suggestions, fact
values, probe snapshots and the rerun command.

- Secrets (default): Hugging Face / OpenAI / Anthropic / GitHub / Google keys, bearer tokens
  and JWTs, AWS keys, passwords in URLs, private-key blocks, and the values of secret-named
  keys in argument dumps (`api_key='…'`, `hf_token: Some("…")`, `"token": "…"`,
  `--api-key X`, `HF_TOKEN=…`).
- Hosts (`hosts=True`): IPv4/IPv6 addresses, fully qualified host names, e-mail addresses and
  the user name of home directories (`/home/alice/` -> `/home/***/`).

Normal log text is left alone: sizes, flags, token counts (`#token: 12`, `max_total_tokens`),
tokenizer fields (`eos_token='</s>'`), `None` values, model snapshot hashes, dotted Python
names and file names. Pure; all patterns are compiled once at import.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from re import Match
from typing import Any, Union

from oomdoctor.facts import Evidence, Fact, FactSet
from oomdoctor.model import Finding, LogSource, Report, Suggestion

MASK = "***"

# --- secret-named keys -------------------------------------------------------------------
# `{s}` is the word separator: "_" for keys (snake/UPPER env), "[-_]" for command-line flags.
_TOKEN_OWNERS = (
    r"hf|hub|hugging{s}?face(?:{s}hub)?|github|gh|gitlab|wandb|ngrok|slack|discord|openai|anthropic"
    r"|api|access|auth|bearer|refresh|session|id|service|bot|personal{s}access|oauth"
)
_KEY_TEMPLATE = (
    r"(?:"
    r"(?:[a-z0-9]+{s})*?(?:" + _TOKEN_OWNERS + r"){s}token"  # hf_token, HUGGING_FACE_HUB_TOKEN
    r"|token|authtoken|(?:[a-z0-9]+{s})*authtoken"  # bare token, ngrok_authtoken
    r"|(?:[a-z0-9]+{s})*?(?:api{s}?key|password|passwd|secret(?:{s}access)?(?:{s}key)?"
    r"|client{s}secret|private{s}key|access{s}key|credentials?)"
    r")"
)
_KEY = _KEY_TEMPLATE.replace("{s}", "_")
_FLAG_KEY = _KEY_TEMPLATE.replace("{s}", "[-_]")

# A key's own name must start the match: not inside a word, a kebab name or `#token`.
_KEY_START = r"(?<![\w#\-])"
# Values that are not secrets: absent, boolean, already masked, or a reference to a variable.
_NOT_SECRET = re.compile(r"(?i)^(?:|none|null|nil|true|false|\*+|<[^>]*>|\$\{?\w+\}?|.*\*\*\*.*)$")

_KV = re.compile(
    _KEY_START
    + r"(?P<key>(?P<q>[\"']?)"
    + _KEY
    + r"(?P=q)\s*(?:=|:(?!:))\s*)"
    + r"(?:(?P<wrap>Some\(\s*)(?P<wq>[\"'])(?P<wval>[^\"'\n]*)(?P=wq)(?P<wend>\s*\))"
    + r"|(?P<vq>[\"'])(?P<qval>[^\"'\n]*)(?P=vq)"
    + r"|(?P<bare>[^\s,;&)}\]\"'][^\s,;&)}\]\"']*))",
    re.IGNORECASE,
)
_FLAG = re.compile(
    r"(?<![\w-])(?P<flag>--?" + _FLAG_KEY + r")(?P<sep>=|\s+)"
    r"(?:(?P<vq>[\"'])(?P<qval>[^\"'\n]*)(?P=vq)|(?P<bare>[^\s\"'-][^\s\"']*))",
    re.IGNORECASE,
)
_FLAG_ONLY = re.compile(r"--?" + _FLAG_KEY, re.IGNORECASE)
_KEY_ONLY = re.compile(_KEY, re.IGNORECASE)

# --- secrets recognised by their shape --------------------------------------------------
_PEM = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)")

Repl = Union[str, Callable[[Match[str]], str]]  # noqa: UP007 - evaluated at import


@dataclass(frozen=True)
class _Step:
    """One substitution, run only on lines where `gate` (searched in the lower-cased line)
    finds something: a cheap literal scan spares most lines most of the costly patterns."""

    pattern: re.Pattern[str]
    repl: Repl
    gate: re.Pattern[str] | None

    @classmethod
    def of(cls, pattern: re.Pattern[str], repl: Repl, *hints: str) -> _Step:
        gate = re.compile("|".join(re.escape(h) for h in hints)) if hints else None
        return cls(pattern, repl, gate)


_SHAPES: tuple[_Step, ...] = (
    # scheme://user:password@host -> scheme://user:***@host
    _Step.of(re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.\-]*://[^:/\s@]*):[^@\s/]+@"), r"\1:" + MASK + "@", "://"),
    _Step.of(
        re.compile(r"(?i)\b(authorization[\"']?\s*[:=]\s*[\"']?)(?:basic|token|digest)\s+[A-Za-z0-9._~+/=\-]+"),
        r"\1" + MASK,
        "authorization",
    ),
    _Step.of(re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/\-]{8,}=*"), r"\1 " + MASK, "bearer"),
    _Step.of(re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{4,}"), MASK, "eyj"),
    _Step.of(re.compile(r"\bhf_[A-Za-z0-9]{20,}\b"), "hf_" + MASK, "hf_"),
    _Step.of(re.compile(r"\bapi_org_[A-Za-z0-9]{20,}\b"), "api_org_" + MASK, "api_org_"),
    _Step.of(
        re.compile(r"(?<![\w\-])sk-(ant-(?:[a-z0-9]+-)?|proj-|svcacct-)?[A-Za-z0-9_\-]{20,}"),
        r"sk-\1" + MASK,
        "sk-",
    ),
    _Step.of(
        re.compile(r"\b(gh[pousr]_|github_pat_)[A-Za-z0-9_]{30,}\b"),
        r"\1" + MASK,
        "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_",
    ),
    _Step.of(re.compile(r"\bxox[abprs]-[A-Za-z0-9\-]{10,}"), "xox-" + MASK, "xox"),
    _Step.of(re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b"), "AIza" + MASK, "aiza"),
    _Step.of(re.compile(r"\b(AKIA|ASIA)[A-Z0-9]{16}\b"), r"\1" + MASK, "akia", "asia"),
)

# A secret-named key is followed by `=`/`:`; a secret flag by `=`/space (lower-cased line).
_WORD = r"(?:token|key|passw(?:or)?d|secret|credentials?)"
_KV_GATE = re.compile(_WORD + r"[\"']?\s*[=:]")
_FLAG_GATE = re.compile(r"-" + _WORD + r"[=\s]")

# --- host identity (hosts=True) ---------------------------------------------------------
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IPV4 = re.compile(r"(?<![\w.])" + r"(?:" + _OCTET + r"\.){3}" + _OCTET + r"(?!\d|\.\d)")
_KEEP_IPV4 = frozenset({"0.0.0.0", "127.0.0.1", "255.255.255.255"})
_H = r"[0-9a-fA-F]{1,4}"
_IPV6 = re.compile(
    r"(?<![\w:.])(?:(?:" + _H + r":){7}" + _H + r"|(?:" + _H + r":){1,6}(?::" + _H + r"){1,6})(?![\w:])"
)
_TLDS = (
    "com|net|org|edu|gov|mil|int|io|ai|co|dev|app|cloud|tech|xyz|site|online|info|biz|me"
    "|local|localdomain|internal|intranet|intra|lan|corp|home|arpa|svc|cluster"
    "|us|uk|de|fr|nl|se|ch|eu|cn|jp|kr|tw|hk|sg|ru|br|ca|au|es|it|pl|fi|no|dk|at|be"
)
_FQDN = re.compile(
    r"(?<![\w.\-])((?:[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?\.)+(?:" + _TLDS + r"))(?![\w\-]|\.[a-zA-Z0-9])",
    re.IGNORECASE,
)
# Public documentation and model hubs identify nobody; keeping them keeps links useful.
_PUBLIC_HOSTS = (
    "github.com", "githubusercontent.com", "huggingface.co", "hf.co", "pytorch.org", "python.org",
    "pypi.org", "vllm.ai", "sglang.ai", "ray.io", "nvidia.com", "ollama.com", "ollama.ai",
    "readthedocs.io", "docker.com", "docker.io", "kubernetes.io", "modelscope.cn",
)
# Mapping keys (probe snapshots) whose value names a machine or a person.
_IDENTITY_KEYS = frozenset({"hostname", "host", "node", "node_name", "nodename", "pod", "pod_name", "user", "username"})
_EMAIL = re.compile(r"(?<![\w.+\-])[A-Za-z0-9._%+\-]+@(?=[A-Za-z0-9\-]+\.)")
_HOME = re.compile(r"(/home/|/Users/|\b[A-Za-z]:\\{1,2}Users\\{1,2})([^/\\\s'\"*:]+)")


def _mask_value(m: Match[str], prefix: str) -> str:
    """Rebuild a key/flag match with its value masked, keeping quotes and `Some(…)`."""
    if m.groupdict().get("wrap") is not None:
        value = m.group("wval")
        if _NOT_SECRET.match(value):
            return m.group(0)
        q = m.group("wq")
        return f"{prefix}{m.group('wrap')}{q}{MASK}{q}{m.group('wend')}"
    if m.group("vq") is not None:
        value = m.group("qval")
        if _NOT_SECRET.match(value):
            return m.group(0)
        q = m.group("vq")
        return f"{prefix}{q}{MASK}{q}"
    if _NOT_SECRET.match(m.group("bare")):
        return m.group(0)
    return prefix + MASK


def _kv_sub(m: Match[str]) -> str:
    return _mask_value(m, m.group("key"))


def _flag_sub(m: Match[str]) -> str:
    return _mask_value(m, m.group("flag") + m.group("sep"))


def _ipv4_sub(m: Match[str]) -> str:
    return m.group(0) if m.group(0) in _KEEP_IPV4 else MASK


def _fqdn_sub(m: Match[str]) -> str:
    host = m.group(1).lower()
    for public in _PUBLIC_HOSTS:
        if host == public or host.endswith("." + public):
            return m.group(0)
    return MASK


def _home_sub(m: Match[str]) -> str:
    return m.group(1) + MASK


class Redactor:
    """Masks secrets (and, with `hosts=True`, host identity) in text and nested values.

    `Redactor(secrets=False)` is the identity, for an explicit opt-out.
    """

    __slots__ = ("hosts", "secrets", "_steps")

    def __init__(self, hosts: bool = False, secrets: bool = True) -> None:
        self.hosts = hosts
        self.secrets = secrets
        steps: list[_Step] = []
        if secrets:
            steps.extend(_SHAPES)
            steps.append(_Step(_KV, _kv_sub, _KV_GATE))
            steps.append(_Step(_FLAG, _flag_sub, _FLAG_GATE))
        if hosts:
            steps.append(_Step.of(_EMAIL, MASK + "@", "@"))
            steps.append(_Step.of(_HOME, _home_sub, "/home/", "/users/", "\\users\\"))
            steps.append(_Step.of(_IPV6, MASK, ":"))
            steps.append(_Step.of(_IPV4, _ipv4_sub, "."))
            steps.append(_Step.of(_FQDN, _fqdn_sub, "."))
        self._steps = tuple(steps)

    @property
    def active(self) -> bool:
        return bool(self._steps)

    def text(self, s: str) -> str:
        """`s` with every secret (and host, when enabled) masked as `***`."""
        if not s or not self._steps:
            return s
        if self.secrets and "-----BEGIN" in s:
            s = _PEM.sub(MASK, s)
        if "\n" not in s:
            return self._line(s)
        return "\n".join(self._line(line) for line in s.split("\n"))

    def _line(self, line: str) -> str:
        # Secrets never span lines (PEM blocks aside), so each step is gated per line.
        low = line.lower()
        for step in self._steps:
            if step.gate is None or step.gate.search(low):
                line = step.pattern.sub(step.repl, line)
        return line

    def maybe(self, s: str | None) -> str | None:
        return None if s is None else self.text(s)

    def argv(self, argv: Iterable[str]) -> list[str]:
        """An argv list: `--api-key VALUE` as two items masks VALUE; every item is redacted."""
        out: list[str] = []
        mask_next = False
        for item in argv:
            item = str(item)
            if mask_next and self.secrets and not _NOT_SECRET.match(item) and not item.startswith("-"):
                out.append(MASK)
            else:
                out.append(self.text(item))
            mask_next = bool(_FLAG_ONLY.fullmatch(item))
        return out

    def value(self, v: Any) -> Any:
        """Redact nested data (probe snapshots, rerun outcomes, `extra`): strings are
        redacted, a string under a secret-named key is masked, lists of strings are argv."""
        if isinstance(v, str):
            return self.text(v)
        if isinstance(v, dict):
            return {(self.text(k) if isinstance(k, str) else k): self._entry(k, x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            if all(isinstance(x, str) for x in v):
                items = self.argv(v)
            else:
                items = [self.value(x) for x in v]
            return tuple(items) if isinstance(v, tuple) else items
        return v

    def _entry(self, key: Any, v: Any) -> Any:
        if isinstance(key, str) and isinstance(v, str) and not _NOT_SECRET.match(v):
            if self.secrets and _KEY_ONLY.fullmatch(key):
                return MASK
            if self.hosts and key.lower() in _IDENTITY_KEYS:
                return MASK
        return self.value(v)


# --- reports ------------------------------------------------------------------------------


def _evidence(e: Evidence | None, r: Redactor) -> Evidence | None:
    if e is None:
        return None
    source = r.text(e.source) if r.hosts else e.source
    return dataclasses.replace(e, source=source, text=r.text(e.text))


def _fact(f: Fact, r: Redactor) -> Fact:
    value = r.text(f.value) if isinstance(f.value, str) else f.value
    return dataclasses.replace(f, value=value, evidence=_evidence(f.evidence, r))


def _suggestion(s: Suggestion, r: Redactor) -> Suggestion:
    value = r.text(s.value) if isinstance(s.value, str) else s.value
    return dataclasses.replace(s, value=value, flag=r.maybe(s.flag), why=r.text(s.why))


def _finding(f: Finding, r: Redactor) -> Finding:
    return dataclasses.replace(
        f,
        title=r.text(f.title),
        message=r.text(f.message),
        evidence=tuple(e for e in (_evidence(x, r) for x in f.evidence) if e is not None),
        suggestions=tuple(_suggestion(s, r) for s in f.suggestions),
        source=r.maybe(f.source),
    )


def _source(s: LogSource, r: Redactor) -> LogSource:
    path = r.text(s.path) if r.hosts else s.path
    return dataclasses.replace(s, path=path, label=r.text(s.label), first_failure_at=r.maybe(s.first_failure_at))


def _texts(items: Iterable[str], r: Redactor) -> tuple[str, ...]:
    return tuple(r.text(x) for x in items)


def redact_report(report: Report, redactor: Redactor) -> Report:
    """A copy of `report` with every string that reaches output redacted."""
    r = redactor
    if not r.active:
        return report
    return dataclasses.replace(
        report,
        framework_version=r.maybe(report.framework_version),
        phase=r.maybe(report.phase),
        summary=r.text(report.summary),
        findings=tuple(_finding(f, r) for f in report.findings),
        suggestions=tuple(_suggestion(s, r) for s in report.suggestions),
        triage=tuple(dataclasses.replace(t, note=r.text(t.note)) for t in report.triage),
        ledger=tuple(dataclasses.replace(e, note=r.text(e.note)) for e in report.ledger),
        facts=FactSet(_fact(f, r) for f in report.facts),
        sources=tuple(_source(s, r) for s in report.sources),
        missing_evidence=_texts(report.missing_evidence, r),
        warnings=_texts(report.warnings, r),
        skipped=_texts(report.skipped, r),
        failed_first=r.maybe(report.failed_first),
        probe=r.value(report.probe) if report.probe is not None else None,
        rerun=r.value(report.rerun) if report.rerun is not None else None,
        extra=r.value(dict(report.extra)),
    )


__all__ = ["MASK", "Redactor", "redact_report"]
