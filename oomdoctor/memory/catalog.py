"""A shipped, offline model catalog: a model's architecture from its NAME.

`lookup(name)` accepts what people type or what a log shows: a Hugging Face id
(`meta-llama/Llama-3.1-70B-Instruct`, community re-uploads such as `unsloth/...`,
`bartowski/...-GGUF`), an Ollama tag (`llama3.3:70b-instruct-q5_K_M`, `qwen2.5-coder:32b`, a bare
`llama3.1` = the library's default size), a GGUF file name
(`Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf`, shards `-00001-of-00003.gguf`) or loose text
(`llama 3.1 8b`, `Qwen2.5-72B-Instruct-AWQ`). It returns the catalog entry (the published
config.json subset in `oomdoctor/data/models.json`) and what the name itself says about
quantization, or None when the name is unknown or ambiguous: sizes and versions must match
exactly (`Qwen2.5-7B` never matches Qwen2.5-72B, `Mistral-7B-Instruct` without a version
matches none of v0.1/v0.2/v0.3).

The JSON is parsed on the first lookup, not at import (the CLI must start fast), and the
normalised index is built once and cached.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Mapping

__all__ = ["CatalogEntry", "CatalogMatch", "entries", "largest_tensor_params", "lookup", "name_tokens", "split_quantization"]


@dataclass(frozen=True)
class CatalogEntry:
    id: str  # canonical Hugging Face repo id
    aliases: tuple[str, ...]  # other repo ids and Ollama library tags
    params: int  # published parameter count
    source: str  # URL of the config.json the fields come from
    default_context: int  # the context the card/config advertises
    params_note: str | None = None
    params_excluded: int = 0  # part of `params` the estimator does not model (see params_note)
    config_defaults: tuple[str, ...] = ()  # config keys filled from the transformers class defaults
    context_note: str | None = None  # where default_context differs from max_position_embeddings
    config_note: str | None = None
    raw_config: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def config(self) -> dict[str, Any]:
        """The config.json subset, as a fresh dict (callers may change it)."""
        return copy.deepcopy(dict(self.raw_config))


@dataclass(frozen=True)
class CatalogMatch:
    entry: CatalogEntry
    quantization: str | None  # what the name says: awq, gptq, gptq-int8, fp8, Q4_K_M, ... or None
    how: str  # "id" | "alias" | "loose"
    matched: str  # the catalog name (the id or an alias) the query was matched to

    @property
    def id(self) -> str:
        return self.entry.id

    @property
    def params(self) -> int:
        return self.entry.params

    @property
    def source(self) -> str:
        return self.entry.source

    @property
    def config(self) -> dict[str, Any]:
        return self.entry.config

    @property
    def default_context(self) -> int:
        return self.entry.default_context


# ------------------------------------------------------------------ name normalisation
_PREFIXES = (
    "https://huggingface.co/", "http://huggingface.co/", "huggingface.co/", "https://hf.co/", "hf.co/",
    "https://ollama.com/library/", "ollama.com/library/", "registry.ollama.ai/library/", "registry.ollama.ai/",
    "library/",
)
_PREFIX = re.compile("^(?:" + "|".join(re.escape(p) for p in _PREFIXES) + ")+", re.I)
_EXT = re.compile(r"\.(gguf|safetensors|bin|pt|pth|ggml)$", re.I)
_SHARD = re.compile(r"[-.]\d{5}-of-\d{5}$", re.I)
_REPO_PATH = re.compile(r"/(blob|tree|resolve|raw)/.*$")

# GGUF / ggml tensor-file types: Q4_K_M, Q8_0, IQ3_XXS, Q4_K_XL (unsloth UD-), TQ1_0, ...
_GGUF_TYPE = re.compile(r"(?<![a-z0-9])(?:ud-)?(i?q[1-8](?:_[a-z0-9]+)*|tq[12]_0)(?![a-z0-9])")
_GGUF_FLOAT = re.compile(r"(?<![a-z0-9])(bf16|fp16|f16|f32|fp32|mxfp4(?:_moe)?)(?![a-z0-9])")
_B, _E = r"(?<![a-z0-9])", r"(?![a-z0-9])"
# (pattern, normalised name): every match is cut out of the name; the earliest rule that matched names
# the quantization. One alternation, so a name is scanned once.
_QUANT_RULES: tuple[tuple[str, str], ...] = (
    (_B + r"(?:unsloth[-_.])?bnb[-_.]?4bit" + _E, "bnb-4bit"),
    (_B + r"(?:unsloth[-_.])?bnb[-_.]?8bit" + _E, "bnb-8bit"),
    (_B + r"nf4" + _E, "bnb-4bit"),
    (_B + r"exl2" + _E, "exl2"),
    (_B + r"\d+(?:[._]\d+)?bpw(?:[-_.]h\d)?" + _E, "exl2"),
    (_B + r"(?:int4[-_.])?awq(?:[-_.](?:int4|4bit|gemm|gemv|marlin))?" + _E, "awq"),
    (_B + r"gptq(?:[-_.](?:int8|8bit|w8))" + _E, "gptq-int8"),
    (_B + r"(?:int8[-_.]|w8[-_.])gptq" + _E, "gptq-int8"),
    (_B + r"(?:int4[-_.])?gptq(?:[-_.](?:int4|4bit|w4))?" + _E, "gptq"),
    (_B + r"(?:quantized[-_.])?w8a8[-_.]fp8" + _E, "fp8"),
    (_B + r"(?:quantized[-_.])?w8a8(?:[-_.]int8)?" + _E, "w8a8"),
    (_B + r"(?:quantized[-_.])?w4a16(?:[-_.]int4)?" + _E, "w4a16"),
    (_B + r"(?:quantized[-_.])?w8a16" + _E, "w8a16"),
    (_B + r"nvfp4" + _E, "nvfp4"),
    (_B + r"mxfp4" + _E, "mxfp4"),
    (_B + r"mxfp8" + _E, "fp8"),  # (the OCP microscaling 8-bit float: a byte per weight, as fp8)
    (_B + r"(?:fp8|float8)(?:[-_.](?:dynamic|static|block|e4m3|e5m2|kv|per[-_.]tensor))*" + _E, "fp8"),
    (_B + r"mlx[-_.]?[2-8]bit" + _E, "mlx-{}bit"),
    # (MLX's community releases name their width alone: "Qwen3-30B-A3B-6bit"; 4 and 8 are read below)
    (_B + r"[235-7]bit" + _E, "mlx-{}bit"),
    # MLC's weight/activation spelling: q4f16_1 is 4-bit weights computing in float16
    (_B + r"q4f(?:16|32)(?:_[a-z0-9]+)?" + _E, "int4"),
    (_B + r"q8f(?:16|32)(?:_[a-z0-9]+)?" + _E, "int8"),
    (_B + r"int8" + _E, "int8"),
    (_B + r"int4" + _E, "int4"),
    # (as people write it in free text: "4-bit", "8 bit")
    (_B + r"8[- ]?bit" + _E, "int8"),
    (_B + r"4[- ]?bit" + _E, "int4"),
)
_QUANT_ANY = re.compile("|".join(f"(?P<q{i}>{p})" for i, (p, _) in enumerate(_QUANT_RULES)))
_QUANT_BITS = re.compile(r"([2-8])bit")
_QUANT_WORDS = ("awq", "gptq", "fp8", "float8", "bnb", "bit", "w8a", "w4a", "exl2", "bpw", "nf4", "fp4", "int", "q4f", "q8f")
# descriptors that ride along with a quantization and say nothing about the model
_QUANT_LEFTOVERS = re.compile(_B + r"(?:g\d{2,3}|\d{2,3}g|act[-_.]?order|actorder|sym|asym|gemm|gemv|mlx|"
                              r"dynamic|static)" + _E)
_UNQUANTIZED = re.compile(_B + r"(?:bf16|fp16|f16|fp32|f32|float16|bfloat16|float32)" + _E)

_NOISE = frozenset({"instruct", "chat", "it", "hf", "base", "gguf", "ggml", "pt", "imatrix", "i1", "ud", "qat",
                    "latest", "unsloth", "model", "ggmlv", "safetensors"})
_OLLAMA_NOISE = frozenset({"instruct", "chat", "text", "it", "base", "code", "latest", ""})
_DIGIT_UNDERSCORE = re.compile(r"(?<=\d)_(?=\d)")  # internlm2_5 -> internlm2.5
_WORD_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")  # dots that are not inside a version number
_SEPARATORS = re.compile(r"[\s_/,:+()\[\]]+")
_WORD_VERSION = re.compile(r"^([a-z]{2,})(\d+(?:\.\d+)*)$")  # llama3.1 -> llama 3.1
_TAG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_V_VERSION = re.compile(r"^v(\d+(?:\.\d+)*)$")  # v0.3 -> 0.3
_SIZE = re.compile(r"^(?:\d+(?:\.\d+)?[bm]|\d+x\d+(?:\.\d+)?b)$")  # 7b, 0.5b, 135m, 8x7b
_YEAR_OR_MMDD = re.compile(r"^\d{4}$")  # 2407, 0528, 2024
_MONTH = re.compile(r"^(?:0[1-9]|1[0-2])$")  # the 08 of 08-2024
_YEAR = re.compile(r"^20\d\d$")
_ZERO_VERSION = re.compile(r"^0\d$")  # v01
_VERSION = re.compile(r"^\d+(?:\.\d+)*$")


def name_tokens(text: str) -> tuple[str, ...]:
    """The normalised tokens of a model name: lower case, `_` between digits read as `.`,
    `llama3.1` split into `llama`, `3.1`, a leading `v` dropped from versions, `Meta-` before
    `Llama` and the role/packaging words (instruct, chat, it, hf, base, gguf, ...) dropped."""
    s = _DIGIT_UNDERSCORE.sub(".", text.lower())
    s = _SEPARATORS.sub("-", _WORD_DOT.sub("-", s))
    out: list[str] = []
    for t in s.split("-"):
        t = t.strip(".")
        if not t:
            continue
        m = _WORD_VERSION.match(t)
        if m:
            out += [m.group(1), m.group(2)]
            continue
        m = _V_VERSION.match(t)
        out.append(m.group(1) if m else t)
    kept = []
    for i, t in enumerate(out):
        if t in _NOISE:
            continue
        if t == "meta" and i + 1 < len(out) and out[i + 1] == "llama":
            continue
        kept.append(t)
    return tuple(kept)


def _reduced(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Tokens without release dates and without the version numbers that follow the size
    (`Mixtral-8x7B-Instruct-v0.1` -> mixtral 8x7b): used only when unambiguous."""
    out = []
    seen_size = False
    for i, t in enumerate(tokens):
        if i > 0:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if _YEAR_OR_MMDD.match(t) or (_MONTH.match(t) and _YEAR.match(nxt)) or _ZERO_VERSION.match(t):
                continue  # 2407, 0528, 08-2024, v01
            if seen_size and _VERSION.match(t):
                continue  # the v0.1 after 8x7b
        if _SIZE.match(t):
            seen_size = True
        out.append(t)
    return tuple(out)


