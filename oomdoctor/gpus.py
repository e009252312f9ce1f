"""The card table: a GPU as people and logs name it -> count, name, runtime capacity, memory facts.

`parse_card("2x RTX 4090")`, `parse_card("A100 80GB")`, `parse_card("M2 Max 32GB")` read free text
the way an on-call engineer writes it; `card_from_log_line()` reads the lines where servers name
their device (nvidia-smi rows, llama.cpp/ggml device lines, Metal init, Ollama "inference
compute", ROCm gfx targets); `capacity_from_name()` is the per-device capacity alone.

Capacities are per device *as the runtime reports it* (torch "total capacity",
cudaMemGetInfo total, the ROCm/XPU equivalents; on Apple silicon, Metal's
recommendedMaxWorkingSetSize), not the marketing size: an "80GB" H100 is 79.11 GiB. Each
figure in oomdoctor/data/gpus.json names its source and whether it was read from a log or
derived by a stated rule.

Pure functions, no I/O except reading the packaged JSON once, on first use (the CLI must not
pay for it at start-up).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oomdoctor.parsers.base import size_of

GiB = 1 << 30
MiB = 1 << 20


@dataclass(frozen=True)
class CardSpec:
    """One card as named in text: `count` devices of `capacity_bytes` each.

    capacity_bytes: per device, as the runtime reports it (Apple: Metal's recommended working set).
    assumed_variant: the text gave no size for a card sold in several, so the most common
      variant was picked (or, from a bare ROCm gfx target, the most common card of that target).
    capacity_derived: the figure is derived by a rule (see `source`), not read from a real log.
    capacity_source: "table" (a table variant) or "stated" (a size in the text that matches no
      variant of the card, e.g. a modded "2080 Ti 22GB": the stated size scaled by the card's
      runtime/marketing ratio).
    log_total_bytes: a total printed on the log line itself (Ollama total=, nvidia-smi MiB), as printed.
    """

    count: int
    name: str
    card_id: str
    variant: str
    memory_gb: float
    capacity_bytes: int
    vendor: str
    arch: str
    compute_capability: str | None
    gfx_target: str | None
    fp8: bool
    bf16: bool
    flash_attention_2: bool
    unified_memory: bool
    unified_memory_bytes: int | None
    recommended_working_set_bytes: int | None
    assumed_variant: bool
    capacity_derived: bool
    capacity_source: str
    source: str
    matched: str
    log_total_bytes: int | None = None

    @property
    def total_capacity_bytes(self) -> int:
        return self.count * self.capacity_bytes

    @property
    def capacity_gib(self) -> float:
        return self.capacity_bytes / GiB


# ----------------------------------------------------------------------------- the table


class _Variant:
    __slots__ = ("label", "memory_gb", "capacity_bytes", "capacity_gib", "derived", "source", "hints",
                 "unified_bytes", "working_set_bytes")

    def __init__(self, v: dict) -> None:
        self.label: str = v["label"]
        self.memory_gb = float(v["memory_gb"])
        self.capacity_bytes = int(v["capacity_bytes"])
        self.capacity_gib = self.capacity_bytes / GiB
        self.derived = bool(v.get("derived"))
        self.source: str = v["source"]
        self.hints = frozenset(v.get("hints", ()))
        self.unified_bytes: int | None = v.get("unified_memory_bytes")
        self.working_set_bytes: int | None = v.get("recommended_working_set_bytes")


class _Card:
    __slots__ = ("id", "name", "vendor", "arch", "cc", "gfx", "fp8", "bf16", "fa2", "unified", "variants", "default",
                 "ignore_sizes", "ratio")

    def __init__(self, c: dict) -> None:
        self.id: str = c["id"]
        self.name: str = c["name"]
        self.vendor: str = c["vendor"]
        self.arch: str = c["arch"]
        self.cc: str | None = c.get("compute_capability")
        self.gfx: str | None = c.get("gfx_target")
        self.fp8 = bool(c["fp8"])
        self.bf16 = bool(c["bf16"])
        self.fa2 = bool(c["flash_attention_2"])
        self.unified = bool(c["unified_memory"])
        self.variants = tuple(_Variant(v) for v in c["memory_variants"])
        self.default = next(v for v in self.variants if v.label == c["default_variant"])
        self.ignore_sizes = frozenset(c.get("ignore_sizes", ()))
        # runtime capacity / marketing size of the default variant, for sizes the table lacks
        self.ratio = self.default.capacity_bytes / (self.default.memory_gb * GiB)


class _Table:
    __slots__ = ("cards", "index", "hint_words", "gfx", "rules", "instances")

    def __init__(self, cards: dict, index: dict, hint_words: frozenset, gfx: dict, rules: dict,
                 instances: dict) -> None:
        self.cards = cards  # id -> _Card
        self.index = index  # (first, second) word or the only word -> [(alias words, card)], longest first
        self.hint_words = hint_words
        self.gfx = gfx  # ROCm gfx target -> card id
        self.rules = rules  # derivation rule -> how
        self.instances = instances  # cloud instance type (lower case) -> its entry


_TABLE: _Table | None = None

# Words that carry no identity for matching ("NVIDIA GeForce RTX 4090" == "RTX 4090").
_FILLER = frozenset({
    "nvidia", "geforce", "tesla", "quadro", "amd", "radeon", "instinct", "apple", "intel", "r", "tm",
    "jetson", "mac", "macbook", "imac", "studio", "mini", "air", "graphics", "gpu", "gpus", "corporation",
    "ati", "the", "generation", "edition", "server", "workstation",
})
# Fillers that may stand between a count and the card ("2x NVIDIA A100"), but not "GPU 3: ...".
_BRAND = _FILLER - {"gpu", "gpus", "the"}
_UNITS_GB = frozenset({"gb", "gib", "g", "gig", "gbs"})
_UNITS_MB = frozenset({"mb", "mib"})
_UNITS = _UNITS_GB | _UNITS_MB | {"tb", "tib"}
_FORM = frozenset({"sxm", "pcie", "nvl", "hbm", "e", "ecc", "oam", "sff", "ram", "vram", "unified", "memory", "of"})
_GLUE = frozenset({"w", "with", "of", "has", "having"})  # "A100 w/ 24GB"
_COUNT_WORDS = {"single": 1, "one": 1, "dual": 2, "two": 2, "twin": 2, "double": 2, "triple": 3, "three": 3,
                "quad": 4, "four": 4, "six": 6, "eight": 8}
_INDEX_WORDS = frozenset({"gpu", "device", "devices", "cuda", "rocm", "hip", "xpu", "rank", "node", "id", "index",
                          "card", "no", "number", "port", "pid"})
_PLURAL = frozenset({"gpus", "gpu", "cards", "card", "devices", "device", "accelerators"})
_TOKEN_PATTERN = r"\d+(?:\.\d+)?|[a-z]+|[×*]"


def _tokenize(text: str) -> list[tuple[str, int, int]]:
    low = text.lower()
    if len(low) != len(text):  # keep offsets aligned with the original text
        low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    toks: list[tuple[str, int, int]] = []
    for m in re.finditer(_TOKEN_PATTERN, low):
        t = m.group()
        s, e = m.span()
        if t == "×" or t == "*":
            toks.append(("x", s, e))
        elif (t[0] == "x" and len(t) > 1 and t not in ("xt", "xtx") and toks and toks[-1][2] == s
              and toks[-1][0][0].isdigit()):
            toks.append(("x", s, s + 1))  # "8xH100" -> 8, x, h, 100
            toks.append((t[1:], s + 1, e))
        else:
            toks.append((t, s, e))
    return toks


def _words(alias: str) -> tuple:
    return tuple(t for t, _, _ in _tokenize(alias) if t not in _FILLER)


def _load() -> _Table:
    import json
    from pathlib import Path

    raw = json.loads((Path(__file__).parent / "data" / "gpus.json").read_text(encoding="utf-8"))
    cards: dict = {}
    index: dict = {}
    hint_words: set = set()
    for c in raw["cards"]:
        card = _Card(c)
        for v in card.variants:
            hint_words |= v.hints
        cards[card.id] = card
        for alias in c["aliases"]:
            words = _words(alias)
            if words:  # keyed by the first two words (or the only one): few candidates per lookup
                key = words[:2] if len(words) > 1 else words[0]
                index.setdefault(key, []).append((list(words), card))
    for cands in index.values():
        cands.sort(key=lambda a: -len(a[0]))
    instances = {i["name"]: i for i in raw.get("instances", ())}
    return _Table(cards, index, frozenset(hint_words), dict(raw.get("gfx_targets", {})), dict(raw.get("rules", {})),
                  instances)


def _table() -> _Table:
    global _TABLE
    if _TABLE is None:
        _TABLE = _load()
    return _TABLE


def cards() -> list[dict]:
    """Every table entry as plain data (for tests and `oomdoctor` listings)."""
    import json
    from pathlib import Path

    return json.loads((Path(__file__).parent / "data" / "gpus.json").read_text(encoding="utf-8"))["cards"]


# ----------------------------------------------------------------------------- matching


def _is_int(t: str) -> bool:
    return t.isascii() and t.isdigit()


def _is_num(t: str) -> bool:
    return t[0].isdigit()


def _match_at(words: list[str], i: int, index: dict):
    n = len(words)
    w = words[i]
    pair = index.get((w, words[i + 1])) if i + 1 < n else None
    for cands in (pair, index.get(w)):
        if not cands:
            continue
        for alias, card in cands:
            k = len(alias)
            if k > 2 and words[i:i + k] != alias:
                continue
            last = alias[-1]
            if i + k < n and last[0].isdigit() and words[i + k] in _UNITS:
                continue  # "a 10GB card" is not an A10
            if k == 1 and last[0].isdigit():  # bare model number: "4090", "1080"
                if i + 1 < n and words[i + 1] in ("p", "i", "hz", "mhz", "w", "px"):
                    continue  # 1080p
                if i >= 2 and words[i - 1] == "x" and _is_int(words[i - 2]) and int(words[i - 2]) >= 100:
                    continue  # 1920x1080
            return k, card
    return None


def _find(words: list[str], start: int, index: dict):
    for i in range(start, len(words)):
        m = _match_at(words, i, index)
        if m:
            return i, m[0], m[1]
    return None


def _size_at(words: list[str], j: int) -> float | None:
    """GiB stated at words[j:j+2] ("80 gb", "40960 mib"), else None."""
    if j + 1 >= len(words) or not _is_num(words[j]):
        return None
    unit = words[j + 1]
    try:
        value = float(words[j])
    except ValueError:
        return None
    if unit in _UNITS_GB:
        return value if 1 <= value <= 1024 else None
    if unit in _UNITS_MB and value >= 1000:
        return value / 1024
    if unit in ("tb", "tib") and value <= 2:
        return value * 1024
    return None


def _pick(card: _Card, size: float | None, hints: set):
    """(variant or None if the stated size matches none, assumed_variant)."""
    cands = card.variants
    if hints:
        hinted = [v for v in cands if v.hints & hints]
        if hinted:
            cands = hinted
    if size is not None:
        def dist(v: _Variant) -> float:
            if card.vendor == "apple":  # a stated size is the RAM, never the working set
                return abs(v.memory_gb - size)
            return min(abs(v.memory_gb - size), abs(v.capacity_gib - size))

        best = min(cands, key=lambda v: (dist(v), v is not card.default))
        if dist(best) <= max(1.0, 0.06 * best.memory_gb):
            return best, False
        if cands is not card.variants:
            best = min(card.variants, key=lambda v: (dist(v), v is not card.default))
            if dist(best) <= max(1.0, 0.06 * best.memory_gb):
                return best, False
        return None, False
    v = card.default if card.default in cands else cands[0]
    return v, len({c.memory_gb for c in cands}) > 1


def _spec(card: _Card, variant: _Variant | None, size: float | None, count: int, matched: str,
          assumed: bool) -> CardSpec:
    if variant is None:  # a stated size the table does not know for this card
        assert size is not None
        gb = round(size, 1)
        label = f"{gb:g}GB"
        unified = working = None
        if card.vendor == "apple":
            capacity = int(size * GiB * (2 / 3 if size <= 32 else 3 / 4))
            unified, working = int(size * GiB), capacity
            why = "stated RAM; Metal's default working set (2/3 of RAM up to 32 GB, 3/4 above)"
        else:
            capacity = int(size * GiB * card.ratio)
            if card.unified:
                unified = int(size * GiB)
            why = (f"stated size x {card.ratio:.3f}, the runtime/marketing ratio of the "
                   f"{card.default.label} {card.name} ({card.default.source})")
        return CardSpec(count, f"{card.name} {label}", card.id, label, gb, capacity, card.vendor, card.arch,
                        card.cc, card.gfx, card.fp8, card.bf16, card.fa2, card.unified, unified, working, False,
                        True, "stated", why, matched)
    name = card.name if len(card.variants) == 1 else f"{card.name} {variant.label}"
    return CardSpec(count, name, card.id, variant.label, variant.memory_gb, variant.capacity_bytes, card.vendor,
                    card.arch, card.cc, card.gfx, card.fp8, card.bf16, card.fa2, card.unified,
                    variant.unified_bytes, variant.working_set_bytes, assumed, variant.derived, "table",
                    variant.source, matched)


# after a size: what says it is the host's memory, not a card's ("64 GB RAM", "32 GB of system RAM", "1 TB disk")
_HOST_SIZE = re.compile(r"(?i)\s*(?:of\s+)?(?:system\s+)?(?:RAM|swap|disk|SSD)\b")
_SIZE_TIMES = re.compile(r"(?i)\b\d+(?:\.\d+)?\s?gi?b\s?[x×]\s?(\d+)\b")


def parse_card(text: str) -> CardSpec | None:
    """Read a card as a person writes it: "A100 80GB", "2x RTX 4090", "8xH100", "M2 Max 32GB",
    "Tesla V100-SXM2-16GB", "4 x A10G", "dual 3090", "RTX 4090 x2", "4 GPUs A100".

    Returns None when no known card is named ("CPU only", "", "none"). The first card named wins.
    A stated size picks the variant; with none, a multi-size card gets its most common variant
    and assumed_variant=True.
    """
    if not text or not isinstance(text, str):
        return None
    t = _table()
    instance = _instance(text, t)
    if instance is not None:
        return instance
    toks = _tokenize(text)
    pos = [k for k, tok in enumerate(toks) if tok[0] not in _FILLER]
    words = [toks[k][0] for k in pos]
    hit = _find(words, 0, t.index)
    if hit is None:
        return None
    i, k, card = hit
    end = i + k
    nxt = _find(words, end, t.index)
    bound = nxt[0] if nxt else len(words)

    size: float | None = None
    hints: set = set()
    count: int | None = None
    last = end - 1  # last word that belongs to the mention
    j = end
    while j < min(bound, end + 10):
        w = words[j]
        if size is None and _is_num(w):
            s = _size_at(words, j)
            if s is not None:
                if round(s) not in card.ignore_sizes:
                    size = s
                last = j + 1
                j += 2
                continue
        if w in t.hint_words or w in _FORM:
            hints.add(w)
            last = j
            j += 1
            continue
        if w == "x" and j + 1 < len(words) and _is_int(words[j + 1]) and count is None:
            prev = words[j - 1]
            pcie = _is_num(prev) and (j >= 2 and words[j - 2] in ("pcie", "gen") or "." in prev)
            if not pcie and 1 <= int(words[j + 1]) <= 64:
                count = int(words[j + 1])
                last = j + 1
                j += 2
                continue
        if _is_num(w) and j > end and words[j - 1] in ("sxm", "hbm", "pcie", "gen"):
            last = j  # "sxm4", "hbm3", "pcie 4.0"
            j += 1
            continue
        if w in _GLUE and size is None:
            j += 1
            continue
        if size is None and w.isalpha() and j + 1 < bound and _size_at(words, j + 1) is not None:
            j += 1  # a tier or model word the table lacks before the size ("M4 Ultra 64GB"): the size still counts
            continue
        break
    first = pos[i]
    if size is None and i >= 2:
        s = _size_at(words, i - 2)
        if s is not None and round(s) not in card.ignore_sizes:
            size = s  # "80GB A100"
            first = pos[i - 2]
    prefixed = False
    if count is None:
        kk = first - 1
        while kk >= 0 and toks[kk][0] in _BRAND:
            kk -= 1
        if kk >= 0:
            w = toks[kk][0]
            if w == "x" and kk >= 1 and _is_int(toks[kk - 1][0]) and 1 <= int(toks[kk - 1][0]) <= 1024:
                count, first, prefixed = int(toks[kk - 1][0]), kk - 1, True
            elif _is_int(w) and 1 <= int(w) <= 64 and not (kk >= 1 and toks[kk - 1][0] in _INDEX_WORDS):
                count, first, prefixed = int(w), kk, True
            elif w in _COUNT_WORDS:
                count, first, prefixed = _COUNT_WORDS[w], kk, True
    if not prefixed:
        while first > 0 and toks[first - 1][0] in _BRAND and toks[first - 1][0] not in ("r", "tm"):
            first -= 1  # "NVIDIA GeForce RTX 3090" rather than "RTX 3090"
    if count is None:
        for a in range(len(toks) - 1):
            if _is_int(toks[a][0]) and toks[a + 1][0] in _PLURAL and 1 <= int(toks[a][0]) <= 1024:
                if a == 0 or toks[a - 1][0] not in _INDEX_WORDS:
                    count = int(toks[a][0])
                    break
    if count is None:
        sized = _SIZE_TIMES.search(text)  # "(Atlas 800 A2, 64GB x8 per node)": a size, then how many of it
        if sized and 1 <= int(sized.group(1)) <= 64:
            count = int(sized.group(1))
    variant, assumed = _pick(card, size, hints)
    if variant is None and size is not None and count and count > 1 and card.vendor != "apple":
        # "8x T4 (128 GiB GPU memory total)": a size no variant has may be all the cards together
        # (not for Macs: "2x Mac Studio ... 64GB" states each machine's RAM)
        per_card, _ = _pick(card, size / count, hints)
        if per_card is not None:
            variant, size = per_card, size / count
    matched = text[toks[first][1]:toks[pos[last]][2]]
    return _spec(card, variant, size, count or 1, matched, assumed)


# "g5.48xlarge", "ml.g5.12xlarge", "a2-ultragpu-1g", "Standard_NC24ads_A100_v4"
_INSTANCE_PATTERN = re.compile(r"(?i)(?<![\w.-])(?:ml\.|standard_)?([a-z][a-z0-9]*(?:[._-][a-z0-9]+)+)")


def _instance(text: str, t: _Table) -> CardSpec | None:
    """A cloud instance type named in the text: its GPUs, from the table's instance list."""
    for m in _INSTANCE_PATTERN.finditer(text):
        entry = t.instances.get(m.group(1).lower())
        if entry is None:
            continue
        card = t.cards[entry["card"]]
        variant = next(v for v in card.variants if v.label == entry["variant"])
        spec = _spec(card, variant, None, int(entry["count"]), m.group(0), False)
        return _with(spec, source=f"{m.group(1)}: {entry['count']}x {spec.name} ({entry['source']})")
    return None


# after a size: a figure of what was free or in use ("7.7 GiB free", "7920 MiB free"), not the card's capacity (a card
# written with what it has "available" is its usable memory: "NVIDIA GPU with 11.4 GiB available")
_NOT_A_CAPACITY = r"(?!\s*(?:free|used|in use|left)\b)"


def capacity_from_name(name: str) -> int | None:
    """Per-device capacity in bytes as the runtime reports it, from a card name.

    A size in the name picks the card's variant ("NVIDIA A100-SXM4-80GB", "RTX 4070 Super 12GB");
    for a name the table does not know, an explicit size is trusted as stated ("48 GB GPU").
    """
    spec = parse_card(name)
    if spec is not None:
        return spec.capacity_bytes
    if not name:
        return None
    sizes = [(float(m.group(1)), m.group(2).lower(), bool(_HOST_SIZE.match(name, m.end()))) for m in
             re.finditer(r"(?<![\d.])(\d+(?:\.\d+)?)\s?(GB|GiB)\b" + _NOT_A_CAPACITY, name, re.IGNORECASE)]
    sizes = [s for s in sizes if 2 <= s[0] <= 512]
    if not sizes:
        return None
    # a runtime figure ("31.74 GiB total capacity") beats a marketing one ("32 GB"); the host's RAM beside a card's
    # size ("64 GB RAM, 8 GB VRAM") yields to it
    n, _, _ = max(sizes, key=lambda s: (not s[2], s[1] == "gib" and not s[0].is_integer(), s[1] == "gib"))
    return int(n * (1 << 30))


# a card's memory as people write it without naming the card: "24 GB GPU", "48g的显卡", "24G显存", "6141MiB total vRAM"
# (not a figure of what was free or in use: "7920 MiB free"; nor, in such loose text, what was available)
_STATED_SIZE = re.compile(r"(?i)(?<![\d.])(\d+(?:\.\d+)?)\s*(GiB|GB|G|MiB|MB)(?![a-z0-9])(?!\s*(?:available|avail)\b)" + _NOT_A_CAPACITY)


def stated_size(text: str) -> int | None:
    """The card's memory in text that names no card, in the units capacity_from_name does not read ("G", MiB): the
    first size, where one stated as RAM, swap or disk yields to any other (the host's, beside the card's: "64 GB RAM,
    8 GB VRAM"); a RAM size alone is the device's (a phone's NPU, an APU: "16 GB RAM")."""
    sizes = []
    for m in _STATED_SIZE.finditer(text):
        value, unit = float(m.group(1)), m.group(2).lower()
        gib = value / 1024 if unit in ("mib", "mb") else value
        if 1 <= gib <= 512:
            sizes.append((bool(_HOST_SIZE.match(text, m.end())), size_of(f"{m.group(1)} {'GiB' if unit == 'g' else m.group(2)}")))
    return min(sizes, key=lambda s: s[0])[1] if sizes else None


# ----------------------------------------------------------------------------- log lines

_LOG_RES: list | None = None


def _log_res() -> list:
    global _LOG_RES
    if _LOG_RES is None:
        _LOG_RES = [
            re.compile(r'msg="inference compute".*?(?:description="([^"]+)"|name="([^"]+)")'),
            re.compile(r"using device \w+ \(([^)]+)\)"),
            re.compile(r"Device \d+: ([^,\n]+)"),
            re.compile(r"(?:found device|GPU name|picking default device):\s*(Apple [^\n]+?)\s*$"),
            re.compile(r"ggml_vulkan: \d+ = (.+?) \("),
            re.compile(r"^\|\s*\d+\s+(.+?)\s+(?:On|Off)\s+\|"),
            re.compile(r"\bGPU \d+: (.+?)(?: \(UUID:.*)?$"),
            re.compile(r"Marketing Name:\s*(.+?)\s*$"),
            re.compile(r"^\s*\d+,\s*([^,]+?),\s*(\d+)(?:\s*MiB)?\s*(?:,|$)"),
            # a launcher's or an app's own summary: "GPU: NVIDIA GeForce RTX 3080 Ti Laptop GPU (SM86, 16384 MB VRAM)"
            re.compile(r"\bGPU\s*\d*\s*:\s+((?:NVIDIA|AMD|Intel|Apple|Tesla|Quadro|GeForce|Radeon)\b[^(,\n]*?)\s*(?:\(|,|$)"),
        ]
    return _LOG_RES


_VENDOR_PATTERN = (r"(?i)nvidia|geforce|tesla|quadro|\brtx|\bgtx|radeon|instinct|\bamd\b|apple|intel|\barc\b|jetson"
                   r"|orin|xavier")
_FOUND_PATTERN = r"(?i)found (\d+) (?:CUDA|ROCm|HIP|SYCL|Vulkan|Metal)? ?devices?"
_TOTAL_PATTERN = r'\btotal="([\d.]+) ?(GiB|MiB|GB|MB)"|\b([\d.]+) ?(GiB|MiB|GB|MB) (?:of )?VRAM\b(?! (?:free|available|used|left))'
_GFX_PATTERN = r"\bgfx(\d{2,4}[a-z]?)\b"


def _with(spec: CardSpec, **kw) -> CardSpec:
    from dataclasses import replace

    return replace(spec, **kw)


def card_from_log_line(text: str, loose: bool = True) -> CardSpec | None:
    """The card a log line names, e.g.
    `|   0  NVIDIA A100-SXM4-80GB          On  | ...` (nvidia-smi),
    `using device CUDA0 (NVIDIA GeForce RTX 4090) - 23008 MiB free`,
    `ggml_cuda_init: found 1 CUDA devices: Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6`,
    `Device 0: AMD Radeon RX 7900 XTX, gfx1100 (0x1100)`, a bare ROCm `gfx90a`,
    `ggml_metal_init: found device: Apple M2 Max`,
    Ollama `msg="inference compute" ... description="NVIDIA GeForce RTX 4090" ... total="24.0 GiB"`.

    count is 1 unless the line says how many devices were found. `loose`: also read a line that only
    names a vendor somewhere (a person's sentence); a log scan passes False and reads only the forms above.
    """
    if not text or not isinstance(text, str):
        return None
    line = text.strip("\r\n")
    spec = None
    for rx in _log_res():
        m = rx.search(line)
        if not m:
            continue
        name = next((g for g in m.groups() if g), None)
        if not name:
            continue
        name = name.strip()
        probe = name
        if rx.pattern.startswith("^\\s*\\d+,"):  # nvidia-smi CSV: the MiB total helps pick the variant
            probe = f"{name} {m.group(2)} MiB"
        spec = parse_card(probe)
        if spec is not None:
            spec = _with(spec, matched=name)
            if probe is not name:
                spec = _with(spec, log_total_bytes=int(m.group(2)) * MiB)
            break
    if spec is None:
        g = re.search(_GFX_PATTERN, line)
        if g:
            t = _table()
            cid = t.gfx.get("gfx" + g.group(1)) or t.gfx.get("gfx" + g.group(1).rstrip("abcdefghijklmnopqrstuvwxyz"))
            card = t.cards.get(cid) if cid else None
            if card is not None:
                spec = _with(_spec(card, card.default, None, 1, g.group(0), False), assumed_variant=True)
    if spec is None and loose and re.search(_VENDOR_PATTERN, line):
        spec = parse_card(line)
    if spec is None:
        return None
    found = re.search(_FOUND_PATTERN, line)
    spec = _with(spec, count=int(found.group(1)) if found and int(found.group(1)) > 0 else 1)
    total = re.search(_TOTAL_PATTERN, line)
    if total:
        value = float(total.group(1) or total.group(3))
        unit = total.group(2) or total.group(4)
        spec = _with(spec, log_total_bytes=int(value * (GiB if unit in ("GiB", "GB") else MiB)))
    return spec