def _cut(pattern: re.Pattern[str], s: str) -> tuple[str | None, str]:
    m = pattern.search(s)
    if not m:
        return None, s
    return m.group(0), s[:m.start()] + "-" + s[m.end():]


def _gguf_name(raw: str) -> str:
    t = raw.lower().removeprefix("ud-")
    return {"fp16": "F16", "fp32": "F32", "mxfp4_moe": "MXFP4_MOE"}.get(t, t.upper())


def split_quantization(leaf: str, gguf: bool) -> tuple[str | None, str]:
    """(normalised quantization the name states, the name with it cut out)."""
    s = leaf.lower()
    quant: str | None = None
    found, s = _cut(_GGUF_TYPE, s) if "q" in s else (None, s)
    if found:
        quant = _gguf_name(found)
        gguf = True
    if gguf:
        found, s = _cut(_GGUF_FLOAT, s)
        if found and quant is None:
            quant = _gguf_name(found)
    best: tuple[int, str] | None = None
    pieces: list[str] = []
    pos = 0
    for m in _QUANT_ANY.finditer(s) if any(w in s for w in _QUANT_WORDS) else ():
        rule = int(m.lastgroup[1:])  # type: ignore[index]
        if best is None or rule < best[0]:
            best = (rule, m.group(0))
        pieces += [s[pos:m.start()], "-"]
        pos = m.end()
    if best is not None:
        s = "".join(pieces) + s[pos:]
        if quant is None:
            quant = _QUANT_RULES[best[0]][1]
            if "{}" in quant:
                bits = _QUANT_BITS.search(best[1])
                quant = quant.format(bits.group(1) if bits else "")
    if quant is not None:
        s = _QUANT_LEFTOVERS.sub("-", s)
    if "16" in s or "32" in s:
        s = _UNQUANTIZED.sub("-", s)
    if quant is None and gguf:
        quant = "gguf"  # a GGUF, but the name does not say which type
    return quant, s


# ------------------------------------------------------------------ the index
@dataclass
class _Index:
    entries: tuple[CatalogEntry, ...]
    exact: dict[str, tuple[int, str, str]]  # lowercased id / alias -> (entry, how, name)
    keys: dict[tuple[str, ...], set[tuple[int, str, str]]]
    reduced: dict[tuple[str, ...], set[tuple[int, str, str]]]
    unordered: dict[tuple[str, ...], set[tuple[int, str, str]]]
    ollama: dict[str, tuple[int, str]]  # "name:tag" (normalised) -> (entry, alias)
    ollama_names: frozenset[str]
    entry_tokens: tuple[frozenset[str], ...]


def _ollama_key(name: str, tag_tokens: Iterable[str]) -> str:
    rest = [t for t in tag_tokens if t not in _OLLAMA_NOISE]
    return f"{name}:{'-'.join(rest)}" if rest else name


def _is_ollama(alias: str) -> bool:
    return "/" not in alias


def _load() -> list[dict[str, Any]]:
    import json
    from importlib import resources

    text = resources.files("oomdoctor").joinpath("data/models.json").read_text(encoding="utf-8")
    return list(json.loads(text)["models"])


@lru_cache(maxsize=1)
def _index() -> _Index:
    raw = _load()
    entries = tuple(
        CatalogEntry(
            id=str(m["id"]), aliases=tuple(m.get("aliases") or ()), params=int(m["params"]),
            source=str(m["source"]), default_context=int(m["default_context"]),
            params_note=m.get("params_note"), params_excluded=int(m.get("params_excluded") or 0),
            config_defaults=tuple(m.get("config_defaults") or ()), context_note=m.get("context_note"),
            config_note=m.get("config_note"), raw_config=m["config"],
        )
        for m in raw
    )
    exact: dict[str, tuple[int, str, str]] = {}
    keys: dict[tuple[str, ...], set[tuple[int, str, str]]] = {}
    reduced: dict[tuple[str, ...], set[tuple[int, str, str]]] = {}
    unordered: dict[tuple[str, ...], set[tuple[int, str, str]]] = {}
    ollama: dict[str, tuple[int, str]] = {}
    names: set[str] = set()
    entry_tokens: list[frozenset[str]] = []
    for i, e in enumerate(entries):
        toks: set[str] = set()
        for name, how in [(e.id, "id")] + [(a, "alias") for a in e.aliases]:
            if _is_ollama(name):
                base, _, tag = name.lower().partition(":")
                names.add(base)
                ollama[_ollama_key(base, tag.split("-") if tag else ())] = (i, name)
                continue
            exact.setdefault(name.lower(), (i, how, name))
            k = name_tokens(name.rsplit("/", 1)[-1])
            toks.update(k)
            item = (i, how, name)
            keys.setdefault(k, set()).add(item)
            unordered.setdefault(tuple(sorted(k)), set()).add(item)
            r = _reduced(k)
            if r != k and any(_SIZE.match(t) for t in r):  # `Mistral-Small` alone names no model
                reduced.setdefault(r, set()).add(item)
        entry_tokens.append(frozenset(toks))
    return _Index(entries, exact, keys, reduced, unordered, ollama, frozenset(names), tuple(entry_tokens))


def entries() -> tuple[CatalogEntry, ...]:
    """Every catalog entry, in file order."""
    return _index().entries


# ------------------------------------------------------------------ matching
def _one(items: set[tuple[int, str, str]] | None) -> tuple[int, str, str] | None:
    """The single entry a key names (preferring its id spelling), or None if none or several."""
    if not items:
        return None
    if len({i for i, _, _ in items}) != 1:
        return None
    return min(items, key=lambda x: (x[1] != "id", x[2]))


def _match(ix: _Index, item: tuple[int, str, str], quant: str | None, how: str | None = None) -> CatalogMatch:
    i, kind, name = item
    return CatalogMatch(ix.entries[i], quant, how or kind, name)


def _loose(ix: _Index, tokens: tuple[str, ...], quant: str | None) -> CatalogMatch | None:
    """A fine-tune or re-upload whose name embeds exactly one catalog model
    (`dolphin-2.9-llama3-8b`): the longest catalog names found as a run of tokens must all
    be one entry, and every size in the name must lie inside that run."""
    sizes = [j for j, t in enumerate(tokens) if _SIZE.match(t)]
    best_len = 0
    found: dict[int, tuple[int, str, str]] = {}
    n = len(tokens)
    for length in range(min(n, 12), 1, -1):
        if found:
            break
        for start in range(0, n - length + 1):
            sub = tokens[start:start + length]
            items = ix.keys.get(sub)
            if not items:
                r = ix.reduced.get(sub)
                items = r if _one(r) else None
            if not items:
                continue
            if any(j < start or j >= start + length for j in sizes):
                continue  # a size outside the matched run: another model
            for it in items:
                found.setdefault(it[0], it)
            best_len = length
    if not found or len(found) != 1 or best_len < 2:
        return None
    return _match(ix, next(iter(found.values())), quant, "loose")


def _lookup_ollama(ix: _Index, name: str, tag: str) -> CatalogMatch | None:
    quant: str | None = None
    rest: list[str] = []
    for t in tag.lower().split("-"):
        if _GGUF_TYPE.fullmatch(t) or _GGUF_FLOAT.fullmatch(t):
            quant = _gguf_name(t)
        elif t == "qat":
            quant = quant or "Q4_0"  # Ollama's quantization-aware-trained tags are Q4_0 files
        elif t not in _OLLAMA_NOISE:
            rest.append(t)
    hit = ix.ollama.get(_ollama_key(name, rest))
    if hit is None and rest:
        first = ix.ollama.get(f"{name}:{rest[0]}")
        if first is not None:
            # extra words must be ones the model's own names carry (v0.1, 2407, lite, ...)
            known = ix.entry_tokens[first[0]]
            extra = name_tokens("-".join(rest[1:]))
            if all(t in known for t in extra):
                hit = first
    if hit is None:
        return None
    return CatalogMatch(ix.entries[hit[0]], quant, "alias", hit[1])


# free text naming more than one model ("X (plus Y chat model)", "X, also Y", "X and Y"): the first is the model
_ALSO = re.compile(r"\s*(?:[();,]|\s(?:\+|&|and|plus|also|with|or|vs\.?|then)\s)\s*", re.I)


@lru_cache(maxsize=8192)
def lookup(name: str) -> CatalogMatch | None:
    """The catalog model a name refers to, or None if unknown or ambiguous (the caller warns). In
    free text that names several models the first one named is the model; a quantization the
    rest of the text spells for that same model still counts ("Llama 3.1 70B (AWQ)")."""
    if not isinstance(name, str):
        return None
    whole = _lookup_text(name)
    parts = [p for p in _ALSO.split(name) if p.strip()]
    if len(parts) < 2:
        return whole
    first = None
    for part in parts:
        first = _lookup_text(part)
        if first is not None or any(_SIZE.match(t) for t in name_tokens(part)):
            break  # (a model named by its size that the catalog cannot tell apart still comes first)
    if first is None:
        return whole
    if whole is not None and whole.entry is first.entry and first.quantization is None:
        return whole
    return first


def _lookup_text(name: str) -> CatalogMatch | None:
    s = name.strip().strip("'\"`").strip()
    if not s:
        return None
    s = _PREFIX.sub("", s)
    s = _REPO_PATH.sub("", s).rstrip("/")
    ix = _index()

    # Ollama: name:tag (hf.co/org/repo:Q4_K_M is a Hugging Face repo with a GGUF type)
    tag = None
    bare: CatalogMatch | None = None
    if ":" in s and _TAG.match(s.rsplit(":", 1)[1]):
        s, tag = s.rsplit(":", 1)
        if "/" not in s and s.lower() in ix.ollama_names:
            return _lookup_ollama(ix, s.lower(), tag)
    elif "/" not in s and s.lower() in ix.ollama_names:
        hit = ix.ollama.get(s.lower())
        if hit:
            bare = CatalogMatch(ix.entries[hit[0]], None, "alias", hit[1])
    found = _lookup_name(ix, s, tag)
    if bare is None:
        return found
    # a bare library name (`deepseek-r1`) that also reads as a Hugging Face name of another
    # model (DeepSeek-R1): lower case is Ollama's spelling, so only then is it ambiguous
    if found is None or found.entry is bare.entry:
        return bare
    return None if s == s.lower() else found


def _lookup_name(ix: _Index, s: str, tag: str | None) -> CatalogMatch | None:
    """A Hugging Face id, a re-upload, a file name or loose text (`tag`: a GGUF type after `:`)."""
    parts = [p for p in s.replace("\\", "/").split("/") if p]
    if not parts:
        return None
    leaf = parts[-1]
    org_leaf = "/".join(parts[-2:]) if len(parts) >= 2 else leaf
    is_gguf = "gguf" in s.lower()
    leaf = _EXT.sub("", leaf)
    leaf = _SHARD.sub("", leaf)
    quant, rest = split_quantization(leaf + ("-" + tag if tag else ""), is_gguf)

    hit = ix.exact.get(org_leaf.lower()) or ix.exact.get(_SHARD.sub("", _EXT.sub("", org_leaf)).lower())
    if hit is not None:
        return _match(ix, hit, quant)
    tokens = name_tokens(rest)
    if not tokens:
        return None
    if tokens in ix.keys:
        one = _one(ix.keys[tokens])
        return _match(ix, one, quant) if one else None
    one = _one(ix.reduced.get(tokens))
    if one:
        return _match(ix, one, quant, "loose")
    one = _one(ix.unordered.get(tuple(sorted(tokens))))
    if one:
        return _match(ix, one, quant, "loose")
    return _loose(ix, tokens, quant)


def largest_tensor_params(config: Mapping[str, Any]) -> int | None:
    """Elements of the model's largest weight tensor as engines hold it: the embedding or LM head
    (vocab x hidden), the fused gate/up projection (2 x intermediate x hidden), the fused QKV, or a
    MoE layer's experts stacked in one tensor (experts x 2 x expert intermediate x hidden). A single
    allocation several times this is no weight being placed."""
    cfg = config.get("text_config") or config.get("llm_config") or config  # (a VLM's language model)
    hidden = cfg.get("hidden_size")
    if not isinstance(hidden, int) or hidden <= 0:
        return None
    sizes = []
    vocab, inter = cfg.get("vocab_size"), cfg.get("intermediate_size")
    if isinstance(vocab, int):
        sizes.append(vocab * hidden)
    if isinstance(inter, int):
        sizes.append(2 * inter * hidden)
    heads, kv = cfg.get("num_attention_heads"), cfg.get("num_key_value_heads") or cfg.get("num_attention_heads")
    if isinstance(heads, int) and isinstance(kv, int) and heads > 0:
        head_dim = cfg.get("head_dim") or hidden // heads
        sizes.append((heads + 2 * kv) * int(head_dim) * hidden)
    experts = next((cfg[k] for k in ("num_experts", "n_routed_experts", "num_local_experts") if isinstance(cfg.get(k), int)), None)
    expert_inter = cfg.get("moe_intermediate_size") or inter
    if experts and isinstance(expert_inter, int):
        sizes.append(experts * 2 * expert_inter * hidden)
    return max(sizes) if sizes else None
