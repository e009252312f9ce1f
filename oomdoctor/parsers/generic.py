"""Framework-agnostic evidence: what any log states, whatever printed it.

The framework parsers know their own message families. These patterns read the forms that
recur across runtimes and wrappers: a capacity statement (requested / free / total, a
running total against a limit, a budget that is less than the sum of its parts), a limit a
setting exceeds, a single buffer over a device's cap, the traceback frames that say which
component was running, and look-alikes (kernel resource limits) that mention memory but are
not an out-of-memory condition.
"""

from __future__ import annotations

import math
import re

from oomdoctor.parsers import capacity
from oomdoctor.parsers.base import MEMORY_WORDS, SIZE, Emitted, P, Pattern, const, driver_result, kind, mib, setting_over_limit, to_bytes, to_int

# names a message may give a setting, mapped to the canonical knob ids
_KNOB_WORDS = {
    "max_num_seqs": "max_num_seqs", "max_model_len": "max_model_len", "max_seq_len": "max_model_len",
    "max_num_batched_tokens": "max_num_batched_tokens", "max_batch_size": "max_num_seqs",
    "max_running_requests": "max_num_seqs", "context_length": "max_model_len", "n_ctx": "max_model_len",
    "max_total_tokens": "max_total_tokens", "max_tokens": "max_model_len", "batch_size": "batch_size",
}


def _setting_over_limit(m: re.Match[str]) -> Emitted:
    """`max_num_seqs (1024) exceeds available Mamba cache blocks (856)`."""
    knob = _KNOB_WORDS.get(m.group(1).lower())
    if knob is None:
        return
    what = "kv_capacity_limit" if re.search(r"cache|block|kv|token", m.group(3).lower()) else "setting_over_limit"
    yield from setting_over_limit(knob, to_int(m.group(2)), to_int(m.group(4)), what)


# what a stated need is for: the sentence's subject first, then (for a cache or pool) the rest of its line
_NEED_COMPUTE = re.compile(r"(?i)prefill|prompt processing|activation|sdpa|compute|scratch|workspace|temporar")
_NEED_KV = re.compile(r"(?i)\bkv\b|kv[_ -]?cache|\bcache\b|\bpool\b|\bstate\b")
_NEED_WEIGHTS = re.compile(r"(?i)\bmodel\b|weights?\b|param")
_CURRENT_PLUS = re.compile(r"(?i)current\s+~?" + SIZE + r"\s*\+\s*[^()]*?~?" + SIZE)


def _part_needed(subject: str) -> str | None:
    return ("compute" if _NEED_COMPUTE.search(subject) else "kv" if _NEED_KV.search(subject) else
            "weights" if _NEED_WEIGHTS.search(subject) else None)


def _free_below_need(m: re.Match[str]) -> Emitted:
    free, need = to_bytes(m.group(1), m.group(2)), to_bytes(m.group(4), m.group(5))
    if need <= free:
        return
    part = _part_needed(m.group(3))
    if part is not None:  # a part named: the part's own check, as in the usual order
        yield from _part_over_room(part, need, free, need)
        return
    yield "oom.kind", "free_below_util"
    yield "oom.free_at_start_bytes", free
    yield "oom.util_requested_bytes", need
    yield "_phase", "startup"


def _need_over_available(m: re.Match[str]) -> Emitted:
    subject, middle = m.group(1), m.group(4)
    need, have = to_bytes(m.group(2), m.group(3)), to_bytes(m.group(5), m.group(6))
    if need <= have:
        return
    part = _part_needed(subject) or ("kv" if _NEED_KV.search(m.string) else None)
    if part is None:
        return
    if _MAY_FAIL.search(m.string, m.end()):
        # a check that warns before it tries ("loading may fail"): its sizes, and what follows decides whether it failed
        yield "oom.hint", "may_fail_warning"
        yield "mem.required_bytes", need
        if part == "weights":
            yield "mem.gpu_available_bytes", have
            yield "mem.weights_bytes", need
        return
    # (a need stated as what is resident plus what the step adds: the step's part is the addition)
    plus = _CURRENT_PLUS.search(middle)
    own = to_bytes(plus.group(3), plus.group(4)) if plus else need
    if plus:
        resident = to_bytes(plus.group(1), plus.group(2))
        yield "mem.gpu_used_bytes", resident
        if resident >= have:  # what is resident is over the ceiling before the step adds anything
            yield "oom.hint", "resident_over_room"
    yield from _part_over_room(part, need, have, own)


_MAY_FAIL = re.compile(r"(?i)\b(?:may|might|could|can) fail\b")
# a final error that is a crash naming no cause of its own (an access violation, a segfault, an abort)
# (a segfault as a shell in another language reports it: "Falha de segmentação", "Speicherzugriffsfehler", "段错误")
_SEGV_LOCALIZED = ("Falha de segmentação", "Speicherzugriffsfehler", "Erreur de segmentation", "Violación de segmento",
                   "Errore di segmentazione", "Ошибка сегментирования", "Naruszenie ochrony pamięci", "段错误", "記憶體區段錯誤")
UNNAMED_CRASH = re.compile(r"(?i)crash|segment|violation|violación|abort|" + "|".join(_SEGV_LOCALIZED))


def _part_over_room(part: str, need: int, have: int, own: int) -> Emitted:
    yield "mem.required_bytes", need
    if part == "weights":  # the model against what the runtime may use: its budget
        yield "oom.kind", "budget_exceeded"
        yield "mem.gpu_available_bytes", have
        yield "mem.weights_bytes", own
        return
    # (the room a part's check states is what is left for that part, not the runtime's whole budget)
    yield "oom.need_room_bytes", have
    yield "oom.kind", "need_over_available"
    yield "oom.buffer", part
    yield ("mem.kv_cache_bytes" if part == "kv" else "mem.activation_peak_bytes"), own


def _budget_parts(m: re.Match[str]) -> Emitted:
    """`available ... memory is 20584.716 MB, which is less than the sum of model weight size
    (5977.188 MB) and temporary buffer size (15013.765 MB)`: a start-up budget check."""
    available = to_bytes(m.group(1), m.group(2))
    parts: list[tuple[str, int]] = []
    for name, number, unit in re.findall(r"([a-zA-Z][a-zA-Z ]*?) size \((" + r"\d[\d,]*(?:\.\d+)?" + r")\s?([KMGT]i?B)\)", m.string):
        size = to_bytes(number, unit)
        low = name.lower()
        if "weight" in low or "param" in low:
            parts.append(("mem.weights_bytes", size))
        elif "kv" in low or "cache" in low:
            parts.append(("mem.kv_cache_bytes", size))
        elif re.search(r"temp|buffer|activation|workspace|scratch", low):
            parts.append(("mem.activation_peak_bytes", size))
    # a check whose own numbers fit with room to spare ("19314 MB ... less than the sum of 51 MB and
    # 107 MB") has measured something wrong: no shortage its numbers show
    contradicted = parts and sum(size for _, size in parts) < 0.9 * available
    yield "oom.kind", "estimator_bug" if contradicted else "budget_exceeded"
    yield "mem.gpu_available_bytes", available
    yield from parts
    yield "_phase", "startup"


_METAL_BUFFERS = {"data": "weights", "kv": "kv", "alloc": "compute", "scratch": "compute", "eval": "compute", "scr0": "compute", "scr1": "compute"}


METAL_UNNAMED = "_metal_unnamed_bytes"


def _metal_buffer(m: re.Match[str]) -> Emitted:
    """`ggml_metal_add_buffer: allocated 'data  ' buffer, size = 8192.00 MiB, ... (19626.77 / 10922.67)`:
    each buffer, and the running total against the recommended working set (both MiB)."""
    size = to_bytes(m.group(2), "MiB")
    role = _METAL_BUFFERS.get((m.group(1) or "data").strip().lower(), "weights")
    if role == "weights" and m.group(1) is None:
        # llama.cpp's mmap'd model ("ggml_backend_metal_buffer_from_ptr: allocated buffer, size = ..."),
        # which its loader states again as "Metal buffer size =": counted once (see _State.finish)
        yield "_sum:" + METAL_UNNAMED, size
    elif role == "weights":
        yield "_sum:mem.weights_bytes", size
    elif role == "kv":
        yield "_sum:mem.kv_cache_bytes", size
        yield "_phase", "kv_alloc"
        if m.group(3):  # what was placed before the KV cache: the model's buffers (when no line names them)
            yield "_resident_before_kv", to_bytes(m.group(3), "MiB") - size
    if m.group(3):
        yield "mem.gpu_used_bytes", to_bytes(m.group(3), "MiB")
    if m.group(4):  # (a paste cut after "( used /" keeps the running total; the recommended line states the rest)
        yield "mem.gpu_available_bytes", to_bytes(m.group(4), "MiB")


# names a runtime gives the parts of its memory plan, by keyword (checked in this order)
_FIGURE_ROLES = (
    ("kv", r"kv|context|cache"),
    ("weights", r"model|weight|param"),
    ("budget", r"usable|available|heap|budget(?!.*kv)"),
    ("overhead", r"overhead|workspace|activation|temp"),
)
_FIGURE = re.compile(r"([A-Za-z][\w ]*?)\s*[=:]\s*(-?\d+(?:\.\d+)?)\s?(GiB|GB|MiB|MB)\b")


def _memory_figures(m: re.Match[str]) -> Emitted:
    """`model_memory=5.32GB, overhead=2.06GB, usable_metal=7.15GB, kv_budget=-0.38GB`,
    `estimatedContextVramUsageBytes: 13.18 GiB`: a runtime's own plan, part by part."""
    for name, number, unit in _FIGURE.findall(m.string):
        low = name.strip().lower()
        role = next((r for r, pat in _FIGURE_ROLES if re.search(pat, low)), None)
        size = to_bytes(number.lstrip("-"), unit) * (-1 if number.startswith("-") else 1)
        if role == "kv":
            yield "mem.kv_cache_bytes", size
            if size <= 0:
                yield "oom.kind", "no_kv_memory"
        elif role == "weights" and size > 0 and "total" not in low:
            yield "mem.weights_bytes", size
        elif role == "budget" and size > 0:
            yield "mem.gpu_available_bytes", size
        elif role == "overhead" and size > 0:
            yield "mem.non_torch_bytes", size
    frac = re.search(r"\bfraction\s*=\s*(0?\.\d+|1\.0)\b", m.string)
    if frac:
        yield "knob.gpu_memory_utilization", float(frac.group(1))


FRAME_LINE = r'File "[^"]+", line \d+, in \w'  # one frame of a Python traceback


def _ggml_pool(m: re.Match[str]) -> Emitted:
    """ggml's fixed pools. Its early scratch pool was sized once for a batch of prompt tokens: a
    graph that needs 5% more than it holds outgrew it (a larger batch, a longer prompt:
    activations); a few percent over is the engine's own estimate of its graph falling short, which
    later builds fixed. A context's memory pool (the object and tensor arena a ggml context gets at
    init), the graph allocator's measured buffer and the free-block list are the library's own
    sizing, whatever the shortfall: no device or host ran out (a smaller batch or a later build
    avoids it)."""
    needed, available = m.group(1), m.group(2)
    scratch = "scratch memory pool" in m.group(0)
    if scratch and needed and available and int(available) and int(needed) >= 1.05 * int(available):
        return [("oom.kind", "ggml_pool_outgrown"), ("oom.requested_bytes", int(needed)), ("oom.pool_bytes", int(available))]
    return [("oom.kind", "ggml_fixed_pool")]


def _c10_oom(m: re.Match[str]) -> Emitted:
    """PyTorch's allocator warning: `... while trying to allocate N bytes (free: F, total: T)`."""
    yield "oom.requested_bytes", int(m.group(1))
    yield "oom.gpu_free_bytes", int(m.group(2))
    yield "oom.gpu_total_bytes", int(m.group(3))


def _binding_limit(m: re.Match[str]) -> Emitted:
    """A buffer over a graphics API's binding cap, the sizes in either order; at load when the line is loading."""
    g = m.groups()
    asked, cap = (g[0:2], g[2:4]) if g[0] else (g[6:8], g[4:6])
    yield "oom.kind", "buffer_over_limit"
    yield "oom.requested_bytes", to_bytes(*asked)
    yield "oom.buffer_limit_bytes", to_bytes(*cap)
    if re.search(r"(?i)\bload", m.string[:m.start()]):
        yield "_phase", "load_weights"


# PostgreSQL's cap on one allocation (MaxAllocSize, 0x3fffffff)
POSTGRES_MAX_ALLOC = (1 << 30) - 1


def _placement_available(m: re.Match[str]) -> Emitted:
    """A cluster scheduler's count of the memory it found for a model: the largest worker's, or the one card's with its
    share of the card ("only has 7.0 GiB allocatable VRAM (87.50%)", the share below the memory fraction it places by)."""
    if m.group(1):
        yield "_max:mem.gpu_available_bytes", to_bytes(m.group(1), m.group(2))
        if m.group(3) == "0":
            yield "oom.hint", "no_gpu_seen"
    else:
        yield "oom.kind", "placement_no_room"
        yield "oom.hint", "allocatable_share_short"
        yield "mem.gpu_available_bytes", to_bytes(m.group(4), m.group(5))
        yield "mem.gpu_allocatable_ratio", float(m.group(6)) / 100


def _buffer_cap(m: re.Match[str]) -> Emitted:
    yield "oom.kind", "buffer_over_limit"
    yield "oom.requested_bytes", int(m.group(1))
    yield "oom.buffer_limit_bytes", int(m.group(2))


# how a log's last line says the process ended under the user's eyes: an interrupt, or the shell's
# prompt back with nothing after it (read once, on the last line, by the scanner: not on every line)
# (or Windows' `pause` after a batch file's program ended, in the user's language, often glued to the program's last output:
# "Press any key to continue . . .", "Pressione qualquer tecla para continuar. . .", "続行するには何かキーを押してください . . .")
ENDED = re.compile(r"\^C\s*$|^PS [A-Z]:\\[^>]*>\s*$|^[\w.-]+@[\w.-]+:[^$#]*[$#]\s*$|"
                   r"(?:Press any key to continue|Pressione qualquer tecla para continuar|Presione una tecla para continuar|"
                   r"Appuyez sur une touche pour continuer|Drücken Sie eine beliebige Taste|続行するには何かキーを押してください|"
                   r"请按任意键继续|請按任意鍵繼續|нажмите любую клавишу)\s*\.?\s*\.?\s*\.?\s*$")

# a traceback cut just after the statement that raised ("    raise ValueError(f'remaining_argv: {remaining_argv}')"):
# the class it raises, with the words it raises it with, is the error, though its own line is missing (a message
# held in a variable, "raise RuntimeError(error_msg)", says nothing: an allocator raises that way too)
_RAISED = re.compile(r"^(?:\[rank\d+\]:)?\s*raise (?:[A-Za-z_]\w*\.)*([A-Z]\w*(?:Error|Exception))\(([fFrRbB]{0,2}['\"].*)$")


# (not a bare identifier, as Rust launchers relay a failure: TGI's "Error: WebserverFailed", "Error: ShardCannotStart")
_BARE_ERROR = re.compile(r"^\s*Error: (?!.*(?:[Ee]rror\b|Exception|Traceback|\bEOF\b|\bfailed: ))(?!\w+\s*$)(\S.*)$")


# a native stack (innermost frame last, as Paddle prints its C++ traceback) cut at an allocator's frame
# ("10  paddle::memory::allocation::Allocator::Allocate(unsigned long)", "3   float* phi::DeviceContext::Alloc<float>(...)"):
# the exception the stack was printed for was thrown by an allocation, whatever its message below the cut said
_ALLOC_FRAME = re.compile(r"^(?:\d+\s+)?(?:[\w:<>*&, ]+?\s)?(?:\w+::)+(?:Alloc|Allocate\w*|AllocateRaw\w*)(?:<[^()]*>)?\(")


def alloc_frame_at_end(text: str) -> bool:
    """The log's last line is a native stack's allocator frame: an allocation failed there."""
    return bool(_ALLOC_FRAME.match(text))


def raised_at_end(text: str, complete: bool = True) -> str | None:
    """The error a log's last line raises, when that line is a `raise` of an error that is not about memory, or a
    command-line tool's bare "Error: <message>" (as Go and Rust programs print their last error) that names its own
    cause rather than relaying another (a nested error, a traceback, a connection's EOF); the bare message only when
    the line is `complete` (a log cut inside it may have lost the words that name memory)."""
    bare = _BARE_ERROR.match(text)
    if bare is not None:
        if not complete:
            return None
        if MEMORY_WORDS.search(text) or _NOT_A_CAUSE.search(bare.group(1)):
            return None
        return f"the log ends on {text.strip()[:200]}: an error that names its own cause, not memory"
    m = _RAISED.match(text)
    if m is None or _WRAPPER_ERRORS.fullmatch(m.group(1)) or MEMORY_WORDS.search(text) or _NOT_A_CAUSE.search(m.group(2)):
        return None
    return f"the log ends where the code raises {m.group(1)} ({text.strip()[:200]}); its message line is cut"


# a sentence that mentions running out of memory without stating it happened (advice, a guard)
# (or a warning that the runtime worked around it: TensorRT skipping a tactic)
_ADVICE = re.compile(r"(?i)\b(?:avoid\w*|prevent\w*|to reduce|consider|if you|you (?:can|may|should)|may (?:cause|lead|result)|"
                     r"might|could (?:cause|lead)|in order to|without|no longer|unless|skipping|falling back|retrying|"
                     r"how to (?:address|avoid|fix|handle|debug|resolve|deal)|refer to the doc\w*|"
                     # (TensorFlow's allocator on a request its caller can do without: "The caller indicates that this is
                     # not a failure, but may mean that there could be performance gains if more memory were available")
                     r"this is not a failure)\b|"
                     r"\[W\]|\bWARN(?:ING)?\b|\w*Warning:")
# (ggml_aligned_malloc is ggml's CPU allocator; mkl_malloc Intel MKL's, which CTranslate2 and PyTorch's CPU kernels use)
# (a JavaScript ArrayBuffer, "RangeError: Array buffer allocation failed", is the browser's or Node's heap)
# (Android's runtime reports its Java heap as "... free bytes and 41MB until OOM, target footprint ..., growth limit ...";
# a JVM's OutOfMemoryError is its heap or its direct buffers, host memory whatever the process serves; V8's frames in a
# Node crash's native stack, "v8::internal::V8::FatalProcessOutOfMemory(...)", its JavaScript heap)
# (LLVM's own "LLVM ERROR: out of memory" is its heap on the host, a kernel's compiler running out, whatever device it builds for)
_HOST_SIDE = re.compile(r"(?i)\b(?:cpu|host|system memory|ram|pinned|swap|errno 12|bad_alloc|bad allocation|mmap|ggml_aligned_malloc|mkl_malloc|srun|slurmstepd|"
                        # (the kernel's own words, where a paste wraps its report: "kernel: Memory cgroup out of memory:" alone)
                        r"memory cgroup|"
                        r"array ?buffer|until OOM|java\.lang\.OutOfMemoryError|"
                        # (a managed runtime's heap, in host RAM: V8's "Ineffective mark-compacts near heap limit Allocation
                        # failed", "JavaScript heap out of memory"; the JVM's "Java heap space", "GC overhead limit exceeded",
                        # its off-heap "direct buffer memory", Netty's "byte(s) of direct memory")
                        r"(?:near|reached) heap limit|JavaScript heap|Java heap|GC overhead limit|direct (?:buffer )?memory)\b|"
                        r"cannot allocate memory|\bv8::|\bLLVM ERROR: out of memory\b")
DEVICE_SIDE = re.compile(r"(?i)\b(?:cuda|gpu|vram|device|hip|rocm|metal|vulkan|sycl|xpu|npu|mps|cudaMalloc\w*)\b")


def _bank_oom(m: re.Match[str]) -> Emitted:
    yield "gpu.backend", "tenstorrent"
    if m.group(2) == "L1":
        # the cores' on-chip SRAM (about 1.3 MB a bank), where the compiler places a program's buffers: its plan
        # overflowed, not the device's memory
        yield "oom.kind", "onchip_overflow"
        return
    yield "oom.kind", "cuda_error_oom"
    yield "oom.requested_bytes", int(m.group(1))
    banks = int(m.group(3) or 0)
    if banks and m.group(4):
        yield "oom.gpu_total_bytes", banks * int(m.group(4))
    if banks and m.group(5):
        yield "oom.gpu_free_bytes", banks * int(m.group(5))
    if banks and m.group(6):  # free in total, but not in one piece per bank
        yield "oom.largest_free_bytes", banks * int(m.group(6))


# the step a failure statement names itself ("OOM during ~25K-token tool-response prefill", "out of memory while
# loading the model"): the phase of that failure
_STATED_STEP = re.compile(
    r"(?i)\b(?:during|while|when|in|at)\b[^.;:()]{0,40}?\b(prefill|prompt processing|decod\w*|generat\w*|load\w*|"
    r"warm-?up|profil\w*|(?:cuda )?graph captur\w*|captur\w*)")
_STEP_PHASE = {"prefill": "prefill", "prompt processing": "prefill", "decod": "decode", "generat": "forward", "load": "load_weights",
               "warm": "warmup", "profil": "profile", "captur": "cuda_graph_capture", "graph": "cuda_graph_capture",
               "cuda": "cuda_graph_capture"}
# the KV cache named as what was being allocated, before the failure's words ("[kv] malloc k_pool: out of memory", "failed to
# allocate KV cache: out of memory")
_KV_SUBJECT = re.compile(r"(?i)(?<![\w-])(?:\[kv\]|kv[ _-]?cache|kv[ _-]?pool|[kv]_pool|kv[ _-]?blocks?)(?![\w-])")
# a failed allocation's own size stated as zero (ggml's Metal backend wrapping a mapped file: "failed to allocate buffer,
# size =     0.00 MiB")
_ZERO_SIZE = re.compile(r"(?i)\ballocate (?:\w+ )?buffer,? (?:of )?size\s*=?\s*0(?:\.0+)?\s*(?:bytes|[KMGT]i?B)\b")
# (in any unit a runtime prints, up to a size bug's: Paddle's "Cannot allocate 655.142555PB memory on GPU 0")
_STATED_SIZE = re.compile(r"(?i)\ballocate\s+(?:memory\s+)?(?:of\s+)?(?:size\s+)?(\d+(?:\.\d+)?)\s*(bytes|[KMGTPE]i?B)\b|"
                          # (a bare count is bytes: ggml's Vulkan backend, "Memory allocation of size 638668800 failed")
                          r"\ballocation of size (\d{4,})(?= failed)|"
                          # (Android's Java heap: "Failed to allocate a 54000015 byte allocation with 25165824 free bytes")
                          r"\ballocate a (\d+) byte allocation\b")


def _stated_oom(m: re.Match[str]) -> Emitted:
    """A runtime saying, in its own words, that an allocation failed for lack of memory
    (`CUDA failed with error out of memory`, `ErrorOutOfDeviceMemory`, `std::bad_alloc`):
    a device failure unless only the host is named."""
    line = m.string
    if _ADVICE.search(line) or _OTHER_RESOURCE.search(line):
        return
    hedge = _HEDGE.search(line)
    if hedge and hedge.start() < m.start():  # a guess listed under an error, not the failure
        return
    if line[m.end():m.end() + 3].lstrip().startswith("?"):  # asked, not stated: GPT4All's "GPU loading failed (out of vram?)"
        # (unless the answer follows: ColabFold's "Not Enough GPU memory? RESOURCE_EXHAUSTED: Out of memory while trying to
        # allocate 7866899248 bytes.")
        stated = m.re.search(line, m.end())
        if stated:
            yield from _stated_oom(stated)
        return
    if _ZERO_SIZE.search(line):  # a buffer of no size refused: what failed was not the memory (a mapping, an alignment)
        yield "oom.kind", "zero_size_alloc"
        return
    host = (_HOST_SIDE.search(line) and not DEVICE_SIDE.search(line)) or "OUT_OF_HOST_MEMORY" in line
    if host:
        yield "oom.kind", "host_alloc_failed"
        yield "oom.cpu_alloc_failed", True
    else:
        yield "oom.kind", "cuda_error_oom"
    step = _STATED_STEP.search(line, m.start())
    if _KV_SUBJECT.search(line, 0, m.start()):  # the cache's own allocation: "[kv] malloc k_pool: out of memory"
        yield "_phase", "kv_alloc"
    elif step:
        word = step.group(1).lower()
        yield "_phase", next(phase for stem, phase in _STEP_PHASE.items() if word.startswith(stem))
    size = _STATED_SIZE.search(line)
    if size:  # "Can not allocate 16049884928 bytes for USM Device", "failed to allocate 2.00 GiB"
        requested = to_bytes(size.group(1), size.group(2)) if size.group(1) else int(size.group(3) or size.group(4))
        if requested:
            yield "oom.requested_bytes", requested
    if host:
        return
    # the line's other figures in its own words ("need 12.3GB but only 8.1GB free (total 24GB)", "used 23.5 GB of 24 GB")
    stated = capacity.figures(line)
    if size is None and stated.get("requested"):
        yield "oom.requested_bytes", stated["requested"]
    if stated.get("required"):
        yield "mem.required_bytes", stated["required"]
    if "free" in stated:
        yield "oom.gpu_free_bytes", stated["free"]
    if "total" in stated:
        yield "oom.gpu_total_bytes", stated["total"]


# a runtime's list of what may have gone wrong ("Possible Cause: Failed to allocate memory or the Notify register ...")
# (or a guess in the runtime's own words: Jittor's "Caught SIGCHLD. Maybe out of memory, please reduce your worker size")
_HEDGE = re.compile(r"(?i)\b(?:possible|probable|likely) (?:causes?|reasons?)\b|\bmaybe\b")
# an allocation of a resource other than memory ("Failed to allocate resource[qp] ... Reason: Memory resources are
# exhausted": a queue pair Ascend's HCCL sets its RDMA transport up with): the transport or the driver, not memory
# (or an RDMA card's queue it could not create, "Failed to create completion queue: Cannot allocate memory [12]": the card's
# resources or the locked-memory limit, not the RAM)
_OTHER_RESOURCE = re.compile(r"allocate resource(?:\[(?!\w*memory\])(\w+)\]| (?!\w*memory\b)(qp|cq|sq|stream|event|notify)\b)|"
                             r"\bcreate (?:a |the )?(?:completion queue|queue pair|cq|qp)\b", re.I)


# the exceptions a wrapper raises when something beneath it failed: never the cause
_WRAPPER_ERRORS = re.compile(
    r"EngineDeadError|ActorDiedError|Ray\w*Error|ChildFailedError|CancelledError|BrokenPipeError|Connection\w*Error|"
    r"TimeoutError|ProcessExitedException|RemoteDisconnected|\w*Disconnected\w*|ReadTimeout|ClientConnectorError|"
    r"ProcessLookupError|ClosedResourceError|EndOfStream")
# vLLM's executor relaying a worker's exception, in its two spellings:
# "Worker failed with error 'X', please check the stack trace above for the root cause" and
# "('Worker failed with error %s, please check the stack trace above for the root cause', \"X\")"
_WORKER_RELAY = re.compile(r"Worker failed with error (?:'(.+)', please check|%s.*?',\s*[\"'](.+)[\"']\)\s*$)")
# a feature the build or the model does not have is the cause, whatever memory words its message holds
# ("HiRadixCache only supports MHA, MLA, and NSA (DSA) models")
# (or a device that lacks a named feature: SYCL's "The device does not have the ext_intel_free_memory aspect")
_UNSUPPORTED = re.compile(r"(?i)\bonly supports?\b|\b(?:is |are )?not (?:yet )?supported\b|\bunsupported\b|\bdoes(?:n't| not) support\b|"
                          r"\bdoes(?:n't| not) have (?:the|an?) [\w.-]+ (?:aspect|extension|feature|capability)\b")
# a size that must divide evenly ("Buffer size 1073741824 must be a multiple of align bytes 29360128", "not divisible by
# tensor parallel size"): a setting or a shape that does not fit a constraint, whatever memory words the message holds
# (or aligned to one: "The input size is not aligned with the quantized weight shape", a quantized checkpoint's groups
# that the parallel size splits unevenly)
_DIVISIBILITY = re.compile(r"(?i)\b(?:must be|is not|isn't|should be) (?:a multiple of|divisible by|evenly divisible by|aligned (?:with|to))\b")
# tensors whose shapes disagree ("The size of tensor a (32000) must match the size of tensor b (151936) at non-singleton
# dimension 1", "mat1 and mat2 shapes cannot be multiplied", "size mismatch for lm_head.weight"): a shape, not memory
# (also a slice past a tensor's end, "start (3313) + length (808) exceeds dimension size (2048)", or an index past it,
# "index 4096 is out of bounds for dimension 0 with size 4096": a length the code did not bound, such as a sequence
# longer than the cache it was sized for)
_SHAPE_MISMATCH = re.compile(r"must match the (?:existing )?size (?:of tensor|\(\d+\))|shapes cannot be multiplied|\bsize mismatch for\b|\bshape mismatch\b|"
                             r"\bstart \(\d+\) \+ length \(\d+\) exceeds\b|\bis out of bounds for dimension\b|"
                             # (a kernel's check of an input's dimension: ONNX Runtime's "cos_cache dimension 0 should be of
                             # max_sequence_length")
                             r"\bdimension \d+ (?:should|must) be\b|"
                             # (a multimodal prompt whose image placeholders do not match the image's tokens: "Attempted to
                             # assign 1 x 576 = 576 multimodal tokens to 0 placeholders", "Image features and image tokens do not match")
                             r"\btokens to \d+ placeholders\b|\bfeatures and \w+ tokens do not match\b", re.I)
# a failed assertion raised as an exception ("RuntimeError: Failed: Assertion error deep_ep.cpp:1233 'x.size(0) <= ...'"):
# an invariant of the code, unless it checks an allocation
_ASSERTION = re.compile(r"\bAssertion\b|\bassert(?:ion)? (?:error|failed)\b", re.I)
# a shell's report of a crash signal (the final-error pattern reads it): the text after it is the command that crashed
_CRASH_WORDS = r"[Ss]egmentation fault|Illegal instruction|[Ff]loating point exception|\bAborted\s+\(core dumped\)|" + "|".join(_SEGV_LOCALIZED)
_CRASH_REPORT = re.compile(_CRASH_WORDS)
# a call quoted in a message, its arguments and all ("CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasLtMatmul(ltHandle, ...,
# workspaceSize, ...)`"): code, not the cause, whatever words its argument names hold
_CALL_SPAN = re.compile(r"`[A-Za-z_][\w:.]*\([^`]*`?")
# messages that point elsewhere (a worker died, see above), or that state a shortfall of memory or of a size
_RELAY_OR_SHORTFALL = (
    # (an exception whose message opens a native traceback, "TVMError: Traceback (most recent call last):": its cause is below;
    # a console's wrap may cut it after "call")
    r"(?i)root cause|see (?:the )?(?:above|logs?|stack|error|traceback)|traceback \(most recent call\b|initiali[sz]ation failed|failed to (?:start|initiali[sz]e|launch|load)|"
    r"\b(?:died|dead|exited|terminated|killed|crash\w*|abort\w*|interrupted)\b|exit (?:code|status)|unexpected(?:ly)?(?! keyword)|timed? ?out|"
    r"connection|capture|warm ?up|health|signal|\bnccl\b|system error|\bCUDA ru|"
    r"memory|(?<!de)alloc|\boom\b|gpu_memory|too (?:large|long|big)|exceed|capacity|insufficient|not enough|space|buffer|workspace|")
# (with the words a shortfall is stated in: "larger than", "at least", "requires", "available")
_SHORTFALL = re.compile(_RELAY_OR_SHORTFALL + r"(?:larger|more|greater|bigger|longer) than|at (?:least|most)|\bneed|requir|\bfit\b|\bleft\b|available|remain")
# ... or that only name what memory holds (the KV cache, its blocks, a batch, a context length): a shortfall of it, or a
# check of its settings ("Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified type")
_NOT_A_CAUSE = re.compile(_RELAY_OR_SHORTFALL + r"\bkv\b|cache|block|max_model_len|max_num|\btokens?\b|context|seq(?:uence)?[ _]len|batch|\bsize\b")


# (ggml-metal's bare "false" follows a command buffer that failed, most often for memory)
# (a pointer checked against null is an allocation's result, unless it is a kernel looked up for a type: ggml's
# "to_fp32_cuda != nullptr" fails where the build has no converter for the weights' type, bf16 on an old build)
_ALLOC_CHECK = re.compile(r"(?i)alloc|memory|\boom\b|buffer|\b(?!to_)[\w>-]+ != (?:NULL|nullptr)|\bptr\b|ggml-metal\.m:\d+:?\s*false")


_ALLOCATOR_WORDS = re.compile(r"(?i)out of memory|\boom\b|alloc")


# (a null returned: "Failed to create context: null reference from llama.cpp", llama.cpp's context that could not be made,
# most often for its KV cache, relayed without its cause)
_RELAYED = re.compile(r"(?i)\b(?:died|dead|exit\w*|terminated|killed|crash\w*|abort\w*|timed? ?out|unknown|unexpected\w*|error|failed|null\w*|"
                      r"see|space|size|too (?:large|long|big)|exceed\w*|insufficient|not enough)\b")
# a closing remark in parentheses that reports no failure of its own ("... to be set (this warning is normal during memory
# fitting)"): commentary on the reason, not part of it
_CLOSING_REMARK = re.compile(r"\s*\(([^()]*)\)\s*$")


def _without_remark(reason: str) -> str:
    m = _CLOSING_REMARK.search(reason)
    if m and not _RELAYED.search(m.group(1)) and not _ALLOCATOR_WORDS.search(m.group(1)):
        return reason[:m.start()]
    return reason


_TIMEOUT = re.compile(r"(?:\w+\.)*(?:TimeoutError|ReadTimeout)")
_MEMORY_SETTING = re.compile(r"kv|cache|block|memory|mem_|_mem|gpu_util|swap|pool")
# the engine settings such a check names that are knobs of their own (vLLM's and SGLang's spellings)
_SETTING_KNOBS = {"max_num_batched_tokens": "max_num_batched_tokens", "max_model_len": "max_model_len", "max_num_seqs": "max_num_seqs",
                  "chunked_prefill_size": "max_num_batched_tokens", "context_length": "max_model_len", "max_running_requests": "max_num_seqs"}
_ERRNO = {"2": "a file that is not there", "13": "a permission refused", "24": "too many open files (ulimit -n)",
          "98": "the address (port) is already in use by another process", "99": "an address this host does not have"}
# the same causes where a C runtime prints the number as a field ("IOCTL failed (err=-22): Invalid argument")
_ERRNO_FIELD = {"1": "an operation not permitted", "2": "a file that is not there", "13": "a permission refused",
                "16": "a device busy", "19": "no such device", "22": "an invalid argument"}


# (the line says a mapping or an allocation failed)
_MAP_OR_ALLOC = re.compile(r"(?i)\b(?:mmap|map|mapping|alloc\w*)\b")


def _errno_field(m: re.Match[str]) -> Emitted:
    """`errno=12` / `(err=-22)`: ENOMEM where a mapping or an allocation failed is the host's memory; the causes in
    _ERRNO_FIELD are not memory; any other number says nothing."""
    code = m.group(1)
    if code == "12":
        if _MAP_OR_ALLOC.search(m.string):
            yield "oom.kind", "host_alloc_failed"
            yield "oom.cpu_alloc_failed", True
    elif code in _ERRNO_FIELD:
        yield "error.final", f"{m.string.strip()[:200]}: errno {code}, {_ERRNO_FIELD[code]}, not memory"


# an absolute file path in a message ("Error in function 'run' at /workspace/flashinfer/csrc/moe.cu:55: ..."): its folders'
# names ("/workspace/", "/kv_cache/") are not words of the message (a library's own relative path is: Rust's
# "panicked at library/alloc/src/raw_vec.rs:25:5:" is its allocator's)
_FILE_PATH = re.compile(r"(?:\b[A-Za-z]:|(?<![\w.~]))(?:[\\/][\w.+-]+){2,}")


_GENERIC_ERRORS = re.compile(r"(?:\w+\.)*(?:RuntimeError|Exception|Error|OSError|SystemError|BaseException)")


# where a runtime prints an OpenCL status by number: ggml's OpenCL backend ("ggml_opencl: ... error -30 at ...") and MNN's
# ("CL ERROR CODE : -36, info:...")
_OPENCL_CODE_AT = r"ggml_opencl: .*\berror |CL ERROR CODE : "
_OPENCL_CODE_ANCHORS = ("ggml_opencl: ", "CL ERROR CODE : ")
# OpenCL's statuses that are not memory, by number
_OPENCL_STATUS = {"-30": "CL_INVALID_VALUE", "-34": "CL_INVALID_CONTEXT", "-36": "CL_INVALID_COMMAND_QUEUE", "-38": "CL_INVALID_MEM_OBJECT",
                  "-48": "CL_INVALID_KERNEL", "-52": "CL_INVALID_KERNEL_ARGS", "-54": "CL_INVALID_WORK_GROUP_SIZE"}
# Windows statuses (HRESULT) that name a refused call, not memory
_HRESULT = {"80070057": "E_INVALIDARG, a parameter is incorrect", "80004001": "E_NOTIMPL, not implemented"}


def _card_named(m: re.Match[str]) -> Emitted:
    from oomdoctor.gpus import card_from_log_line  # the shipped card table, read only when a line names a card

    spec = card_from_log_line(m.string, loose=False)
    if spec is None:
        return
    yield "gpu.name", spec.matched or spec.name
    if spec.log_total_bytes:
        yield "gpu.total_bytes", spec.log_total_bytes


# where MSVC's assert names its source after the condition: ", file D:\\src\\Expr.cpp, line 166"
_MSVC_ASSERT = re.compile(r",\s*file .*$")
# a check whose condition only says an earlier step did not succeed (its status, its result, a constant false)
_RELAYING_CHECK = re.compile(r"(?i)^\s*(?:false|0)\s*$|status|\b(?:result|res|ret|rc)\b|success")


def _final_error(m: re.Match[str]) -> Emitted:
    """A traceback's final line (or a native abort) that names a cause other than memory:
    `ValueError: Unrecognized model type`, `CUDA error: an illegal instruction`, `GGML_ASSERT(...) failed`."""
    if m.group(1):
        yield from _judged_error(m.group(1), m.group(2) or "", m.group(0), raised=True)
    else:
        yield from _judged_error(m.group(3) or "", m.group(4) or "", m.group(0), raised=False)


def _raise_line(m: re.Match[str]) -> Emitted:
    """IPython's arrow on the frame that raised (`--> 352     raise ValueError("Cannot merge LORA layers ...")`): the
    exception and its message, where the notebook's paste stops above its last line."""
    yield from _judged_error(m.group(1), m.group(3) or "", f"{m.group(1)}: {m.group(3) or ''}", raised=True)


def _judged_error(name: str, message: str, text: str, raised: bool) -> Emitted:
    if raised and not message.strip() and _GENERIC_ERRORS.fullmatch(name):
        # a generic exception's name alone (Jupyter's header line "RuntimeError" over a traceback cut below it) states no
        # cause; a bare AssertionError or TimeoutError does
        return
    if name.endswith("ResourceExhaustedError"):
        return  # PaddlePaddle's and TensorFlow's out-of-memory class (read as one), whatever its cut message says
    inner = _WORKER_RELAY.search(message)
    if inner:  # vLLM's executor relays a worker's error: that error is the one to read
        name, message = "", inner.group(1) or inner.group(2) or ""
    if name == "Assertion failed":
        # TensorRT's condition in words, or MSVC's condition in code ("Assertion failed: res, file Expr.cpp, line 166"): a
        # condition cut before it says what ("maxTo"), or one that checks an allocation or relays an earlier step's
        # result, names no cause; any other is judged below as any error's message is
        condition = _MSVC_ASSERT.sub("", message.lstrip(": "))
        if len(message.split()) < 3 or _ALLOC_CHECK.search(condition) or _RELAYING_CHECK.search(condition):
            return
    if name.startswith("Assertion ") and name != "Assertion failed":
        # a C assertion's condition is its cause ("Assertion `res == CUresult::CUDA_SUCCESS` failed (path/phase1.cuh:614):"),
        # not the source path after it, unless the condition checks an allocation
        if _ALLOC_CHECK.search(name):
            return
    elif name.endswith("_ASSERT"):
        # an assertion's condition is the cause ("n_tokens <= n_batch"), unless it checks an allocation
        if _ALLOC_CHECK.search(message):
            return
    elif _WRAPPER_ERRORS.fullmatch(name):
        # (a timeout says what the run stopped on, a wait that was not answered; whether a peer died for memory, its own
        # lines say)
        if _TIMEOUT.fullmatch(name) and not MEMORY_WORDS.search(message):
            yield "error.timeout", text.strip()[:300]
        return
    elif name.startswith("Failed to "):
        # an app's refusal with its reason: a reason that is memory ("failed to allocate buffer") or that only relays
        # another failure ("llama runner exited", "error loading model") is read where that failure is
        if MEMORY_WORDS.search(message) or _RELAYED.search(message):
            return
        yield "error.final", text.strip()[:300]
        return
    elif name == "AssertionError" and not _ALLOCATOR_WORDS.search(message):
        pass  # Python's `assert`: an invariant of the code ("Data too large for buffer 'cu_seqlen': 114 > 5"); no allocator raises it
    elif _CRASH_REPORT.match(name):
        pass  # a shell's report of a crash signal: what follows is the command it ran ("... api_server ./workspace"), not a cause
    elif _points_elsewhere(name if raised else "", _CALL_SPAN.sub(" ", _FILE_PATH.sub(" ", message))) and not _names_its_cause(message):
        return
    yield "error.final", text.strip()[:300]


# (the groups whose tokens add up to the request, the context's group) in each wording of request-over-context
_REQUEST_CONTEXT_GROUPS = (((1,), 2), ((4,), 3), ((5,), 6), ((8,), 7), ((9, 11), 10), ((12, 13, 14), 15), ((16,), 17), ((18,), 19),
                           ((20,), 21), ((22,), 23), ((24,), None), ((25,), 26), ((27, 28), 29), ((31,), 30), ((32,), 33))


def _setting_conflict(m: re.Match[str]) -> Emitted:
    """One setting checked against another ("max_tokens_per_mm_item (2496) is larger than max_num_batched_tokens (2048)"):
    a configuration error; where a side is a knob, the value that knob needs to pass the check."""
    left, right = m.group(1), m.group(3) or ""
    if _MEMORY_SETTING.search(f"{left} {right}"):
        return
    yield "error.final", f"{m.group(0).strip()}: one setting checked against another, a configuration error, not memory"
    if not m.group(4):
        return
    a, b = int(m.group(2).replace(",", "")), int(m.group(4).replace(",", ""))
    # A is too large where it "is larger" or "must be smaller" than B: B up to a, or A down to b; too small where it "is
    # smaller" or "must be larger": A up to b, or B down to a
    too_large = bool(re.search(r"\) (?:is (?:larger|greater|bigger)|must be (?:smaller|less))", m.group(0)))
    for name, value, target in ((right, b, a), (left, a, b)) if too_large else ((left, a, b), (right, b, a)):
        knob = _SETTING_KNOBS.get(name)
        if knob is not None:
            yield f"knob.{knob}", value
            yield "error.setting", knob
            yield "error.setting_value", target
            return


def _request_over_context(m: re.Match[str]) -> Emitted:
    """A request refused (or cut) for the context: its tokens and the context, where the message states them."""
    request, context = next(((sum(int(m.group(g) or 0) for g in parts), m.group(c) if c else None) for parts, c in _REQUEST_CONTEXT_GROUPS
                             if any(m.group(g) for g in parts) or (c and m.group(c))), (None, None))
    yield "oom.kind", "request_over_context"
    if request:
        yield "mem.prefill_tokens", request
    if context:
        yield "knob.max_model_len", int(context)


def _points_elsewhere(name: str, message: str) -> bool:
    """The error relays another, or is about memory: a shortfall stated, or memory's contents named with a shortfall
    (a message that only names the KV cache, a batch or a context, stating no shortfall, is a check of their settings)."""
    return bool((_NOT_A_CAUSE.search(message) or _NOT_A_CAUSE.search(name)) and (_SHORTFALL.search(message) or _SHORTFALL.search(name)))


def _names_its_cause(message: str) -> bool:
    """A missing feature, a size that must divide evenly, tensors whose shapes disagree, a resource other than
    memory, or a failed assertion that does not check an allocation, is the cause whatever memory words the
    message also holds."""
    return bool(_UNSUPPORTED.search(message) or _DIVISIBILITY.search(message) or _SHAPE_MISMATCH.search(message)
                or _OTHER_RESOURCE.search(message)
                or (_ASSERTION.search(message) and not _ALLOC_CHECK.search(message)))


PATTERNS: tuple[Pattern, ...] = (
    # ---- XLA (TPU backends of vLLM, JAX, torch_xla): RESOURCE_EXHAUSTED
    # a compiled program that could not reserve its memory ("Attempting to reserve 6.14G at the bottom of
    # memory"), or a kernel's scratch over the core's on-chip memory ("memory space vmem"): what the
    # engine leaves outside its pool, not the pool
    # (and the TPU runtime failing to load a compiled program, its size on the next line: "RuntimeProgramAllocationFailure:
    # Error loading program 'jit__forward':" then "Attempting to allocate 1.13G. That was not possible. There are 528.72M free.")
    P("xla-program-reserve", ("at the bottom of memory", "memory space vmem", "RuntimeProgramAllocationFailure"),
      r"Attempting to reserve ([\d.]+)([KMGT])i?B? at the bottom of memory|Ran out of memory in memory space vmem|"
      r"\bRuntimeProgramAllocationFailure: Error loading program\b",
      lambda m: [("oom.kind", "xla_reserve_failed")]
      + ([("oom.requested_bytes", to_bytes(m.group(1), m.group(2) + "B"))] if m.group(1) else [])),
    # the core's scalar memory (SMEM), where a paged-attention kernel's prefetched page tables live: one
    # entry per page of every sequence, so it grows with max_model_len x max_num_seqs
    # (unless XLA itself says it cannot happen: "Ran out of memory in memory space smem. It should not be possible to run out of
    # smem - please file a bug against XLA."): its compiler's fault, not the settings'
    P("xla-smem", ("memory space smem",), r"Ran out of memory in memory space smem(\. It should not be possible to run out of smem)?",
      lambda m: [("error.final", "XLA ran out of the core's scalar memory (SMEM), which it says should not be possible: a compiler "
                                 "bug to report (or a newer release), not a lack of memory")] if m.group(1) else [("oom.kind", "xla_smem_overflow")]),
    # a device buffer XLA could not place ("Attempting to allocate 1.96G. That was not possible. There are 3.46G
    # free. The largest contiguous region of free memory is 1.75G due to fragmentation"), read joined over its lines
    P("xla-buffer", ("Error allocating device buffer",), r"RESOURCE_EXHAUSTED: Error allocating device buffer", kind("xla_oom")),
    # XLA's report of the program it could not fit, printed with its out-of-memory error ("BufferAssignment OOM Debugging.",
    # "BufferAssignment stats:" with the parameter, temp and total allocations): a device out of memory, where a paste
    # keeps the report and not the error line above it
    P("xla-buffer-assignment", ("BufferAssignment OOM Debugging", "BufferAssignment stats:"),
      r"\bBufferAssignment (?:OOM Debugging|stats:)", kind("xla_oom")),
    # AWS Neuron's runtime refusing a device tensor (status 4, NRT_RESOURCE) after its driver's "dmem_alloc" error;
    # moving the weights onto the NeuronCores ("_parallel_to_neuron", "shard_along") is the load
    P("neuron-alloc", ("nrt_tensor_allocate",), r"nrt_tensor_allocate status=4\b", kind("cuda_error_oom", ("gpu.backend", "neuron"))),
    # (its runtime refusing a NeuronCore count its collectives cannot wire: "nrt_load_collectives  Unsupported topology.
    # Supported number of Neuron Cores is 1, 2, 8, 16 or a multiple of 32"): a setting (the tensor-parallel degree), not memory
    P("neuron-topology", ("Unsupported topology",), r"Unsupported topology\. Supported number of Neuron Cores is [^.]*",
      lambda m: [("error.final", f"AWS Neuron's runtime: {m.group(0)}: the tensor-parallel degree names a core count it cannot "
                                 "connect, not a lack of memory")]),
    # Qualcomm Cloud AI 100's driver refusing to activate a program on a card whose memory it would not hold ("Device 0
    # activate failed: Memory resource exhausted")
    P("qaic-activate", ("Memory resource exhausted",), r"activate failed: Memory resource exhausted",
      kind("cuda_error_oom", ("gpu.backend", "qaic"))),
    P("neuron-load-frames", ("_parallel_to_neuron", "shard_along"), r"\b_?parallel_to_neuron\b|\bshard_along\w*", const(("_phase", "load_weights"))),
    # (its older wording, with no error code: "Resource exhausted: Attempting to allocate 180.59M. That was not possible.
    # There are 142.58M free.": the same refused device buffer; without that prefix, the line under another failure, a
    # program that could not load, gives only the sizes)
    P("xla-buffer-sizes", ("Attempting to allocate",),
      r"(Resource exhausted: )?Attempting to allocate ([\d.]+)([KMGT])i?B?\b.{0,80}?There are ([\d.]+)([KMGT])i?B? free",
      lambda m: [("oom.requested_bytes", to_bytes(m.group(2), m.group(3) + "B")), ("oom.gpu_free_bytes", to_bytes(m.group(4), m.group(5) + "B"))]
      + ([("oom.kind", "xla_oom")] if m.group(1) else [])),
    # (XLA's stream executor refusing one device allocation: "Resource exhausted: Failed to allocate request for 87.48GiB
    # (93935126000B) on device ordinal 0"; "RESOURCE_EXHAUSTED:" in later releases)
    P("xla-request", ("Failed to allocate request for",), r"Failed to allocate request for [\d.]+\s*[KMGT]?i?B \((\d+)B\) on device ordinal \d+",
      lambda m: [("oom.requested_bytes", int(m.group(1)))]),
    # DeepSpeed's inference kernels sizing their workspace, outside PyTorch's pool, from the memory free then: "Free memory :
    # 10964500480 (Bytes)  Total memory: 25434587136 (Bytes)  Setting maximum total tokens (input + output) to 414": the
    # tokens it is sized for, and a vote for DeepSpeed
    P("deepspeed-workspace-tokens", ("Setting maximum total tokens",), r"Setting maximum total tokens \(input \+ output\) to (\d+)",
      lambda m: [("mem.workspace_tokens", int(m.group(1))), ("_framework", "deepspeed:6")]),
    # MegEngine's cudaMalloc report: "cudaMalloc failed while requesting 57933824 bytes (55.250MiB) of memory; error: out of
    # memory(last_err=2(out of memory) device=0 mem_free=29.312MiB mem_tot=24220.312MiB)"
    P("mem-free-tot", ("mem_free=",), r"\bmem_free=([\d.]+)\s*([KMGT]i?B)\b[ ,;]+mem_tot(?:al)?=([\d.]+)\s*([KMGT]i?B)\b",
      lambda m: [("oom.gpu_free_bytes", to_bytes(m.group(1), m.group(2))), ("oom.gpu_total_bytes", to_bytes(m.group(3), m.group(4)))]),
    P("requesting-bytes", ("while requesting",), r"\bfailed while requesting (\d+) bytes\b", lambda m: [("oom.requested_bytes", int(m.group(1)))]),
    P("largest-free-region", ("largest contiguous region",), r"largest contiguous region of free memory is ([\d.]+)([KMGT])i?B?",
      lambda m: [("oom.largest_free_bytes", to_bytes(m.group(1), m.group(2) + "B"))]),
    # MLC-LLM's plan of one GPU's memory: "Estimated total single GPU memory usage: 14361.14 MB (Parameters:
    # 3615.13 MB. KVCache: 10689.56 MB. Temporary buffer: 56.44 MB)" (also "Total memory usage: ...")
    P("mlc-memory-plan", ("Parameters:",),
      r"(?:Estimated total single GPU memory usage|Total memory usage): ([\d.]+) MB \(Parameters: ([\d.]+) MB\. KVCache: ([\d.]+) MB\. "
      r"Temporary buffer: ([\d.]+) MB\)",
      lambda m: [("mem.required_bytes", mib(m.group(1))), ("mem.weights_total_bytes", mib(m.group(2))),
                 ("mem.kv_total_bytes", mib(m.group(3))), ("mem.compute_buffer_bytes", mib(m.group(4)))]),
    # WebLLM's (MLC in the browser) chat module creating its paged KV cache: the start-up step reached
    P("webllm-kv-step", ("Using Paged KVCache",), r"Using Paged KVCache", const(("_phase", "kv_alloc"))),
    # DeepSpeed FastGen (MII) sizing its blocked cache: (layers, blocks, block size, K and V, KV heads, head dim)
    # in 16-bit elements, as it allocates it
    P("ds-kv-shape", ("Allocating KV-cache",), r"Allocating KV-cache \d+ with shape: \((\d+), (\d+), (\d+), (\d+), (\d+), (\d+)\)",
      lambda m: [("mem.kv_total_bytes", 2 * math.prod(int(n) for n in m.groups())), ("mem.kv_tokens", int(m.group(2)) * int(m.group(3))),
                 ("_phase", "kv_alloc")]),
    # ---- capacity statements
    P("c10-alloc-oom", ("failed with OOM",), r"memory allocation failed with OOM on device (\d+)",
      lambda m: [("oom.kind", "torch_oom"), ("oom.device", m.group(1))]),
    P("c10-alloc-numbers", ("while trying to allocate",), r"while trying to allocate (\d+) bytes \(free: (\d+), total: (\d+)\)", _c10_oom),
    # a library's fixed cap on one workspace (Paddle's cuDNN workspace: "The actual workspace size = 104861696, limit = 67108864")
    P("workspace-over-limit", ("workspace size = ",), r"workspace size = (\d+), limit = (\d+)", _buffer_cap),
    P("buffer-over-cap", ("maximum allowed buffer size",),
      r"allocate (\d+) bytes which is (?:greater|larger) than the maximum allowed buffer size of (\d+)", _buffer_cap),
    # WebGPU's per-binding cap (wgpu: "Buffer binding 0 range 524288000 exceeds `max_*_buffer_binding_size` limit 134217728";
    # TVM's WebGPU runtime asking the adapter for more: "requested maxStorageBufferBindingSize exceeds limit. requested=1024MB,
    # limit=128MB"): a device limit on one buffer, as Vulkan's maximum buffer size, whatever memory is free
    P("webgpu-binding-size", ("buffer_binding_size` limit", "maxStorageBufferBindingSize exceeds limit"),
      r"Buffer binding \d+ range (\d+) exceeds `max_\S*buffer_binding_size` limit \d+|"
      r"requested maxStorageBufferBindingSize exceeds limit\. requested=(\d+)MB, limit=\d+MB",
      lambda m: [("oom.kind", "vulkan_max_buffer_size"), ("oom.requested_bytes", int(m.group(1)) if m.group(1) else int(m.group(2)) << 20)]),
    # PyTorch's MPS allocator refusing one buffer past the device's maxBufferLength, the cap not stated ("RuntimeError:
    # Invalid buffer size: 19.38 GiB"; older builds print GB): Metal's cap, which grows with the machine's memory
    P("mps-invalid-buffer-size", ("Invalid buffer size: ",), r"\bInvalid buffer size: " + SIZE,
      lambda m: [("oom.kind", "buffer_over_limit"), ("oom.requested_bytes", to_bytes(m.group(1), m.group(2))), ("gpu.backend", "metal")]),
    # WebGPU's per-buffer maximum as ONNX Runtime Web reports it ("Buffer size (3185049600) exceeds the max buffer size limit
    # (1073741824)"): a device limit on one buffer
    P("webgpu-buffer-size", ("exceeds the max buffer size limit",), r"Buffer size \((\d+)\) exceeds the max buffer size limit \((\d+)\)", _buffer_cap),
    P("metal-buffer-length", ("must not exceed",), r"length (0x[0-9a-fA-F]+|\d+) must not exceed (\d+) MB",
      lambda m: [("oom.kind", "buffer_over_limit"), ("oom.requested_bytes", int(m.group(1), 0)),
                 ("oom.buffer_limit_bytes", int(m.group(2)) << 20)]),
    # a graphics API's cap on one buffer a shader binds, as a WebGPU/Vulkan engine checks it before loading ("Model file
    # (12083 MB) exceeds this GPU's storage buffer binding limit (2048 MB)", "GPU storage buffer binding limit (1024 MB) is too
    # small for the bindless chunk size (1907 MB)"): one buffer over the device's cap, not the card's memory; read at load
    # when the line loads
    P("buffer-binding-limit", ("buffer binding limit",),
      r"\(" + SIZE + r"\) exceeds [^()\n]{0,60}?\bbuffer binding limit \(" + SIZE + r"\)|"
      r"\bbuffer binding limit \(" + SIZE + r"\) is too small for [^()\n]{0,60}?\(" + SIZE + r"\)", _binding_limit),
    # a cap on one message or one allocation, whatever memory is free: gRPC's message size ("grpc: received message larger than
    # max (79782097 vs. 67108864)", "Trying to send message larger than max (...)"; gRPC names it RESOURCE_EXHAUSTED) and
    # PostgreSQL's on one allocation, 1 GiB less a byte ("ERROR:  invalid memory alloc request size 1073774812")
    P("grpc-message-size", ("message larger than max",), r"(?i)\bmessage larger than max \((\d+) vs\.? (\d+)\)",
      lambda m: [*_buffer_cap(m), ("oom.hint", "message_size_cap")]),
    P("postgres-alloc-cap", ("invalid memory alloc request size",), r"\binvalid memory alloc request size (\d+)",
      lambda m: [("oom.kind", "buffer_over_limit"), ("oom.requested_bytes", int(m.group(1))),
                 ("oom.buffer_limit_bytes", POSTGRES_MAX_ALLOC), ("oom.hint", "alloc_size_cap")]),
    # a library's cap of 2^31 on one buffer or one tensor's elements, its sizes' 32-bit integers, whatever memory is free
    # (Leptonica's "Error in pixCreateHeader: requested bytes >= 2^31", MXNet's "Size of tensor you are trying to allocate is
    # larger than 2^31 elements")
    P("int32-size-cap", ("2^31",), r"\brequested bytes >= 2\^31|\blarger than 2\^31 elements\b",
      const(("error.final", "the library caps one buffer or tensor at 2^31 (its sizes are 32-bit integers): a size past "
                            "its limit, not a lack of memory; split the input or lower its resolution"))),
    P("budget-parts", ("less than the sum of",),
      r"available[\w ]*? memory is (" + r"\d[\d,]*(?:\.\d+)?" + r")\s?([KMGT]i?B), which is less than the sum of", _budget_parts),
    # a server's own check of the model against the memory it may use: "Model 'Qwen3.5-9B-8bit' (10.20GB)
    # exceeds max-model-memory (8.00GB)"
    # (not a per-buffer cap: "Model file (12083 MB) exceeds this GPU's storage buffer binding limit (2048 MB)", buffer-binding-limit)
    P("model-over-limit", (") exceeds ", ") is larger than "),
      r"\b[Mm]odel\b[^()\n]{0,160}\((\d[\d,]*(?:\.\d+)?)\s?([KMGT]i?B)\) (?:exceeds|is larger than) (?![^()\n]{0,80}?\bbuffer)"
      r"[^()\n]{0,80}?\((\d[\d,]*(?:\.\d+)?)\s?([KMGT]i?B)\)",
      lambda m: [("oom.kind", "budget_exceeded"), ("mem.weights_bytes", to_bytes(m.group(1), m.group(2))),
                 ("mem.gpu_available_bytes", to_bytes(m.group(3), m.group(4))), ("_phase", "load_weights")]),
    # a distributed runtime's placement finding no device, node or group of them with room for the model (exo's
    # "No cycles found with sufficient memory"): refused before loading, no sizes stated
    P("placement-no-room", ("with sufficient memory", "with enough memory"),
      r"(?i)\bno (?:cycles?|nodes?|devices?|gpus?|workers?|placements?|shards?)\b[\w ]{0,30}? with (?:sufficient|enough) memory\b",
      kind("placement_no_room", ("_phase", "load_weights"))),
    # a cluster scheduler's refusal to place a model, with its own arithmetic (GPUStack: "No suitable workers.", "Unable to
    # find a schedulable worker for the model.", "Cannot find a suitable worker combination"; "The model requires approximately
    # 87.8 GiB of VRAM.", "all GPUs combined need to provide at least 97.56 GiB of total VRAM"; "The largest available worker
    # has 175.95 GiB allocatable VRAM" / "provides 184.0 GiB VRAM"): what it needs against what it found decides whether
    # memory was short ("across 0 GPUs": it saw no card)
    # (its check of GPUs chosen by hand: "Selected GPUs may not have enough resources to run the model.", "with a total VRAM
    # requirement of 771.56 GiB VRAM"; a planner's: "the model does not fit in GPU memory for any parallel configuration")
    P("placement-refused", ("No suitable workers", "schedulable worker", "suitable worker combination", "not have enough resources",
                            "for any parallel configuration"),
      r"\b(?:No suitable workers|Unable to find a schedulable worker|Cannot find a suitable worker combination|"
      r"Selected GPUs may not have enough resources|does not fit in GPU memory for any parallel configuration)\b",
      kind("placement_no_room", ("_phase", "load_weights"))),
    P("placement-required", ("requires approximately", "need to provide at least", "VRAM requirement of"),
      r"\bThe model requires approximately " + SIZE + r"(?: of)? VRAM\b|\bneed to provide at least " + SIZE + r" of total VRAM\b|"
      r"\btotal VRAM requirement of " + SIZE,
      lambda m: [("_max:mem.gpu_planned_bytes", to_bytes(m.group(1) or m.group(3) or m.group(5), m.group(2) or m.group(4) or m.group(6)))]),
    # (and the filters it ran before any arithmetic, one of which left no worker: "Matched 0/1 workers by READY status.",
    # "Matched 0/3 workers by label selector": a worker not ready or not chosen, not one short of memory)
    P("placement-filtered", ("workers by",), r"\bMatched 0/\d+ workers by (?![^.\n]*\b(?:VRAM|RAM|memory)\b)",
      const(("oom.hint", "placement_filtered"))),
    P("placement-available", ("largest available worker", "allocatable VRAM (", "optimal combination"),
      r"\b(?:largest available worker|optimal combination \[[^\]\n]*\]) (?:has|provides) " + SIZE + r" (?:of )?(?:allocatable )?VRAM(?: across (\d+) GPUs)?|"
      r"\bonly has " + SIZE + r" allocatable VRAM \(([\d.]+)%\)", _placement_available),
    # a runtime's own check stating what a part needs against what it has: "inference buffers alone need 9.35 GB but only
    # 6.92 GB is free on the GPU", "Prefill would require ~26.16 GB peak (current 21.79 GB + KV+SDPA 4.37 GB) but metal_cap
    # ceiling is 24.96 GB"; the part the sentence names decides the account
    # (also wrapped after "would require": the sizes on the next lines, read joined)
    P("need-over-available", (" need ", " needs ", " require ", " requires ", " required ", "would require", "would need"),
      # (or a model named by its file: "whisper: model C:\\...\\ggml-large-v3-turbo.bin needs about 1624555275 bytes but only
      # 1297448960 bytes are available")
      r"(?i)^(?:.*?:\s+)?(.{0,60}?|.{0,30}?\bmodel \S{1,240})\s(?:alone\s+)?(?:would\s+)?(?:needs?|requires?|required)\s+(?:about |approximately |at least )?~?" + SIZE
      + r"([^;\n]{0,80}?)\bbut\b[^\n\d]{0,40}?~?" + SIZE,
      _need_over_available),
    # the same check the other way round, a device's free memory first: "[preflight] ERROR: GPU 0 has 7.1 GiB free, but this
    # config needs ~21.7 GiB/card". With no part named, what the whole launch wants was not free before it started: the
    # free-at-start check vLLM makes, made by a launcher
    P("free-below-need", (" free, but ", " free but "),
      r"(?i)\b(?:GPU|device|card)\s?#?\d* has ~?" + SIZE + r" free,? but\b(.{0,40}?)\bneeds? (?:~|about |at least )?" + SIZE,
      _free_below_need),
    # a request refused because it is longer than the KV cache holds, the message naming the cache as the limit
    # ("prompt is too long: 16535 tokens > 8221 maximum (prompt + generation); ... increase the KV cache budget")
    # (anchored on the comparison, not on "KV cache": vLLM's stats line names the cache every few seconds)
    P("request-over-kv", ("tokens > ", "token > ", "tokens exceed", "token exceeds", "tokens is more than", "TOKENS > ", "Tokens > "),
      r"(?i)(\d[\d,]*) tokens? (?:>|exceeds?|is more than) (?:the )?(\d[\d,]*)(?: tokens?)?(?: maximum)?[^\n]{0,120}?\bkv[ -]cache\b",
      lambda m: [("oom.kind", "kv_capacity"), ("oom.kv_capacity_tokens", to_int(m.group(2))), ("mem.prefill_tokens", to_int(m.group(1))),
                 ("_phase", "prefill")] if to_int(m.group(1)) > to_int(m.group(2)) else []),
    # (a refusal that counts what the cache has left at that moment: "Remaining 416192 kvcache tokens, but your prompt requires
    # 524288 new tokens, please request later"): the running requests and the new prompt together outgrow the KV pool
    P("prompt-over-kv-left", ("kvcache tokens, but", "KVCache tokens, but", "kv cache tokens, but", "KV cache tokens, but"),
      r"(?i)\bRemaining (\d[\d,]*) kv ?cache tokens, but (?:your |the )?prompt requires (\d[\d,]*)",
      lambda m: [("oom.kind", "kv_runtime_exhausted"), ("oom.available_tokens", to_int(m.group(1))), ("oom.requested_tokens", to_int(m.group(2))),
                 ("_phase", "prefill")] if to_int(m.group(2)) > to_int(m.group(1)) else []),
    P("setting-over-limit", ("exceeds available", "exceeds the available", "exceeds the maximum"),
      r"\b([a-z_]+) \((\d[\d,]*)\) exceeds (?:the )?(?:available|maximum) ([\w ]+?) \((\d[\d,]*)\)", _setting_over_limit),
    # (the same check cut before its setting, "...exceeds available Mamba cache blocks (95)": the setting it guards is the
    # concurrency, one block for each running sequence)
    P("mamba-blocks-short", ("exceeds available Mamba cache blocks",), r"(?<!\d\) )exceeds available Mamba cache blocks \((\d[\d,]*)\)",
      lambda m: [("oom.kind", "kv_capacity_limit"), ("oom.limited_knob", "max_num_seqs"), ("oom.stated_limit", to_int(m.group(1)))]),
    P("metal-buffer", ("buffer, size =",),
      r"allocated (?:'(\w+)\s*' )?buffer, size =\s*([\d.,]+) Mi?B(?:.*?\(\s*([\d.,]+)\s*/(?:\s*([\d.,]+)\s*\))?)?", _metal_buffer),
    # Vulkan's allocation status by its number (ncnn: "vkAllocateMemory failed -2"): -2 VK_ERROR_OUT_OF_DEVICE_MEMORY,
    # -1 VK_ERROR_OUT_OF_HOST_MEMORY
    P("vk-allocate-status", ("vkAllocateMemory failed",), r"\bvkAllocateMemory failed (-[12])\b",
      lambda m: [("oom.kind", "cuda_error_oom"), ("gpu.backend", "vulkan")] if m.group(1) == "-2"
      else [("oom.kind", "host_alloc_failed"), ("oom.cpu_alloc_failed", True)]),
    # a Windows status (HRESULT) as DirectML, Direct3D or ONNX Runtime print it ("Exception(1) tid(a48c) 80070057 The
    # parameter is incorrect."): E_OUTOFMEMORY (8007000E) is memory; E_INVALIDARG (80070057) and E_NOTIMPL (80004001) are a
    # call the driver or the library refused (the device's own losses, 887A0005-7, are read as a lost device)
    P("windows-hresult", ("8007000E", "8007000e", *_HRESULT), r"\b(?:0x)?(8007000[Ee]|" + "|".join(_HRESULT) + r")\b",
      lambda m: [("oom.kind", "cuda_error_oom"), ("gpu.backend", "directml")] if m.group(1).upper() == "8007000E"
      else [("error.final", f"Windows status {m.group(1)} ({_HRESULT[m.group(1)]}): a call the driver or the library refused, not memory")]),
    # a Windows debugger's note of each C++ exception thrown ("Exception thrown at 0x00007FF... in app.exe: Microsoft C++
    # exception: _com_error at memory location 0x0000006A..."): the memory location is the exception object's address, and
    # a library may catch what it threw; std::bad_alloc is read as memory by the stated-failure reading
    P("msvc-exception-thrown", ("Microsoft C++ exception: ",),
      r"Microsoft C\+\+ exception: (?!std::bad_alloc\b)(\S{1,80}) at memory location 0x[0-9A-Fa-f]+",
      lambda m: [("error.final", f"a C++ exception ({m.group(1)}) thrown in the program, as a Windows debugger reports each one: "
                                 "its memory location is an address, not memory running out")]),
    # TensorRT's allocator reporting the CUDA status by its number ("runtime.cpp (24) - Cuda Error in allocate: 2"; older
    # releases, before it added the words): 2 is cudaErrorMemoryAllocation
    P("trt-cuda-error-2", ("Cuda Error in allocate: 2",), r"\bCuda Error in allocate: 2\b", kind("cuda_error_oom")),
    # Triton's own CUDA memory pool (CNMEM, --cuda-memory-pool-byte-size, 64 MB a GPU by default) too small for a tensor
    # passed between models or a request's input: the server's cap, not the device ("Failed to allocate CUDA memory with
    # byte size 78643200 on GPU 0: CNMEM_STATUS_OUT_OF_MEMORY, falling back to pinned system memory")
    P("triton-cuda-pool", ("CNMEM_STATUS_OUT_OF_MEMORY",),
      r"(?:Failed to allocate CUDA memory with byte size (\d+) on GPU (\d+): )?CNMEM_STATUS_OUT_OF_MEMORY",
      lambda m: [("oom.kind", "allocator_cap"), ("oom.hint", "triton_cuda_pool")]
      + ([("oom.requested_bytes", int(m.group(1))), ("oom.device", m.group(2))] if m.group(1) else [])),
    # Triton's CUDA memory manager failing otherwise ("Failed to finalize CUDA memory manager: CNMEM_STATUS_INVALID_ARGUMENT",
    # on a GPU below the compute capability it supports): no pool could be made, nothing ran out
    P("triton-cuda-pool-status", ("CNMEM_STATUS_",), r"\bCNMEM_STATUS_(?!OUT_OF_MEMORY\b)([A-Z_]+)",
      lambda m: [("error.final", f"Triton's CUDA memory manager failed (CNMEM_STATUS_{m.group(1)}): not out of memory, "
                                 "a GPU or driver it does not support")]),
    # torch_npu's caching allocator noting that it freed its cached blocks to retry a request ("Get a block from the existing
    # pool failed. Try to free cached blocks and reallocate. This error log can be ignored."): the retry that precedes an
    # out-of-memory error when it too fails, which then says so; alone, a notice (not-oom-memory-notice)
    P("npu-pool-retry", ("This error log can be ignored",), r"Try to free cached blocks and reallocate\. This error log can be ignored",
      kind("memory_notice")),
    # Ascend's runtime reporting a task that failed on the device ("EH9999: Inner Error!" under "[Error]: The vector core
    # execution is abnormal."; torch_npu's "NPU warning, error code is 507001" for a task-scheduler fault): a kernel, driver or
    # firmware fault, which its own error code names (the 2070xx codes are the memory ones, and say so)
    P("ascend-device-fault", ("EH9999: Inner Error", "error code is 507"), r"^\W*EH9999: Inner Error!|\bNPU (?:warning|error), error code is (507\d{3})\b",
      lambda m: [("error.final", f"the Ascend runtime reported a fault in a device task{f' (error {m.group(1)})' if m.group(1) else ' (EH9999)'}: "
                                 "a kernel, driver or firmware fault, not memory")]),
    # Ascend's runtime called from a thread with no device context ("NPU error, error code is 107002" over "[Error]: The
    # context is empty.", CANN's "reason=[context pointer null]"): the device was never set in that thread (a streaming
    # generator's worker thread, a callback), however its caller names the call ("allocate:...NPUCachingAllocator.cpp")
    P("ascend-no-context", ("error code is 107002", "context pointer null", "The context is empty"),
      r"\bNPU (?:warning|error), error code is 107002\b|reason=\[context pointer null\]|^\[Error\]: The context is empty\.",
      const(("error.final", "the Ascend runtime has no device context in the calling thread (error 107002, context pointer null): "
                            "the NPU was not set in that thread (torch.npu.set_device there), not memory"))),
    # ONNX Runtime's CUDA call check, its status by number ("CUDA failure 1: invalid argument ; GPU=0 ; ...
    # file=...linear_attention_impl.cu"): 2 out of memory, 700 an illegal address, any other not memory
    P("ort-cuda-failure", ("CUDA failure ",), r"\bCUDA failure (\d+): ([a-z][a-z ]{2,60}?)\s*;",
      lambda m: driver_result(m.group(1), "ONNX Runtime's CUDA call", m.group(2))),
    # ONNX Runtime's BFC arena at its own cap (the CUDA provider's gpu_mem_limit), not the device
    P("ort-arena-cap", ("smaller than requested bytes",), r"Available memory of (\d+) is smaller than requested bytes of (\d+)",
      lambda m: [("oom.kind", "allocator_cap"), ("oom.requested_bytes", int(m.group(2)))]),
    # CubeCL's memory manager (burn's GPU runtimes) with no pool whose pages hold the request: "No memory pool big enough to
    # reserve 262144000 bytes.", "No pool handles allocation of size 411041792": its pools' configured sizes, not the device
    P("cubecl-pool", ("No memory pool big enough", "No pool handles allocation"),
      r"No memory pool big enough to reserve (\d+) bytes|No pool handles allocation of size (\d+)",
      lambda m: [("oom.kind", "allocator_cap"), ("oom.hint", "cubecl_pool"), ("oom.requested_bytes", int(m.group(1) or m.group(2)))]),
    # ExecuTorch's memory allocators (the method's planned and runtime pools, whose sizes the application sets): "Memory
    # allocation failed: 48B requested (adjusted for alignment), 44B available": the pool the program was given, not the device
    P("executorch-pool", ("B requested (adjusted for alignment)",), r"Memory allocation failed: (\d+)B requested \(adjusted for alignment\), (\d+)B available",
      lambda m: [("oom.kind", "allocator_cap"), ("oom.hint", "executorch_pool"), ("oom.requested_bytes", int(m.group(1)))]),
    # (its running total "(used / working set)" in MB, also where a cut paste lost the buffer's name)
    P("metal-working-set-exceeded", ("recommended max working set",),
      r"(?:\(\s*([\d.,]+)\s*/\s*([\d.,]+)\s*\),?\s*)?(?:warning: )?current allocated size is greater than the recommended max working set size",
      lambda m: [("oom.kind", "working_set_exceeded")]
      + ([("mem.gpu_used_bytes", to_bytes(m.group(1), "MiB")), ("mem.gpu_available_bytes", to_bytes(m.group(2), "MiB"))] if m.group(1) else [])),
    # mlx-lm's warning before it generates: the model's bytes against Metal's recommended working set
    # ("[WARNING] Generating with a model that requires 11516 MB which is close to the maximum recommended size of 10922 MB")
    P("mlx-model-near-working-set", ("Generating with a model that requires",),
      r"Generating with a model that requires (\d+) MB which is close(?: to the maximum recommended size of (\d+) MB)?",
      lambda m: [("mem.weights_bytes", int(m.group(1)) << 20), ("oom.hint", "weights_near_working_set")]
      + ([("mem.gpu_available_bytes", int(m.group(2)) << 20)] if m.group(2) else [])),
    # (TensorRT prints the unit once, after both: "Init CUDA: CPU +13, GPU +0, now: CPU 126, GPU 262 (MiB)")
    P("trt-mem-usage", ("[MemUsageChange]",), r"\[MemUsageChange\].*now: CPU (\d+)(?: \(MiB\))?, GPU (\d+) \(MiB\)",
      lambda m: [("mem.gpu_used_bytes", int(m.group(2)) << 20)]),
    # what two of those steps allocated: the engine it deserialized (its weights) and the execution context
    # (the activation workspace sized for the engine's largest batch and tokens)
    P("trt-engine-deserialized", ("in engine deserialization",), r"allocation in engine deserialization: CPU \+\d+, GPU \+(\d+)",
      lambda m: [("mem.weights_bytes", int(m.group(1)) << 20)] if int(m.group(1)) else []),
    P("trt-execution-context", ("for execution context memory",), r"Allocated ([\d.]+) (MiB|GiB) for execution context memory",
      lambda m: [("mem.activation_peak_bytes", to_bytes(m.group(1), m.group(2)))]),
    P("used-before-start", ("initial_memory_usage=",), r"initial_memory_usage=([\d.]+)\s?(GiB|GB|MiB|MB)",
      lambda m: [("mem.initial_usage_bytes", to_bytes(m.group(1), m.group(2)))]),
    # (the name in backticks or in quotes: "The current 'device_map' had weights offloaded to the disk"; older
    # accelerate: "We need an `offload_dir` to dispatch this model", and with no layer on a GPU or in RAM
    # "You are trying to offload the whole model to the disk")
    # (and its loader of offloaded weights refusing to start with neither the weights in RAM nor a folder for them: "Need either a
    # `state_dict` or a `save_folder` containing offloaded weights", or the traceback cut inside that loader's constructor)
    P("accelerate-disk-offload", ("offloaded to the disk", "offloaded to disk", "offload_dir` to dispatch", "offload_dir`to dispatch", "offload the whole model to the disk",
                                  "save_folder` containing offloaded", "offload.py"),
      r"device_map['`]? had weights offloaded to the disk|model submodule will be offloaded to disk"
      r"|need an ['`]?offload_dir['`]? ?to dispatch this model|offload the whole model to the disk"
      r"|save_folder['`]? containing offloaded weights|accelerate[/\\]utils[/\\]offload\.py\", line \d+, in __init__",
      kind("weights_offloaded", ("_phase", "load_weights"))),
    # accelerate's warning that device_map put part of the weights in CPU RAM: they do not fit the GPUs
    # ("... offloaded to the disk and cpu" where RAM did not hold the rest either)
    P("accelerate-cpu-offload", ("offloaded to the cpu", "offloaded to the disk and cpu"),
      r"(?:on the meta device|parameters are on the meta).{0,40}offloaded to the (?:disk and )?cpu",
      const(("oom.hint", "weights_cpu_offloaded"), ("_phase", "load_weights"))),
    # a later .to() on such a model is refused: the error names the placement, not another cause
    P("accelerate-offloaded-move", ("modules offloaded to cpu",), r"can't move a model that has some modules offloaded to cpu",
      const(("oom.hint", "weights_cpu_offloaded"), ("oom.hint", "offloaded_model_moved"), ("_phase", "load_weights"))),
    # accelerate's batch-size search (find_executable_batch_size, under lm-eval's and lighteval's "batch_size auto") halving
    # the batch on each out-of-memory until none is left: the forward ran out of memory even for one sample at its length
    P("batch-search-exhausted", ("No executable batch size found",), r"No executable batch size found, reached zero",
      const(("oom.kind", "torch_oom"), ("oom.hint", "batch_search_exhausted"), ("_phase", "prefill"))),
    # a weight still on the meta device when the forward runs: device_map found no room to place it (what
    # accelerate offloads past the GPUs' max_memory is kept on meta and brought in by its hooks)
    # (or accelerate asked to put such a weight on a GPU: "ValueError: weight is on the meta device, we need a `value` to put in on 0")
    P("meta-tensor-in-forward", ("Tensor on device meta", "out of meta tensor", "is on the meta device"),
      r"Tensor on device meta is not on the expected device|Cannot copy out of meta tensor; no data|"
      r"\bis on the meta device, we need a `value` to put in on \w+",
      kind("weights_on_meta")),
    P("swap-space-exhausted", ("lack of CPU swap space",), r"Aborted due to the lack of CPU swap space", kind("kv_swap_exhausted", ("_phase", "decode"))),
    P("memory-figures", ("_memory=", "kv_budget", "usable_", "VramUsageBytes", "VRAM heap", "overhead="),
      r"(?:_memory|kv_budget|usable_\w+|VramUsageBytes|VRAM heap|overhead)\s*[=:]", _memory_figures),
    # a paged KV cache's page table with no page left for the next token (Levanter's "Out of free pages during allocation"):
    # the pool holds fewer tokens than the sequences in flight need
    # (ggml's graph allocator "out of free blocks" is its own fixed list, not a cache)
    # (a page pool's own failure: shortfin's "CacheAllocationFailure: Failed to allocate 6 pages from `PagePool`")
    # (MLC's and web-llm's paged cache, TVM's "The KV cache is full. No page can be allocated", a phone's paste wrapping it)
    P("kv-pages-exhausted", ("free pages", "free KV", "pages from", "No page can be"),
      r"\b[Oo]ut of free (?:KV )?pages\b|\b[Oo]ut of free KV blocks\b|\bFailed to allocate \d+ pages from `?\w*PagePool\b|"
      r"\bKV cache is full\. No page can be\b",
      lambda m: [("oom.kind", "kv_runtime_exhausted"), ("_phase", "decode")]
      + ([("oom.hint", "context_window_pages")] if m.group(0).startswith("KV") else [])),
    # (its counts beside it: "Required pages: 6, Available pages: 2, Total pages: 2": a pool of a fixed number of pages, set when
    # the model was exported or the server started, not a share of the device's memory)
    P("kv-page-pool-counts", ("Total pages:",), r"Required pages: (\d+), Available pages: (\d+), Total pages: (\d+)",
      const(("oom.hint", "fixed_page_pool"))),
    # (also counted in blocks: "Not enough memory for 800 blocks of KV cache", a vLLM plugin's check)
    P("not-enough-for-kv", ("memory for KV cache", "memory for the KV cache", "blocks of KV cache"),
      r"[Nn]ot enough (?:\w+ )?memory for (?:the )?(?:\d+ blocks of )?KV cache", kind("no_kv_memory", ("_phase", "kv_alloc"))),
    # (the error's first words alone, where a paste cut the figures: "ValueError: Too large swap space.")
    P("too-large-swap", ("Too large swap space",), r"Too large swap space\.(?: ([\d.]+) GiB out of the ([\d.]+) GiB total CPU memory|\s*$)",
      lambda m: [("oom.kind", "host_swap_over_ram")] + ([] if m.group(1) is None else [
          ("knob.swap_space", float(m.group(1))), ("oom.host_required_bytes", to_bytes(m.group(1), "GiB")),
          ("oom.host_available_bytes", to_bytes(m.group(2), "GiB"))])),
    # vLLM's CPU backend checking its KV cache against a NUMA node's free RAM ("Available memory on node 0 (149.11/692.65 GiB)
    # on kv cache allocation is less than requested memory for kv (206.54/207.8 GiB)"); without VLLM_CPU_KVCACHE_SPACE it
    # sizes the cache as the node's memory times the utilization
    P("cpu-kv-over-ram", ("less than requested memory for kv",),
      r"Available memory on node \d+ \(([\d.]+)/([\d.]+) GiB\) on kv cache allocation is less than requested memory for kv \(([\d.]+)/",
      lambda m: [("oom.kind", "cpu_kv_over_ram"), ("oom.host_available_bytes", to_bytes(m.group(1), "GiB")),
                 ("host.ram_total_bytes", to_bytes(m.group(2), "GiB")), ("oom.host_required_bytes", to_bytes(m.group(3), "GiB")),
                 ("_phase", "kv_alloc")]),
    # XLA placing a compiled program in a TPU's HBM: what it needs against what the chip has ("Ran out of memory in memory
    # space hbm. Used 20.44G of 15.75G hbm. Exceeded hbm capacity by 4.70G.")
    # (its compile-time check names itself in later releases: "RESOURCE_EXHAUSTED: CompileTimeHbmOom — Used 94.78G of 94.75G hbm.")
    P("xla-hbm-used", ("memory space hbm", "CompileTimeHbmOom"),
      r"(?:Ran out of memory in memory space hbm\.|\bCompileTimeHbmOom\b\W{0,6}?)\s*Used ([\d.]+)([KMGT]) of ([\d.]+)([KMGT]) hbm",
      lambda m: [("oom.kind", "xla_oom"), ("mem.required_bytes", to_bytes(m.group(1), m.group(2) + "B")),
                 ("oom.gpu_total_bytes", to_bytes(m.group(3), m.group(4) + "B"))]),
    # Qualcomm's QNN HTP backend finalizing a graph its estimate puts over the allocation one graph may have ("graph requires
    # estimated allocation of 2741569 KB, limit is 2097152 KB"): the part of the model compiled as one graph, its weights
    # and buffers, against that limit, found before anything ran
    P("qnn-graph-over-limit", ("graph requires estimated allocation of",), r"graph requires estimated allocation of (\d+) KB, limit is (\d+) KB",
      lambda m: [("oom.kind", "cuda_error_oom"), ("mem.required_bytes", int(m.group(1)) << 10), ("oom.gpu_limit_bytes", int(m.group(2)) << 10)]),
    # AWS Neuron's compiler refusing a program its estimate puts over a NeuronCore's HBM ("[XCG815] Estimated peak HBM usage
    # (22.839451) exceeds 16GB. Neff won't be able to load on chip"): the whole program's need (its shard of the weights, its
    # caches and temporaries) against the core's memory, found before anything ran
    P("neuron-hbm-estimate", ("Estimated peak HBM usage",), r"Estimated peak HBM usage \(([\d.]+)\) exceeds ([\d.]+) ?GB",
      lambda m: [("oom.kind", "xla_oom"), ("mem.required_bytes", to_bytes(m.group(1), "GB")),
                 ("oom.gpu_total_bytes", to_bytes(m.group(2), "GB"))]),
    # the breakdown XLA prints under it ("Total hbm usage >= 30.73G:" / "    program 14.31G" / "    arguments 15.90G"): the
    # arguments are what the program is given (the weights, and the caches or optimizer states passed in), the program's
    # own bytes its temporaries (the activations: "HLO temp" below it)
    P("xla-hbm-arguments", ("arguments",), r"^\s{2,}arguments\s+([\d.]*[1-9][\d.]*)([KMGT])B?\s*$",
      lambda m: [("mem.weights_bytes", to_bytes(m.group(1), m.group(2) + "B"))]),
    P("xla-hbm-program", ("program",), r"^\s{2,}program\s+([\d.]*[1-9][\d.]*)([KMGT])B?\s*$",
      lambda m: [("mem.activation_peak_bytes", to_bytes(m.group(1), m.group(2) + "B"))]),
    # an engine's own check of a host pool against free RAM (SGLang's hierarchical KV cache:
    # "Not enough host memory available. Requesting 40.00 GB but only have 44.87 GB free.")
    P("host-memory-check", ("enough host memory",),
      r"(?i)not enough host memory(?: available)?\.?(?:\s*Requesting ([\d.]+) ?([KMGT]i?B) but only have ([\d.]+) ?([KMGT]i?B) free)?",
      lambda m: [("oom.kind", "host_insufficient")]
      + ([("oom.host_required_bytes", to_bytes(m.group(1), m.group(2))), ("oom.host_available_bytes", to_bytes(m.group(3), m.group(4)))] if m.group(1) else [])
      + ([("oom.hint", "hicache")] if "hierarchical cache" in m.string else [])),
    # a training library's own check of a model against free RAM before it fits one, skipping the model it finds too big
    # (AutoGluon's "Not enough memory to safely train model, roughly requires: 9.425 GB, but only 9.642 GB is available...",
    # "Warning: Model is expected to require 149.58% of available memory...", "Not enough memory to train LightGBM...
    # Skipping this model.")
    P("fit-memory-check", ("Not enough memory to", "of available memory"),
      r"Not enough memory to (?:safely )?train\b(?:[^\n]*?roughly requires: ([\d.]+) ?([KMGT]i?B), but only ([\d.]+) ?([KMGT]i?B) is available)?|"
      r"\bModel is expected to require ([\d.]+)% of available memory",
      lambda m: [("oom.kind", "host_insufficient")]
      + ([("oom.host_required_bytes", to_bytes(m.group(1), m.group(2))), ("oom.host_available_bytes", to_bytes(m.group(3), m.group(4)))]
         if m.group(1) else [])),
    # a launcher's note that the host's RAM was nearly full when its backend died (SwarmUI: "Your system memory usage exceeded
    # 98.2% just before the backend process failed")
    P("backend-died-ram-full", ("just before the backend process failed",),
      r"\bsystem memory usage exceeded ([\d.]+)% just before the backend process failed",
      const(("oom.kind", "host_insufficient"))),
    P("engine-memory-limit", ("exceeds ceiling", "Memory limit exceeded", "memory limit exceeded"),
      r"memory ([\d.]+) ?GB exceeds ceiling ([\d.]+) ?GB|[Mm]emory limit exceeded during (prefill|decode)",
      lambda m: [("oom.kind", "engine_memory_limit")]
      + ([("mem.gpu_used_bytes", to_bytes(m.group(1), "GB")), ("mem.gpu_available_bytes", to_bytes(m.group(2), "GB"))] if m.group(1) else [])
      + ([("_phase", m.group(3))] if m.group(3) else [])),
    P("runtime-alloc-failed", ("Failed to allocate memory for requested buffer",),
      r"Failed to allocate memory for requested buffer of size (\d+)",
      lambda m: [("oom.kind", "runtime_alloc_failed"), ("oom.requested_bytes", int(m.group(1)))]),
    P("during-init", ("during initialization", "Exception during initialization"), r"[Ee]xception during initialization",
      const(("_phase", "load_weights"))),
    P("dequantized", ("dequantizing the model", "dequantize the model"),
      r"(?:default to |will )?dequantiz\w+ the model to (?:bf16|fp16|bfloat16|float16)", const(("oom.hint", "dequantized_weights"))),
    # Ray placing its object store in /tmp for want of /dev/shm at start-up ("The object store is using /tmp instead of
    # /dev/shm because /dev/shm has only 5368709120 bytes available"): a warning that the container's /dev/shm is small
    P("ray-shm-small", ("/dev/shm has only",), r"/dev/shm has only (\d+) bytes available",
      lambda m: [("host.shm_total_bytes", int(m.group(1))), ("oom.hint", "shm_warned_small")]),
    P("loading-modules", ("Loading model modules", "Loading draft modules", "Loading model:"),
      r"Loading (?:model|draft) modules|Loading model: ", const(("_phase", "load_weights"))),
    # an app's report that its model is loaded ("Loaded CLIP model and data in 7.47 seconds", "Model loaded in 12.3s"): what
    # follows runs on the input
    P("loaded-named-model", ("Loaded ", "loaded in "),
      r"\bLoaded (?:the )?(?:[A-Za-z][\w-]* ){0,2}model\b.{0,60}?\bin [\d.]+ ?(?:s|sec|seconds)\b|\b[Mm]odel loaded in [\d.]+ ?(?:s|sec|seconds)\b",
      const(("_phase", "forward"))),
    # Kaldi's decoders (Vosk's models) reading their model files ("LOG (VoskAPI:ReadDataFiles():model.cc:238) Loading i-vector
    # extractor from model/ivector/final.ie", "... Loading HCLG from model/graph/HCLG.fst"): a load into host RAM, the whole
    # graph and language model, unless the build selected a GPU (cu-device.cc)
    P("kaldi-model-files", ("ReadDataFiles():",), r"ReadDataFiles\(\):(?:src/)?model\.cc:\d+\) Loading ",
      const(("_phase", "load_weights"), ("oom.hint", "runtime_on_cpu"))),
    P("kaldi-gpu", ("cu-device.cc:",), r"\bcu-device\.cc:\d+\)", const(("oom.hint", "runtime_on_gpu"))),
    # ONNX Runtime given the CPU alone ("Setting execution providers to ['CPUExecutionProvider']"): its sessions hold the
    # model and every buffer in host RAM
    P("ort-cpu-only", ("['CPUExecutionProvider']",), r"\[\s*'CPUExecutionProvider'\s*\]", const(("oom.hint", "runtime_on_cpu"))),
    P("frame-model-init", ("/models/", "model_executor", "in create_weights"),
      # (vLLM's model_executor, TGI's text_generation_server, SGLang's srt: a model's layers built with their weights;
      # a quantization method's create_weights allocates a layer's parameters, wherever the path is cut)
      r"(?:model_executor|text_generation_server|srt)/(?:models|layers)/[\w/]+\.py\", line \d+, in __init__|"
      r"\.py\", line \d+, in create_weights\b", const(("_phase", "load_weights"))),
    # an app's model-loading call relaying the failure ('{"detail":"failed to load: CUDA out of memory. ...'): the load,
    # whatever the server had done before
    P("load-call-failed-oom", ("ailed to load: ", "ailed to load model: "),
      r"\b[Ff]ailed to load(?: model)?: (?=.{0,40}(?:out of memory|OutOfMemory|OOM\b))", const(("_phase", "load_weights"))),
    # a module being constructed allocates its parameters (torch.nn layers, a transformers model's __init__), and a
    # checkpoint being unpickled or memory-mapped is read: frames of the load, wherever the traceback is cut
    # (a reference implementation's own model file, "llama/model.py", line 211, in __init__", and the code line building
    # the model, "model = Transformer(model_args)")
    P("frame-module-init", ("nn/modules/", "nn\\modules\\", "modeling_", "model.py", "model = "),
      r"(?:nn[/\\]modules[/\\]\w+|modeling_\w+|[/\\]model)\.py\", line \d+, in __init__|^\s*model = \w+\((?:model_)?(?:args|config|params)\)\s*$",
      const(("_phase", "load_weights"))),
    # (torch's reader puts every tensor of a pickled checkpoint in host RAM first, and moves it to a GPU only after)
    # (or an app announcing the pickled file it reads: "Loading J:/ChatRWKV/RWKV-4-Pile-14B-20230313-ctx8192-test1050.pth ...",
    # "INFO:Loading RWKV-4-Raven-14B-v6-EngChnJpn-20230401-ctx4096.pth...")
    P("checkpoint-file-load", (".pt", ".ckpt"),
      r"\bLoading (?:model |checkpoint )?(?:from )?['\"]?\S+\.(?:pth|pt|ckpt)['\"]?\s*(?:\.\.\.|…)?\s*$",
      const(("_phase", "load_weights"), ("oom.hint", "checkpoint_read_on_host"))),
    # early ggml programs announce the one host buffer they malloc for the whole model ("llama_model_load: ggml ctx size =
    # 25631.50 MB", "mem required  = 5809.78 MB (+ 2052.00 MB per state)") and do not check that it came back
    P("host-context-size", ("ggml ctx size", "mem required"), r"\b(?:ggml ctx size|mem required)\s*=\s*([\d.]+)\s*([KMG])i?B\b",
      lambda m: [("_host_alloc_announced", to_bytes(m.group(1), m.group(2)))]),
    P("frame-checkpoint-read", ("serialization.py", "safetensors"),
      r"torch[/\\]serialization\.py\", line \d+, in (?:load|_load|persistent_load|load_tensor)\b|safetensors[/\\]torch\.py\", line \d+, in load_file",
      lambda m: [("_phase", "load_weights")] + ([("oom.hint", "checkpoint_read_on_host")] if "serialization" in m.group(0) else [])),
    # (vLLM's and SGLang's repacking of the loaded weights for their kernels: still the load)
    P("frame-after-loading", ("process_weights_after_loading",), r"\bprocess_weights_after_loading\b", const(("_phase", "load_weights"))),
    P("frame-allocator-warmup", ("caching_allocator_warmup",), r"caching_allocator_warmup",
      const(("oom.hint", "allocator_warmup"), ("_phase", "load_weights"))),
    # bitsandbytes quantizing while the checkpoint loads: the load phase, and the quantization in use
    # (not its dequantize_4bit, which a 4-bit layer's forward calls on every step)
    P("frame-quantize-on-load", ("Params4bit", "quantize_4bit", "Int8Params"),
      r"Params4bit|(?<!de)quantize_4bit\(|Int8Params",
      lambda m: [("_phase", "load_weights"), ("knob.quantization", "bnb-8bit" if "Int8" in m.group(0) else "bnb-4bit")]),
    # a line that names the card in one of the forms runtimes and launchers print (Ollama's "inference compute ...
    # name=\"NVIDIA A40\" total=\"44.3 GiB\"", llama.cpp's "using device CUDA0 (NVIDIA GeForce RTX 4090)", nvidia-smi -L's
    # "GPU 0: NVIDIA A100-SXM4-80GB (UUID: ...)", a launcher's "GPU: NVIDIA GeForce RTX 3080 Ti Laptop GPU (SM86, 16384 MB
    # VRAM)"): its name, and the total where the line prints one
    P("card-named", ('msg="inference compute"', "using device ", "GPU 0: ", "GPU: ", "GPU name", "found device", "picking default device",
                     "Marketing Name:"),
      r'msg="inference compute"|using device \w+ \(|\bGPU \d+: |\bGPU\s*:\s+[A-Z]|GPU name|found device|picking default device|Marketing Name:',
      _card_named),
    # an nvidia-smi table pasted into the log: each card's memory, "|  15514MiB / 16130MiB |"
    P("nvidia-smi-memory", ("MiB /",), r"\|\s*\d+MiB\s*/\s*(\d+)MiB\s*\|", lambda m: [("gpu.total_bytes", int(m.group(1)) << 20)]),
    # nvtop's memory bar, "MEM[|||||||||79.020Gi/80.000Gi]": the card's size the same way
    P("nvtop-memory", ("MEM[",), r"\bMEM\[[|\s]*[\d.]+[KMGT]i?/([\d.]+)([KMGT])i?\]", lambda m: [("gpu.total_bytes", to_bytes(m.group(1), m.group(2)))]),
    # a device whose GPU shares the host's RAM: Jetson (Tegra, L4T), phones' Adreno (KGSL) and Mali GPUs;
    # a host kill or refusal there is the model not fitting the one pool
    # (and Apple silicon, as ggml's Metal backend states it, "hasUnifiedMemory = true", or Ollama's scheduler placing layers
    # "offload to metal")
    P("unified-memory-device", ("tegra", "Tegra", "Jetson", "jetson", "L4T", "Adreno", "KGSL", "kgsl", "Mali-", "nvgpu", "hasUnifiedMemory",
                                'msg="offload to metal"'),
      r"(?i)\btegra\b|\bjetson\b|\bL4T\b|Adreno|\bkgsl\b|\bMali-[GT]\d+|\bnvgpu\b|hasUnifiedMemory\s*=\s*true|msg=\"offload to metal\"",
      const(("oom.hint", "unified_memory"))),
    # the kernel driver's resource manager could not get (system) memory: on unified-memory
    # machines (GB10, Jetson, GH200's C2C) the same pool as the host's RAM
    P("nvrm-no-memory", ("NV_ERR_NO_MEMORY", "NVRM: "), r"NV_ERR_NO_MEMORY|NVRM: \w+: Check failed: Out of memory", kind("driver_no_memory")),
    # a load guardrail whose own estimate came out as no number: its arithmetic failed, not the memory
    P("estimate-not-a-number", ("NaN undefined", "approximately NaN"), r"requires approximately NaN\b", kind("estimator_bug")),
    # a fit step's layer count below zero, printed unsigned ("common_params_fit_impl: id=2, n_layer=4294966816"): its
    # arithmetic wrapped, and the device it charges for it is no measure of memory
    P("fit-layers-wrapped", ("n_layer=",), r"\bn_layer=(\d{10,})\b",
      lambda m: [("oom.kind", "estimator_bug")] if int(m.group(1)) >= (1 << 32) - (1 << 16) else []),
    P("frame-wake-up", ("wake_up",), r"\bwake_up\(\)|in wake_up\b", const(("oom.hint", "sleep_wake"))),
    # SGLang's (and verl's) torch_memory_saver re-creating what it paused: the same as vLLM's wake_up
    # (or its Python entry point's frame: 'File ".../torch_memory_saver/entrypoint.py", line 169 in resume')
    P("memory-saver-resume", ("torch_memory_saver",),
      r"\[torch_memory_saver\.cpp\].*\bfunc=resume\b|torch_memory_saver[/\\][\w/\\]*\.py\"?,? line \d+,? in resume\b",
      const(("oom.hint", "sleep_wake"))),
    # its driver calls' status ("CUresult error  result=1 ... func=resume"): 2 is CUDA_ERROR_OUT_OF_MEMORY, any other
    # a misuse of the driver API (an invalid value or address), which no memory setting moves
    P("memory-saver-status", ("CUresult error",), r"\[torch_memory_saver\.cpp\] CUresult error\s+result=(\d+)",
      lambda m: driver_result(m.group(1), "torch_memory_saver: the CUDA driver")),
    # a runtime's own report of a failed driver allocation, by its status number ("cuMemAlloc_v2 failed: status 2, requested
    # 4683632640 bytes (device reports 4280.2 MB free / 95.0 GB total)"): 2 is out of memory, with the request and the device's
    # free and total beside it
    P("driver-alloc-status", ("cuMemAlloc failed: status", "cuMemAlloc_v2 failed: status", "cuMemAllocAsync failed: status"),
      r"\bcuMemAlloc(?:_v2|Async)? failed: status (\d+)(?:, requested (\d+) bytes)?"
      r"(?: \(device reports ([\d.]+) ?([KMGT]i?B) free / ([\d.]+) ?([KMGT]i?B) total\))?",
      lambda m: [*driver_result(m.group(1), "the CUDA driver's cuMemAlloc")]
      + ([("oom.requested_bytes", int(m.group(2)))] if m.group(2) and m.group(1) == "2" else [])
      + ([("oom.gpu_free_bytes", to_bytes(m.group(3), m.group(4))), ("oom.gpu_total_bytes", to_bytes(m.group(5), m.group(6)))]
         if m.group(3) and m.group(1) == "2" else [])),
    # DeepGEMM (vLLM's and SGLang's FP8 GEMMs) setting up a kernel's tensor-memory-accelerator descriptor: its status
    # after the words is the driver's ("Failed to initialize the TMA descriptor 700": an illegal address)
    P("tma-descriptor", ("Failed to initialize the TMA descriptor",), r"Failed to initialize the TMA descriptor (\d+)",
      lambda m: driver_result(m.group(1), "DeepGEMM's TMA descriptor set-up")),
    # ---- look-alikes: errors that mention memory (or stop a start-up) but are no lack of it
    # (sgl-kernel prints the error first, then the file and line alone: an out-of-memory there is read by its own line)
    P("custom-all-reduce", ("custom_all_reduce",), r"custom_all_reduce\.cuh:\d+(?: '[^']+'|: CUDA error: (?!out of memory)|\s*$)",
      kind("comm_error", ("oom.hint", "custom_all_reduce"))),
    # TensorRT-LLM's GEMM runners (also inside SGLang's and vLLM's kernels) failing a launch: a kernel or tactic for the
    # shape or architecture, which SGLang then reports as a failed CUDA graph capture
    P("gemm-run-failed", ("Error occurred when running GEMM",), r"Error occurred when running GEMM!?(?: \(numBatches: (\d+), GemmMNK: (\d+) (\d+) (\d+))?",
      lambda m: [("error.final", "a GEMM kernel failed to run" + (f" ({m.group(1)} batches of {m.group(2)}x{m.group(3)}x{m.group(4)})" if m.group(1) else "")
                  + ": its kernel or tactic for this shape or GPU, not memory")]),
    # NVSHMEM's team table (a fixed count, NVSHMEM_MAX_TEAMS), reported with its out-of-memory status
    P("nvshmem-teams", ("No more teams available",), r"No more teams available \(max = (\d+)\)",
      lambda m: [("error.final", f"NVSHMEM ran out of teams (max = {m.group(1)}): a fixed table, raised with NVSHMEM_MAX_TEAMS; "
                                 "its out-of-memory status is not a lack of memory")]),
    # an RDMA transfer engine (Mooncake, NIXL) whose network card could not register the KV buffer: GPUDirect RDMA,
    # the driver or the engine's version, not a lack of memory
    # (Ascend's direct transport: "Register mem ret:103900." after "AscendDirectTransport register mem addr:...")
    # (UCX's own report of the refusal, "ibv_reg_mr(address=0xa02000000, length=2097152, access=0xf) failed: Bad address"; a
    # transfer from a buffer never registered, Mooncake's "Memory region not registered by any active device(s)"; NVSHMEM's
    # IBGDA transport finding no card that can map its buffer, "device mlx5_0 cannot allocate buffer on the specified memory type")
    P("rdma-registration", ("memory registration failed", "Failed to register memory", "Register mem ret:", "ibv_reg_mr(",
                            "Memory region not registered", "on the specified memory type"),
      r"\b(Mooncake|NIXL|nixl|RDMA|rdma)\b.{0,40}memory registration failed|Failed to register memory(?: region)?\b.{0,80}\b(?:Bad address|EFAULT|ibv_reg_mr)|"
      r"\bRegister mem ret:\s*[1-9]\d*|\bibv_reg_mr\([^)]{0,120}\) failed: Bad address|\bMemory region not registered by any active device|"
      r"\bcannot allocate buffer on the specified memory type",
      lambda m: [("error.final", f"{m.group(0).strip()}: the network card could not register the buffer for RDMA "
                                 "(GPUDirect RDMA, the driver or the transfer engine's version), not a lack of memory")]),
    # a memory setting the run refuses ("AssertionError: Expandable segments are not compatible with memory pool": vLLM's
    # sleep-mode pool under PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True): the setting is the fault, not a lack of memory
    P("expandable-segments-conflict", ("xpandable segments", "xpandable_segments"),
      # (or the assertion itself, quoted as it fails: assert "expandable_segments:True" not in conf)
      r"(?i)expandable[ _]segments (?:are |is )?not (?:compatible|supported) with\b|\bassert \W?expandable_segments:True\W? not in\b",
      const(("oom.hint", "expandable_segments_conflict"),
            ("error.final", "the run refuses the allocator's expandable_segments:True (a memory pool that cannot use it): a setting, "
                            "not a lack of memory"))),
    # Metal's API validation: "-[_MTLCommandBuffer addCompletedHandler:]:1011: failed assertion `Completed handler provided
    # after commit call'": a misuse of the API by the engine, not a lack of memory (that is kIOGPUCommandBufferCallbackErrorOutOfMemory)
    P("metal-api-assertion", ("failed assertion `",), r"-?\[_?MTL\w+ [\w:]+\]:\d+: failed assertion `([^`']{1,200})'",
      lambda m: [] if MEMORY_WORDS.search(m.group(1)) else [("error.final", f"Metal's API check failed ({m.group(1)}): the engine misused the API, not memory")]),
    # Metal Performance Shaders checking a buffer against the array's shape ("failed assertion `[MPSNDArray,
    # initWithBuffer:descriptor:] Error: buffer is not large enough. Must be 201452 bytes"): a kernel given a buffer
    # smaller than its shape needs, a shape bug in the op, not a lack of memory
    P("mps-buffer-too-small", ("buffer is not large enough",), r"\[MPS\w+,? [\w:]+\] Error: buffer is not large enough\.(?: Must be \d+ bytes)?",
      lambda m: [("error.final", f"{m.group(0)}: Metal's shaders were given a buffer smaller than the array's shape, a bug "
                                 "in the op (often fixed in a later PyTorch or macOS), not a lack of memory")]),
    # MLX finding no compiled Metal kernels ("MLX error: Failed to load the default metallib. library not found"): a
    # packaging or install fault, which fails the first computation however much memory is free
    P("mlx-metallib-missing", ("default metallib",), r"Failed to load the default metallib\b[^\n]{0,80}",
      lambda m: [("error.final", f"{m.group(0).strip()}: MLX's Metal kernels are missing from the install, not a lack of memory")]),
    P("input-over-batch", ("unable to fit entire input in a batch",), r"unable to fit entire input in a batch", kind("config_max_len")),
    # a sequence longer than the KV cache manager was built for, refused before any allocation: TensorRT-LLM's "The max KV
    # cache length of input sequences (1500) exceeds the KV cache manager's maximum supported length (1024)"
    P("kv-manager-length", ("maximum supported length",),
      r"KV cache length of input sequences \((\d+)\) exceeds the KV cache manager's maximum supported length \((\d+)\)",
      lambda m: [("oom.kind", "request_over_context"), ("mem.prefill_tokens", int(m.group(1))), ("knob.max_model_len", int(m.group(2)))]),
    # a request longer than the context the server was started with, refused (or cut) before any allocation: llama-server's
    # "request (68885 tokens) exceeds the available context size (65536 tokens)", the OpenAI-style "This model's maximum
    # context length is 8192 tokens. However, you requested 8204 tokens", LM Studio's "the model is loaded with context
    # length of only 7866 tokens", Ollama's "truncating input prompt" limit=2048 prompt=5065, vLLM's "'max_tokens' or
    # 'max_completion_tokens' is too large: 8192. This model's maximum context length is 8192 tokens and your request has 1210
    # input tokens", TensorRT-LLM's "Input length (6973) + max new tokens (4095) + draft tokens (0) must be less than max
    # sequence length (8192)", vLLM's "The decoder prompt (length 163270) is longer than the maximum model length of 128000",
    # SGLang's "The input (9000 tokens) is longer than the model's context length (8192 tokens)", llama-cpp-python's "Prompt
    # exceeds n_ctx: 2892 > 2048" and "Requested tokens (5000) exceed context window of 4096", MemGPT's "Request exceeds maximum
    # context length (8465 > 8192 tokens)"; and transformers' generate()
    # checking the prompt against its own max_length, raised ("ValueError: Input length of input_ids is 1024, but `max_length` is
    # set to 1024"; later releases only warn and go on), a generation setting, not the model's context
    P("request-over-context", ("exceeds the available context size", "maximum context length is", "loaded with context length of only",
                               "truncating input prompt", "exceed_context_size_error", "must be less than max sequence length",
                               "longer than the maximum model length", "longer than the model's context length", "Prompt exceeds n_ctx",
                               "exceed context window of", "Input length of input_ids is", "exceeds maximum context length (",
                               "is greater than max_seq_len", "must have less than", "input length exceeds the context length",
                               "exceeds cache size"),
      r"request (?:\((\d+) tokens\) )?exceeds the available context size(?: \((\d+) tokens\))?|"
      r"maximum context length is (\d+) tokens\. However, you requested (\d+) tokens|"
      r"keep the first (\d+) tokens when context the overflows\. However, the model is loaded with context length of only (\d+) tokens|"
      r"msg=\"truncating input prompt\" limit=(\d+) prompt=(\d+)|\"type\":\s*\"exceed_context_size_error\"|"
      r"is too large: (\d+)\. This model's maximum context length is (\d+) tokens and your request has (\d+) input tokens|"
      r"Input length \((\d+)\) \+ max new tokens \((\d+)\)(?: \+ draft tokens \((\d+)\))? must be less than max sequence length \((\d+)\)|"
      r"prompt \(length (\d+)\) is longer than the maximum model length of (\d+)|"
      r"The input \((\d+) tokens\) is longer than the model's context length \((\d+) tokens\)|"
      r"Prompt exceeds n_ctx: (\d+) > (\d+)|Requested tokens \((\d+)\) exceed context window of (\d+)|"
      r"ValueError: Input length of input_ids is \**(\d+)\**, but `?max_length`? is set to \d+|"
      r"exceeds maximum context length \((\d+) > (\d+) tokens\)|"
      # (TabbyAPI: "Request length 71599 + 2048 is greater than max_seq_len 65536", the prompt and the tokens asked for)
      r"Request length (\d+) \+ (\d+) is greater than max_seq_len (\d+)|"
      # (text-embeddings-inference's input validation: "`inputs` must have less than 512 tokens. Given: 551")
      r"`?inputs`? must have less than (\d+) tokens\. Given: (\d+)|"
      # (Ollama's embedding runner, no figures: "Failed to create new sequence: the input length exceeds the context length")
      r"\bthe input length exceeds the context length\b|"
      # (vLLM V0's engine: "Prompt length of 4178 is longer than the maximum model length of 4096"; ExLlamaV2's forward, no
      # figures: "Total sequence length exceeds cache size in model.forward")
      r"Prompt length of (\d+) is longer than the maximum model length of (\d+)|\bTotal sequence length exceeds cache size\b",
      _request_over_context),
    # a prompt longer than the context window is refused before any allocation (GPT4All's ggml backends)
    P("prompt-over-context", ("exceeds the context window",), r"prompt size exceeds the context window size", kind("config_max_len")),
    # a kernel's per-block on-chip limits ("Shared memory exceeds 96KB: 146944 bytes"), not device memory
    # (ptxas refusing a JIT-built kernel: "Entry function '...' uses too much shared data (0xc980 bytes, 0xc000 max)")
    P("kernel-resource", ("out of resource", "OutOfResources", "too many resources requested", "Shared memory exceeds", "shared memory exceeds",
                          "available shared memory", "too much shared data", "not enough shared memory", "bytes of shared memory; exceeded the limit",
                          "Shared memory requested exceeds device resources"),
      # (Inductor's template kernel names itself where Triton says "shared memory": "out of resource: triton_tem_fused_0
      # Required: 107008 Hardware limit:101376"; the limit is per block, a few hundred KiB at most)
      r"out of resource: (?:shared memory|registers|\w+,? Required: \d{1,7},? Hardware limit: ?\d{1,7}\b)|OutOfResources|too many resources requested for launch|uses too much shared data \(0x[0-9a-f]+ bytes|"
      # (vLLM's paged attention: "required shared memory 264252.0 > available shared memory 101376")
      r"[Ss]hared memory exceeds \d+\s?KB|required shared memory [\d.]+ > available shared memory|"
      # (IREE's compiler: "function 'prefill_bs4$async_dispatch_16_matmul...' uses 66560 bytes of shared memory; exceeded the
      # limit of 65536 bytes")
      r"uses \d+ bytes of shared memory; exceeded the limit of \d+ bytes|"
      # (TensorRT-LLM's masked attention kernel: "Sequence Length is too long for the MMHA kernel (not enough shared memory)")
      r"\(not enough shared memory\)|"
      # (XLA's GPU runtime launching a custom kernel, a Pallas or Triton one: "INTERNAL: Shared memory requested exceeds device
      # resources.")
      r"\bShared memory requested exceeds device resources\b",
      kind("kernel_resource")),
    # (torch_npu's ACL graph capture failing to begin, "AclmdlRICaptureBegin(capture_stream_, ...)": CANN then prints
    # "Failed to apply for memory", but what ran out is the streams and tasks a captured graph takes, not device memory)
    P("capture-illegal-op", ("stream is capturing", "StreamCapture", "during CUDA graph capture", "cudaStreamCaptureStatusActive",
                             "AclmdlRICaptureBegin", "error during capture", "capture mode does not support", "in a capturing stream",
                             "ErrorCapturedEvent"),
      r"operation not permitted when stream is capturing|cudaErrorStreamCapture\w+|during CUDA graph capture|cudaStreamCaptureStatusActive|"
      # (Ascend's runtime refusing a synchronous copy inside a captured graph, under "Memory copy sync failed":
      # "rtMemcpy:ErrCode=107030, desc=[the current capture mode does not support this operation")
      r"the current capture mode does not support this operation|"
      # (cudaErrorStreamCaptureInvalidated's own words: "operation failed due to a previous error during capture")
      r"AclmdlRICaptureBegin\(|operation failed due to a previous error during capture|"
      # (an event recorded while a graph was captured, used outside it: "operation not permitted on an event last recorded in
      # a capturing stream", cudaErrorCapturedEvent / hipErrorCapturedEvent)
      r"last recorded in a capturing stream|\b(?:cuda|hip)ErrorCapturedEvent\b",
      kind("capture_error")),
    # a resource other than memory that a runtime could not allocate, named in brackets ("Failed to allocate resource[qp]
    # ... Reason: Memory resources are exhausted": an RDMA queue pair HCCL sets its transport up with)
    # (the same test of the bracketed name the stated-failure readings apply, _OTHER_RESOURCE)
    # (or named after a space: "Failed to allocate resource qp with info ...")
    P("other-resource", ("allocate resource[", "allocate resource "), r"[Ff]ailed to (?i:" + _OTHER_RESOURCE.pattern + ")",
      lambda m: [("error.final", f"a {m.group(1) or m.group(2)} resource could not be allocated (the transport or the driver): not device memory"),
                 ("oom.hint", "other_resource")]),
    # (and the NCCL watchdog's thread in a native backtrace, "libtorch_cuda.so(+0xe427c9) [0x...]
    # c10d::ProcessGroupNCCL::ncclCommWatchdog()": the watchdog ended the process on a failed or stuck collective)
    P("comm-error", ("Gloo", "DistNetworkError", "ncclRemoteError", "Watchdog caught collective", "connectFullMesh", "gloo/transport",
                     "Heartbeat monitor timed out", "watchdog got stuck", "ncclCommWatchdog"),
      r"Gloo connectFullMesh failed|DistNetworkError|ncclRemoteError|Watchdog caught collective operation timeout|"
      r"gloo/transport/\w+/\w+\.cc:\d+\] (?:Connection|Timed out|Read error|Socket|Connect)|Heartbeat monitor timed out|"
      r"watchdog got stuck for \d+ seconds|\] c10d::ProcessGroupNCCL::ncclCommWatchdog\(\)",
      kind("comm_error")),
    # (and Triton's call of ptxas failing on a kernel it generated: "subprocess.CalledProcessError: Command
    # '['.../bin/ptxas', ..., '--gpu-name=sm_120a', ...]' returned non-zero exit status 255", newer Triton's PTXASError)
    P("compile-error", ("BackendCompilerFailed", "InductorError", "torch._inductor.exc", "torch._dynamo.exc", "ptxas", "PTXASError"),
      r"BackendCompilerFailed|InductorError|torch\._inductor\.exc\.\w+|torch\._dynamo\.exc\.(?!BackendCompilerFailed)\w+Error|"
      r"Command '\[[^\]\n]{0,300}/ptxas'[^\]\n]{0,600}\]' returned non-zero exit status \d+|\bPTXASError\b",
      kind("compile_error")),
    # (the container runtime's own GPU set-up failing, whatever CUDA error it quotes: before any workload ran)
    # (NVML that cannot reach the driver, "Failed to initialize NVML: Unknown Error": a container that lost its GPU
    # devices after a driver reload or a cgroup change, whatever the program then says about the card's memory)
    P("driver-mismatch", ("version mismatch", "forward compatibility", "no CUDA-capable device", "NoBinaryForGpu",
                          "nvidia-container-cli: initialization error", "Failed to initialize NVML"),
      r"Driver/library version mismatch|forward compatibility was attempted on non supported HW|no CUDA-capable device is detected|"
      r"hipErrorNoBinaryForGpu|nvidia-container-cli: initialization error|Failed to initialize NVML: Unknown Error", kind("broken_install")),
    # a driver or firmware the runtime refuses: "failed to initialize MUSA: system has unsupported display driver / musa driver
    # combination", an NPU's "NPU firmware version on /dev/accel/accel0 is incompatible", "amdxdna version 0.1 is incompatible"
    P("driver-refused", ("unsupported display driver", "is incompatible"),
      r"system has unsupported display driver|\b(?:driver|firmware)\b[^\n]{0,40}\bversion (?:[\d.]+ |on \S+ )?is incompatible\b|"
      r"\b\w+ version [\d.]+ is incompatible\b",
      kind("broken_install", ("oom.hint", "driver_refused"))),
    P("invalid-device-function", ("invalid device function",), r"invalid device function", kind("no_kernel_image")),
    # a kernel library's own launch check naming its source file ("CUDA error (.../flash_fwd_launch_template.h:188): invalid
    # argument"): the launch was refused, nothing ran out
    P("cuda-launch-check", ("CUDA error (",), r"CUDA error \([^()]*:\d+\): (?!out of memory)(\w[\w ]{2,80})",
      lambda m: [("error.final", f"CUDA error: {m.group(1).strip()} (a kernel launch was refused), not out of memory")]),
    # ggml's VMM pool failing: the CUDA call that reserves its address range, or any VMM call of a HIP
    # build (ggml's HIP builds name no call: "HipVMM Failure: out of memory"; ROCm's VMM is off by default since)
    P("va-reservation", ("cuMemAddressReserve", "HipVMM Failure"), r"cuMemAddressReserve|HipVMM Failure", kind("va_reservation")),
    # ggml's own pools, sized once by the library: a context's object pool, a graph allocator's measured buffer,
    # its fixed list of free blocks ("out of free blocks")
    # (older ggml, as whisper.cpp printed it: "ggml_new_tensor_impl: not enough space in the scratch memory", no figures)
    P("ggml-fixed-pool", ("not enough space in the context's memory pool", "not enough space in the scratch memory",
                          "not enough space in the buffer", "out of free blocks"),
      r"not enough space in the (?:context's|scratch) memory pool(?: \(needed (\d+), available (\d+)\))?|"
      r"not enough space in the scratch memory(?! pool)|"
      # (or only the graph allocator's assert, its figures line not pasted: 'ggml-alloc.c:148: !"not enough space in the buffer"')
      r"(?:tallocr|allocr)_alloc: not enough space in the buffer|not enough space in the buffer \(needed \d+, largest block available \d+\)|"
      r"ggml-alloc\.c:\d+: !\"not enough space in the buffer\"|"
      r"n_free_blocks < MAX_FREE_BLOCKS && \"out of free blocks\"", _ggml_pool),
    # a client told that the server validated and refused its request (HTTP 400/413/422, with the
    # server's reason): the server is up, nothing ran out. A server's access-log "400" line is routine.
    P("request-rejected", ("Error code: 4",), r"Error code: 4(?:00|13|22) - \{", kind("request_rejected")),
    # vLLM validating a multimodal request against the encoder cache it sized at start-up (an HTTP 400)
    P("encoder-cache-request", ("pre-allocated encoder cache size",), r"exceeds the pre-allocated encoder cache size",
      kind("request_rejected", ("oom.hint", "multimodal"))),
    # one array over the API's size field (MPS: 2**32 bytes per NDArray), not a full device
    # (TensorRT: one tensor's element count over int32, "tensor volume exceeds 2147483647")
    P("alloc-size-limit", ("larger than 4GB", "bigger than 4GB", "total bytes of NDArray >", "volume exceeds 2147483647"),
      r"(?i)can ?not allocate memory block with size (?:larger|bigger) than (4) ?GB|allocation (?:larger|bigger) than (4) ?GB|"
      r"total bytes of NDArray > 2\*\*32|tensor volume exceeds 2147483647",
      lambda m: [("oom.kind", "alloc_size_limit")] + ([("oom.buffer_limit_bytes", 4 << 30)] if m.group(1) or m.group(2) else [])),
    # Intel's SYCL runtime (oneAPI's plugin interface, later the unified runtime) on an Arc/Flex/Max GPU: device
    # memory running out comes back as "out of resources", and often as "out of host memory" too
    P("sycl-native-oom", ("PI_ERROR_OUT_OF_", "UR_RESULT_ERROR_OUT_OF_"),
      r"\b(?:PI_ERROR|UR_RESULT_ERROR)_OUT_OF_(?:RESOURCES|HOST_MEMORY|DEVICE_MEMORY)\b",
      const(("oom.kind", "cuda_error_oom"), ("gpu.backend", "sycl"))),
    # (its other statuses, and Level Zero's, name a cause that is not a lack of memory: UR_RESULT_ERROR_INVALID_VALUE)
    P("ur-status", ("UR_RESULT_ERROR_", "ZE_RESULT_ERROR_"), r"\b(?:UR|ZE)_RESULT_ERROR_(?!OUT_OF_(?:DEVICE_|HOST_)?(?:MEMORY|RESOURCES))\w+",
      lambda m: [("error.final", f"the GPU runtime returned {m.group(0)}: not out of memory")]),
    # Tenstorrent's allocator, per bank of device DRAM: "Not enough space to allocate 6589251584 B DRAM buffer across 12
    # banks, where each bank needs to store 549105664 B, but bank size is 1071821792 B (allocated: 3078993536 B, free: ...)"
    # (an L1 buffer is the cores' on-chip SRAM, placed by the compiler: a plan that overflowed, not-oom-buffer-size-limit)
    P("bank-dram-oom", ("Not enough space to allocate",), r"Not enough space to allocate (\d+) B (DRAM|L1) buffer(?: across (\d+) banks)?"
      r"(?:, where each bank needs to store \d+ B)?(?:, but bank size is (?:only )?(\d+) B)?(?:.{0,40}?\(allocated: \d+ B(?:/bank)?, free: (\d+) B)?"
      r"(?:(?:/bank)?, largest free block: (\d+) B)?",
      _bank_oom),
    # Tenstorrent's check of an op's static circular buffers against the cores' L1 ("Statically allocated circular buffers in
    # program 4825 clash with L1 buffers on core range ...", "... on core range [...] grow to 2318272 B which is beyond max L1
    # size of 1572864 B"): the op library's and compiler's plan for on-chip memory, which their settings and releases set
    P("tt-circular-buffers", ("Statically allocated circular buffers",), r"Statically allocated circular buffers\b",
      const(("oom.kind", "onchip_plan_clash"), ("gpu.backend", "tenstorrent"))),
    # Tenstorrent's trace region, a fixed share of each DRAM bank reserved when the device opens, too small for the traces a
    # warm-up records ("Creating trace buffers of size 55820288B on MeshDevice 0, but only 50000000B is allocated for trace
    # region"; the two halves may sit on two lines): a setting's size, whatever the device has free
    # (or the check's own condition, where the paste kept only it: "mesh_cq.device()->get_trace_buffers_size() <= trace_region_size")
    P("tt-trace-region", ("Creating trace buffers of size", "get_trace_buffers_size() <= trace_region_size"),
      r"Creating trace buffers of size (\d+)\s*B\b|get_trace_buffers_size\(\) <= trace_region_size",
      lambda m: [("oom.kind", "region_outgrown"), ("oom.hint", "trace_region"), ("gpu.backend", "tenstorrent")]
      + ([("oom.requested_bytes", int(m.group(1)))] if m.group(1) else [])),
    P("tt-trace-region-size", ("allocated for trace region",), r"only (\d+)\s*B is allocated for trace region",
      lambda m: [("oom.pool_bytes", int(m.group(1)))]),
    # the small L1 region, reserved at open by l1_small_size ("Not enough space to allocate 192 B L1_SMALL buffer across
    # 48 banks, where each bank needs to store 32 B"): a few bytes refused are a region set too small (or not at all)
    P("tt-l1-small", ("L1_SMALL buffer",), r"Not enough space to allocate (\d+) B L1_SMALL buffer",
      lambda m: [("oom.kind", "region_outgrown"), ("oom.hint", "l1_small_region"), ("oom.requested_bytes", int(m.group(1))),
                 ("gpu.backend", "tenstorrent")]),
    # Tenstorrent's generator at a prompt's pass ("tt.generator:prefill_forward_llama_vision:620 - Prefilling User 1 up to
    # 32650 tokens"): the step the engine was in
    P("generator-prefilling", ("Prefilling", "prefill_forward"), r"\bPrefilling (?:User \d+ )?up to \d+ tokens|\bprefill_forward\w*",
      const(("_phase", "prefill"))),
    # (an engine's failure line naming the step that failed: "batch prefill failed: Alloc failed: DriverError(CUDA_ERROR_OUT_OF_MEMORY)",
    # "decode step failed: ...")
    P("step-failed", ("prefill failed", "Prefill failed", "prefill step failed", "prefill batch failed", "decode step failed",
                      "Decode step failed", "batch decode failed", "Batch decode failed"),
      r"(?i)\b(?:batch |chunked )?(prefill)(?: step| batch| pass)? failed\b|\b(?:batch (decode)(?: step)?|(decode) step) failed\b",
      lambda m: [("_phase", next(g for g in m.groups() if g).lower())]),
    # (a loguru line's location naming the step a script runs: "| INFO | __main__:run_decode:199 - Loop 88")
    P("logged-step", (":run_decode:", ":decode:", ":run_prefill:", ":prefill:"),
      r"\|\s+[A-Z]+\s+\|\s+[\w.]+:(?:run_)?(decode|prefill):\d+ - ", lambda m: [("_phase", m.group(1))]),
    # OpenCL's cap on one memory object ("[GPU] Exceeded max size of memory object allocation: requested N bytes,
    # but max alloc size supported by device is M bytes"): a per-allocation limit, or a size bug when N is absurd
    P("ocl-max-alloc", ("Exceeded max size of memory object",), r"Exceeded max size of memory object allocation: requested (\d+) bytes",
      lambda m: [("oom.kind", "alloc_size_limit"), ("oom.requested_bytes", int(m.group(1)))]),
    # a runtime that names the cache it could not allocate (ONNX Runtime GenAI: "Could not allocate the key-value cache
    # buffer of shape: [batch_size (1), num_key_value_heads (32), max_length (131072), head_size (96)]")
    # (vllm.rs: "KVCache allocation failed: Insufficient GPU memory for KVCache allocation")
    P("kv-alloc-stated", ("key-value cache", "Key-value cache", "KV cache buffer", "KVCache allocation failed", "KV cache allocation failed",
                          "allocate KVCache", "allocate KV cache"),
      r"(?i)(?:(?:could not|cannot|can't|unable to|failed to) allocate (?:the )?(?:key-value|kv) ?cache\b|\bkv ?cache allocation failed\b)"
      r"(?:.*?max_length \((\d+)\))?",
      lambda m: [("oom.kind", "cuda_error_oom"), ("_phase", "kv_alloc")] + ([("knob.max_model_len", int(m.group(1)))] if m.group(1) else [])),
    # WSL2's GPU paravirtualization could not make an allocation resident on the card (ENOMEM); CUDA then
    # reports something else ("CUDA driver error: device not ready")
    P("wsl-dxg-resident", ("dxgkio_make_resident",), r"dxgkio_make_resident: Ioctl failed: -12\b", kind("wsl_residency_failed")),
    # Qualcomm's QNN runtime could not place the model's weights in the NPU's memory ("Failed to map weights buffer to
    # device!", "Could not allocate persistent weights buffer!"): the weights, at load
    P("qnn-weights-buffer", ("weights buffer",), r"\bCould not allocate persistent weights buffer\b|\bFailed to map weights buffer to device\b",
      const(("oom.kind", "cuda_error_oom"), ("_phase", "load_weights"))),
    # Gaudi's device-memory module: "FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::56836702208 (54203.7)MB"
    P("hpu-devmem", ("PT_DEVMEM",), r"PT_DEVMEM Allocation failed for size::(\d+)",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.requested_bytes", int(m.group(1)))]),
    # and its graph helper's workspace, the compiled graph's intermediate tensors (one step's activations, sized by the batch
    # and the sequence): "FATAL ERROR :: MODULE:SYNHELPER workspace Allocation of size ::14493741952 failed"
    P("hpu-graph-workspace", ("SYNHELPER workspace Allocation",), r"SYNHELPER workspace Allocation of size ::(\d+) failed",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.requested_bytes", int(m.group(1))), ("mem.activation_peak_bytes", int(m.group(1)))]),
    # Sophgo's bmlib refusing a device allocation on its TPU card ("[bmlib_memory][error] bm_alloc_gmem failed, dev_id = 0,
    # size = 0x1000000"), the size in hexadecimal
    P("bmlib-alloc-failed", ("bm_alloc_gmem failed",), r"\bbm_alloc_gmem failed, dev_id = \d+, size = (0x[0-9a-fA-F]+|\d+)\b",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.requested_bytes", int(m.group(1), 0))]),
    # ROCm's runtime (ROCclr, under AMD_LOG_LEVEL) stating a refused device allocation with its numbers: "Allocation
    # failed : Device memory : required :4 | free :2314338304 | total :17163091968"
    P("rocclr-alloc-failed", ("Allocation failed : Device memory",),
      r"Allocation failed : Device memory : required :(\d+) \| free :(\d+) \| total :(\d+)",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.requested_bytes", int(m.group(1))), ("oom.gpu_free_bytes", int(m.group(2))),
                 ("oom.gpu_total_bytes", int(m.group(3)))]),
    # OpenVINO's GPU plugin refusing a device allocation ("[GPU] out of GPU resources"): the card's memory, which on an
    # integrated GPU is the host's RAM shared with it
    P("openvino-gpu-resources", ("out of GPU resources",), r"\[GPU\] out of GPU resources", kind("cuda_error_oom")),
    P("ocl-max-alloc-cap", ("max alloc size supported by device",), r"max alloc size supported by device is (\d+) bytes",
      lambda m: [("oom.buffer_limit_bytes", int(m.group(1)))]),
    # OpenCL's status codes, by name or by number after "OpenCL error" ("CLBlast: OpenCL error: clEnqueueNDRangeKernel: -4",
    # "OpenCL Error, code=-61: CL_INVALID_BUFFER_SIZE"): -4 is a memory object the device could not allocate; -61 a buffer
    # size the device refuses, over its largest single allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE): a cap, not the memory
    # running out
    # (ggml's OpenCL backend: "ggml_opencl: (mem = clCreateBuffer(context, ...), err) error -61 at ggml-opencl.cpp:1339")
    P("opencl-status", ("CL_MEM_OBJECT_ALLOCATION_FAILURE", "CL_INVALID_BUFFER_SIZE", "OpenCL error", "OpenCL Error", *_OPENCL_CODE_ANCHORS),
      r"\bCL_(MEM_OBJECT_ALLOCATION_FAILURE|INVALID_BUFFER_SIZE)\b|(?:OpenCL [Ee]rror\b[^\n]{0,80}?|" + _OPENCL_CODE_AT + r")(?<![\w.-])(-4|-61)\b",
      lambda m: [("oom.kind", "alloc_size_limit" if m.group(1) == "INVALID_BUFFER_SIZE" or m.group(2) == "-61" else "cuda_error_oom")]),
    # ggml's or MNN's OpenCL backend failing a call with a status that names no memory ("ggml_opencl: ggml_cl_h2d_tensor_2d(...)
    # error -30 at ggml-opencl.cpp:1501"): an argument or an object the driver refused
    P("opencl-status-other", _OPENCL_CODE_ANCHORS, r"(?:" + _OPENCL_CODE_AT + r")(-(?:30|34|36|38|48|52|54))\b",
      lambda m: [("error.final", f"OpenCL error {m.group(1)} ({_OPENCL_STATUS[m.group(1)]}): a call the driver refused, not memory")]),
    # ONNX Runtime (Web, transformers.js) creating a session, which places the model: "Can't create a session. Failed to allocate
    # a buffer of size 2079238052", the weights' buffer (WebAssembly's heap or WebGPU's)
    P("ort-session-buffer", ("t create a session",), r"Can't create a session\.(?: [Ff]ailed to allocate a buffer of(?: size (\d+))?)?",
      lambda m: [("_phase", "load_weights")] + ([("oom.kind", "cuda_error_oom")] if "allocate" in m.group(0) else [])
      + ([("oom.requested_bytes", int(m.group(1)))] if m.group(1) else [])),
    # any other OpenCL status of the CL_INVALID_ family ("[GPU] clWaitForEvents, error code: -58 CL_INVALID_EVENT"): a call the
    # driver refused as malformed (an event, a kernel, a context), not memory the device lacked
    P("opencl-invalid", ("CL_INVALID_",), r"\bCL_INVALID_(?!BUFFER_SIZE\b)[A-Z_]+\b",
      lambda m: [("error.final", f"OpenCL refused a call ({m.group(0)}): the driver or the runtime's use of it, not memory")]),
    # ROCm's HSA runtime failing to allocate its own resources ("HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to
    # allocate the necessary resources": queues, signals, scratch, threads), often with the device's free memory beside it
    # ("Available Free mem : 0 MB"): what the runtime needs outside the framework's pools
    P("hsa-out-of-resources", ("HSA_STATUS_ERROR_OUT_OF_RESOURCES",), r"HSA_STATUS_ERROR_OUT_OF_RESOURCES", kind("runtime_resources")),
    # ROCm's runtime reporting a kernel the GPU never finished ("HW Exception by GPU node-4 (Agent handle: 0x55d987988820)
    # reason :GPU Hang"): a hang the driver reset, a kernel's or the driver's fault; no allocation failed
    P("hsa-gpu-hang", ("GPU Hang",), r"\bHW Exception by GPU node-\d+\b.{0,80}?\breason ?: ?GPU Hang\b",
      const(("error.final", "the GPU hung (ROCm's hardware exception \"GPU Hang\"): a kernel that did not finish, not a lack of memory"))),
    # (the free memory it states, on the error's line or the next)
    P("hsa-free-mem", ("Available Free mem",), r"Available Free mem\s*:\s*(\d+)\s*MB", lambda m: [("oom.gpu_free_bytes", to_bytes(m.group(1), "MiB"))]),
    # a memory guard refusing a load by its own sum ("Cannot load GLM-5.1: projected memory 774.68GB would exceed the memory
    # ceiling 506.00GB (current: 378.17GB, model: 396.52GB)", oMLX): the model against the budget, and what is already
    # resident beside it
    P("guard-projected-load", ("would exceed the memory ceiling",),
      r"projected memory " + SIZE + r" would exceed the memory ceiling " + SIZE + r" \(current: " + SIZE + r", model: " + SIZE + r"\)",
      lambda m: [("oom.kind", "load_refused"), ("mem.gpu_total_bytes", to_bytes(m.group(3), m.group(4))),
                 ("oom.resident_bytes", to_bytes(m.group(5), m.group(6))), ("mem.weights_bytes", to_bytes(m.group(7), m.group(8))),
                 ("_phase", "load_weights")]),
    # Metal's API validation stopping the process (MTLReportFailure in a crash report's frames): a call the API does not
    # allow, a runtime's bug, not a lack of memory
    P("metal-report-failure", ("MTLReportFailure",), r"\bMTLReportFailure\b",
      lambda m: [("error.final", "MTLReportFailure: Metal's API validation stopped the process (a call the API does not allow), "
                                 "not a lack of memory")]),
    # ggml's backend meeting an operation it has no kernel for ("ggml_metal_encode_node: error: unsupported op 'CPY'", then
    # an abort): a build older than the model or the cache type it runs, not a lack of memory
    P("ggml-unsupported-op", ("unsupported op",), r"\bggml_\w+: (?:error: )?unsupported op '?(\w+)",
      lambda m: [("error.final", f"ggml's backend has no kernel for the operation {m.group(1)} (a build older than the model, "
                                 "or a cache type it does not support): not a lack of memory")]),
    # CUTLASS's status from a GEMM it could not run ("Got cutlass error: Error Internal at: 420", "cutlass error: Error Arch
    # Mismatch"): a kernel built for another architecture or a shape it does not support; only its "Error Memory
    # Allocation" and "Error Workspace Null" are about memory
    P("cutlass-status", ("cutlass error: Error",), r"cutlass error: (Error (?!Memory Allocation|Workspace Null)[A-Z][a-z]+(?: [A-Z][a-z]+)*)",
      lambda m: [("error.final", f"CUTLASS could not run its kernel ({m.group(1)}): a build for another architecture or a "
                                 "shape it does not support, not a lack of memory")]),
    # Ascend's runtime finding no usable device ("rtMemGetInfoEx execution failed, reason=driver error:no valid device",
    # "Device not found or invalid"): the driver, the container's device mounts or the card, not its memory
    P("ascend-no-device", ("no valid device", "Device not found or invalid"), r"driver error:no valid device|\bDevice not found or invalid\b",
      const(("error.final", "the NPU's driver found no valid device (a driver, container or card problem): the memory query "
                            "failed for that, not for a lack of memory"))),
    # a runtime's failed invariant check in glog's words (TVM, dmlc, XLA: "ndarray.cc:213: Check failed: relative_byte_offset +
    # view_size <= curr_size (32727630 vs. 518400)"): a size or shape the code did not expect, unless the check is an
    # allocation's (the NVIDIA driver's "Check failed: Out of memory" is read as its own)
    P("glog-check-failed", ("Check failed: ",), r"\b[\w.-]+\.(?:cc|cpp|h):\d+: Check failed: ([^\n]{1,200})",
      lambda m: [] if _ALLOC_CHECK.search(m.group(1)) else
      [("error.final", f"a runtime's check failed ({m.group(1).strip()[:160]}): a size or shape the code did not expect, not a lack of memory")]),
    # TensorRT refusing a call's parameters ("IExecutionContext::setInputShape: Error Code 3: API Usage Error (Parameter check
    # failed, condition: satisfyProfile ...)"): an input shape outside the engine's optimization profile, not memory
    P("trt-api-usage", ("API Usage Error",), r"Error Code \d+: API Usage Error \(([^\n]{0,200})",
      lambda m: [] if MEMORY_WORDS.search(m.group(1)) else
      [("error.final", f"TensorRT refused the call's parameters (API Usage Error: {m.group(1).strip()[:140]}): an input outside what the "
                       "engine was built for, not a lack of memory")]),
    # llama.cpp's context refused for a reason it states that is neither memory nor another failure relayed ("failed to
    # initialize the context: dflash requires ctx_other to be set"): a setting or a build, not a lack of memory
    P("ggml-context-reason", ("failed to initialize the context: ", "failed to create context: "),
      r"\bfailed to (?:initialize the|create) context: ([^\n]{3,200})",
      lambda m: [] if MEMORY_WORDS.search(r := _without_remark(m.group(1))) or _RELAYED.search(r) else
      [("error.final", f"llama.cpp refused the context: {r.strip()}: a setting or a build, not a lack of memory")]),
    # a quantized KV cache the build runs only with flash attention, in any engine's words ("quantized V cache was requested,
    # but this requires Flash Attention", "V cache quantization requires flash_attn"): flash attention on, or a 16-bit cache
    P("cache-needs-flash-attention", ("requires Flash Attention", "requires flash_attn", "requires flash attention"),
      r"(?i)(?:quantized [KV]+ cache|[KV]+ cache quantization)\b.{0,60}\brequires? (?:flash[ _]?attn|flash attention)\b",
      const(("oom.hint", "cache_needs_flash_attention"))),
    # llama.cpp's loader finding fewer or more tensors than the architecture names ("done_getting_tensors: wrong number of
    # tensors; expected 255, got 254"): a file cut short, or a model newer than the build
    P("ggml-tensor-count", ("wrong number of tensors",), r"wrong number of tensors; expected (\d+), got (\d+)",
      lambda m: [("error.final", f"the model file holds {m.group(2)} tensors where its architecture names {m.group(1)} (a download "
                                 "cut short, or a model newer than the build): not a lack of memory")]),
    # llama.cpp's context without its Metal backend ("llama_new_context_with_model: failed to initialize Metal backend"):
    # no Metal device, or a shader library that did not load; the run stops before any buffer is allocated
    # (or ggml's own line for a device context it could not create, with no library error above it: "ggml_backend_metal_device_init:
    # error: failed to allocate context" on an iPhone X or an Intel Mac, a GPU family the build cannot run on)
    # (newer builds name the step "ggml_backend_metal_device_init_backend"; before it the device gave no command queue:
    # "ggml_metal_init: error: failed to create command queue", a process that may not reach the GPU)
    P("metal-backend-init", ("failed to initialize Metal backend", "metal_device_init: error: failed to allocate context",
                             "metal_device_init_backend: error: failed to allocate context", "failed to create command queue"),
      r"failed to initialize Metal backend|\bggml_(?:backend_)?metal_device_init(?:_backend)?: error: failed to allocate context\b|"
      r"\bggml_metal_init: error: failed to create command queue\b",
      const(("error.final", "llama.cpp could not start its Metal backend (no Metal device, or a shader library that did not "
                            "load): the run stopped before any buffer was allocated, not a lack of memory"))),
    # CUDA's status for PTX built by a newer toolkit than the driver can compile, in a library's wording ("FlashInfer
    # error: the provided PTX was compiled with an unsupported toolchain."; CUDA's own "CUDA error: ..." is read as a final error)
    P("ptx-toolchain", ("provided PTX",), r"^(?!.*\b(?:CUDA error\b|CUDA_ERROR_)).*?the provided PTX was compiled with an unsupported toolchain",
      const(("error.final", "the provided PTX was compiled with an unsupported toolchain: a CUDA toolkit newer than the "
                            "driver (upgrade the driver or install a build for it), not a lack of memory"))),
    # Metal failing to compile the backend's shader library ("program_source:6464:18: error: use of undeclared identifier"):
    # a build that does not match the OS's Metal compiler; the "failed to allocate context" after it is that, not memory
    P("metal-shader-compile", ("program_source:",), r"^program_source:\d+:\d+: error: ",
      const(("error.final", "Metal could not compile the backend's shaders: a build that does not match this macOS, not a lack of memory"))),
    # oneDNN finding no implementation of an operation for these shapes and this device ("could not create a primitive
    # descriptor for a matmul primitive"): an unsupported case, not a lack of memory
    P("onednn-no-primitive", ("could not create a primitive descriptor",), r"could not create a primitive descriptor",
      const(("error.final", "oneDNN could not create a primitive for this operation on this device: an unsupported case, not a lack of memory"))),
    # Vulkan refusing to create or record an object that holds no memory to speak of (a fence, a semaphore, a command
    # buffer begun, a compute pipeline: "vk::Device::createFence: ErrorOutOfHostMemory", "vk::CommandBuffer::begin:
    # ErrorOutOfHostMemory", "vk::Device::createComputePipeline: ErrorOutOfHostMemory" on a translation-layer driver):
    # the driver's object limit or a mapping it could not make, not a lack of memory (vk::Device::allocateMemory is memory)
    P("vulkan-object-refused", ("OutOfHostMemory", "OutOfDeviceMemory"),
      r"\bvk::(?:Device::create(?:Fence|Semaphore|Event|CommandPool|QueryPool|ComputePipelines?|ShaderModule|PipelineLayout|"
      r"DescriptorSetLayout|DescriptorPool)|CommandBuffer::(?:begin|end)|"
      r"Device::allocateCommandBuffers): ErrorOutOf(?:Host|Device)Memory",
      lambda m: [("error.final", f"{m.group(0)}: Vulkan refused an object that holds no memory to speak of (the driver's "
                                 "object limit, or a mapping it could not make), not a lack of memory")]),
    # a program the OS could not execute ("fork/exec .../ollama-runner: bad CPU type in executable", "exec format error",
    # "cannot execute binary file"): a binary built for another CPU, not a lack of memory
    P("exec-refused", ("bad CPU type in executable", "exec format error", "cannot execute binary file"),
      r"bad CPU type in executable|\bexec format error\b|cannot execute binary file",
      lambda m: [("error.final", f"{m.group(0)}: the OS could not run the program (a binary built for another CPU or OS), "
                                 "not a lack of memory")]),
    # Intel's GPU compute runtime (NEO) stopping on an internal check: "Abort was called at 63 line in file:" and, on the
    # next line, the source file in NEO's tree ("../../neo/shared/source/os_interface/os_interface.h"): a driver's check
    # failing, not a lack of memory (its memory managers' own files excepted)
    P("intel-neo-abort", ("neo/shared/source/", "neo/opencl/source/", "neo/level_zero/"),
      r"(?:^|[\s/])(neo/(?:shared/source|opencl/source|level_zero)/(?![^\s]*memory)\S+\.(?:h|cpp|inl))\s*$",
      lambda m: [("error.final", f"Intel GPU driver (compute runtime) aborted on an internal check in {m.group(1)}, "
                                 "not for lack of memory")]),
    P("buffer-count-limit", ("Resource limit (",), r"\[metal::malloc\] Resource limit \((\d+)\) exceeded", kind("buffer_count_limit")),
    # a trainer or predictor that caught an out-of-memory in one batch and went on without it (fairseq's and Boltz's "| WARNING:
    # ran out of memory, skipping batch", fairseq's "ran out of memory on GPU #2, skipping batch"): a batch's forward pass
    # that did not fit, its inputs lost (a warning, yet the failure)
    P("oom-batch-skipped", ("ran out of memory, skipping batch", "skipping batch"), r"\bran out of memory(?: on GPU #?\d+)?, skipping batch\b",
      const(("oom.kind", "cuda_error_oom"), ("_phase", "forward"))),
    # a library's own status for a device allocation it could not make: cuRAND's generator ("CURANDError:
    # CURAND_STATUS_ALLOCATION_FAILED"), TensorFlow's copy of a tensor onto a full device ("InternalError: Dst tensor is
    # not initialized.", its GPU out-of-memory under another name)
    P("library-alloc-status", ("CURAND_STATUS_ALLOCATION_FAILED", "Dst tensor is not initialized"),
      r"\bCURAND_STATUS_ALLOCATION_FAILED\b|\bDst tensor is not initialized\b", kind("cuda_error_oom")),
    # ---- failure statements in any form, read only where no message family above named the failure
    # (its literals match in any case, as its regex does: "Out Of Device Memory", "NOT ENOUGH MEMORY", "insufficient GPU memory")
    P("stated-oom", ("out of memory", "OutOfMemory", "OutOfDeviceMemory", "not enough memory", "nsufficient memory", "allocate",
                     # (the memory named, or a word between: "ran out of GPU memory", "Not enough free memory to load model")
                     "ut of gpu memory", "ut of device memory", "ut of video memory", "ut of vram", "ut of cuda memory",
                     "ut of graphics memory", "ut of host memory", "ut of system memory",
                     "ot enough gpu ", "ot enough device ", "ot enough video ", "ot enough vram", "ot enough vmemory", "ot enough ram",
                     "ot enough free ", "nsufficient gpu ", "nsufficient device ", "nsufficient video ", "nsufficient vram",
                     "nsufficient vmemory", "nsufficient ram",
                     "llocation failed", "llocation of size", "bad_alloc", "bad allocation", " OOM", " oom",
                     "OUT_OF_DEVICE_MEMORY", "OUT_OF_HOST_MEMORY", "BlockAllocator::alloc failed", "ResourceExhaustedError",
                     "lloc device memory failed", "could not page-in"),
      r"(?i)\bout of (?:device |gpu |video |cuda |vram |graphics |host |system )?memory\b|\bout of vram\b|OutOf(?:Device)?Memory|OUT_OF_(?:DEVICE|HOST)_MEMORY|"
      r"\b[iu]nsufficient (?:gpu |device |video |v)?(?:memory|ram)\b|\bnot enough (?:gpu |device |video |v|free )?(?:memory|ram)\b|"
      r"\b(?:failed|unable|could not|cannot|can ?not|can't) (?:to )?allocate\b(?=.*?(?:memory|\d\s*(?:bytes|[KMGT]i?B)\b))|\ballocation (?:of .{0,40})?failed\b|\bstd::bad_alloc\b|"
      # (std::bad_alloc's what() in Microsoft's C++ library, as ONNX Runtime and OpenVINO pass it on under Windows:
      # "Status Message: bad allocation", "Load model from ... failed:bad allocation")
      r"\bbad allocation\b|"
      r"\b(?:CUDA|GPU|device) OOM\b|\bOOM (?:error|exception|detected|occurred|happened|when|while|during)\b|"
      # (ROCm's HSA runtime: "HSA exception: MemoryRegion::BlockAllocator::alloc failed", a device region out of blocks)
      r"\bBlockAllocator::alloc failed\b|"
      # (an SDK's own words for a device allocation: Sophon's "Alloc Device Memory Failed! Program Terminated.")
      r"\balloc(?:ate)? device memory failed\b|"
      # (Windows' video memory manager, in the status text a driver passes on: "the video memory manager could not page-in
      # all of the required allocations into video memory at the same time", wrapped over lines as a console prints it)
      r"\bcould not page-in all of the required allocations\b|"
      # (PaddlePaddle's and TensorFlow's out-of-memory class, its message on the lines after it or cut away)
      r"\bResourceExhaustedError\b",
      _stated_oom, fallback=True),
    # C++'s new[] given a length below zero or past what can be addressed (std::bad_array_new_length, thrown through
    # __throw_bad_array_new_length; its what() may still read "std::bad_alloc"): a length computed wrong, not memory
    P("bad-array-new-length", ("bad_array_new_length",), r"bad_array_new_length", const(("oom.hint", "array_length_bug"))),
    # Rust's allocator refusing a size past isize::MAX ("panicked at library/alloc/src/raw_vec.rs:25:5: capacity overflow",
    # "alloc::raw_vec::capacity_overflow"): a size computed wrong (an integer that wrapped), not memory; Rust's out of memory
    # is "memory allocation of N bytes failed"
    P("rust-capacity-overflow", ("capacity overflow", "capacity_overflow"), r"^\s*capacity overflow\s*$|raw_vec::capacity_overflow\b",
      const(("error.final", "Rust's capacity overflow: a size past what any allocation can be, computed wrong (an integer that "
                            "wrapped), not a lack of memory"))),
    # a runtime that could not read how much memory a device has ("Cannot get memory available for CUDA device",
    # "failed to query free memory", "unable to get device memory info"): a query that failed (a driver the library
    # does not match, a device it may not open), not a lack of memory; an allocation was never tried
    P("memory-query-failed", ("t get ", "to get ", "t query ", "to query ", "t read ", "to read ", "t determine ", "to determine ",
                              "t retrieve ", "to retrieve ", "t obtain ", "to obtain ", "T GET ", "T QUERY "),
      r"(?i)\b(?:cannot|can ?not|can't|could not|couldn't|failed to|unable to) (?:get|query|read|determine|retrieve|obtain)"
      r" (?:the )?(?:(?:amount of |device |gpu |free |available |total )*(?:memory|vram)(?: (?:available|info(?:rmation)?|usage|size))?)"
      r"(?: (?:for|of|on) (?:the )?(?:cuda |gpu |metal |rocm |hip )?(?:device|gpu|card)\b[^\n]{0,20})?",
      lambda m: [("error.final", f"{m.group(0).strip()}: the runtime could not read the device's memory (a driver or a device it "
                                 "cannot query), not a lack of memory")]),
    # a C++ container asked for more elements than its type can count ("cannot create std::vector larger than max_size()",
    # std::length_error): a size computed wrong (a negative or overflowed count), not a lack of memory
    P("cxx-length-error", ("larger than max_size()", "std::length_error", "vector::_M_fill_insert", "vector::reserve"),
      r"cannot create std::vector larger than max_size\(\)|std::length_error|\bvector::(?:_M_fill_insert|reserve)\b",
      lambda m: [("error.final", f"a C++ container asked for more elements than it can count ({m.group(0)}): a size computed wrong, "
                                 "not a lack of memory")]),
    # the LLVM compiler stopping a kernel's build (Triton's, a JIT's): "LLVM ERROR: Unsupported rounding mode for conversion."
    # is a compiler fault; its own "LLVM ERROR: out of memory" is the host's allocator refusing, read where memory is
    P("llvm-error", ("LLVM ERROR: ",), r"\bLLVM ERROR: (?!out of memory\b|[Aa]llocation failed\b)([^\n]{3,120})",
      lambda m: [("error.final", f"LLVM ERROR: {m.group(1).strip().rstrip('.')}: the compiler stopped building a kernel, not a lack of memory")]),
    # PyTorch's device check relayed without its exception's name (a thread's title, an app's message): "Expected all tensors to
    # be on the same device, but found at least two devices, cpu and cuda:0!" is a placement bug, not memory
    P("device-mismatch-relayed", ("Expected all tensors to be on the same device",),
      r"(?<!Error: )\bExpected all tensors to be on the same device, but found at least two devices, ([\w:]+) and ([\w:]+)",
      lambda m: [("error.final", f"tensors on two devices ({m.group(1)} and {m.group(2)}): a placement bug (a layer or an input "
                                 "left on another device), not a lack of memory")]),
    # pickle reaching a file's end before its object did ("EOFError: Ran out of input", an app's logger relaying only the
    # words): an empty or cut model or cache file; the word "out" is no memory running out
    P("pickle-eof", ("Ran out of input",), r"\bRan out of input\b",
      const(("error.final", "a file ended before its data (pickle's \"Ran out of input\"): an empty or truncated model or cache "
                            "file, not a lack of memory"))),
    # a memory check that states a negative need ("There is no enough device memory for gemm test! -4261412864 Bytes is
    # needed, but only 84586856448 Bytes is free", FasterTransformer's GEMM tuner) or budget ("offloaded layers from VRAM
    # budget(-2147483648 bytes)", PowerInfer): a size that overflowed, not a lack of memory
    P("negative-need", ("Bytes is needed", "bytes is needed", "Bytes are needed", "bytes are needed", "budget(-"),
      r"(?<![\w.])-(\d+) [Bb]ytes (?:is|are) needed\b|\bbudget ?\(-(\d+) bytes\)",
      lambda m: [("error.final", f"a memory check stated a negative size (-{m.group(1) or m.group(2)} bytes): a size that overflowed, "
                                 "not a lack of memory")]),
    # a C++ lookup out of its range (std::unordered_map::at's "_Map_base::at", std::vector::at's "_M_range_check", a
    # std::out_of_range; in Microsoft's C++ library "invalid unordered_map<K, T> key"): an engine's bug or an input it
    # does not handle, not memory (llama.cpp's loader reports MSVC's "invalid vector subscript" as a model it could not load)
    P("cxx-out-of-range", ("_Map_base::at", "_M_range_check", "std::out_of_range", "map<K, T> key"),
      r"_Map_base::at|vector::_M_range_check|std::out_of_range|\binvalid (?:unordered_)?map<K, T> key\b",
      lambda m: [("error.final", f"a C++ lookup out of its range ({m.group(0)}): an engine bug or an input it does not handle, not memory")]),
    # glibc's heap checks aborting the process ("corrupted double-linked list", "double free or corruption (out)",
    # "free(): invalid pointer", "malloc(): corrupted top size"): the C heap was written over, a native bug; nothing ran out
    P("glibc-heap-corruption", ("corrupted double-linked list", "double free or corruption", "(): invalid pointer", "(): invalid size",
                                "(): corrupted", "(): memory corruption", "invalid chunk size", "corrupted size vs",
                                "pointer being freed was not allocated", "checksum for freed object"),
      r"corrupted double-linked list|double free or corruption|\b(?:free|malloc|realloc|munmap_chunk|malloc_consolidate)\(\): "
      r"(?:invalid (?:pointer|size|next size|chunk size)|corrupted [\w ]+|memory corruption)|corrupted size vs\.? prev_size|"
      # (macOS's allocator: "malloc: *** error for object 0x600001720008: pointer being freed was not allocated",
      # "incorrect checksum for freed object")
      r"pointer being freed was not allocated|incorrect checksum for freed object",
      lambda m: [("error.final", f"the C heap was corrupted ({m.group(0)}): a native bug that wrote past its buffers, not a lack of memory")]),
    # .NET's access violation ("System.AccessViolationException: Attempted to read or write protected memory. This is often an
    # indication that other memory is corrupt."): native code touched memory it does not own (a native library built for
    # another API or CPU, a bad pointer); the memory it names is protected, not exhausted
    P("dotnet-access-violation", ("Attempted to read or write protected memory",), r"\bAttempted to read or write protected memory\b",
      const(("error.final", "an access violation: native code read or wrote protected memory (a native library that does not match "
                            "its binding, a bad pointer), not a lack of memory"))),
    # the address sanitizer's report of a native memory bug ("ERROR: AddressSanitizer: attempting free on address which was
    # not malloc()-ed", "heap-use-after-free", "heap-buffer-overflow"); its own "out of memory" is the host's allocator refusing
    P("asan-memory-bug", ("AddressSanitizer: ",), r"\bERROR: AddressSanitizer: (?!out of memory\b)([\w()-]+(?: [\w()-]+){0,8})",
      lambda m: [("error.final", f"the address sanitizer caught a memory bug ({m.group(1)}): a native bug, not a lack of memory")]),
    # a device compiler that could not build the model's program for the accelerator: an NPU compiler's failed pass
    # ("[vpux-compiler] Failed Pass ForbidFourBitOutputs", "Compilation failed", "failed to legalize operation
    # 'IE.FakeQuantize'"), Neuron's "An Internal Compiler Error has occurred", Gaudi's "Graph compile failed.
    # synStatus=synStatus 26", a SYCL/OpenCL kernel build ("-11 (PI_ERROR_BUILD_PROGRAM_FAILURE)", or the build log it
    # prints, "Build program log for 'Intel(R) Arc(TM) A770 Graphics':"): an operation, a precision or a shape the device
    # does not support, unless the compiler's own words name memory; not "Compilation failed for model.hlo_module.pb" or
    # "... with XPC_ERROR_CONNECTION_INTERRUPTED", which relay a failure read where its reason is
    P("device-compile-failed", ("Compilation failed", "Failed Pass ", "failed to legalize operation", "BUILD_PROGRAM_FAILURE",
                                "Build program log for '", "Internal Compiler Error", "Graph compile failed"),
      r"\bCompilation failed\b(?! (?:for|with)\b)|\bAn Internal Compiler Error has occurred\b|(?<![A-Za-z])Graph compile failed\b|"
      r"\bBuild program log for '|\bFailed Pass \w+|\bfailed to legalize operation '[\w.]+'|\b(?:PI|UR)_(?:ERROR|RESULT_ERROR)_BUILD_PROGRAM_FAILURE\b",
      lambda m: [] if MEMORY_WORDS.search(m.string) else
      [("error.final", f"the device's compiler could not build the model's program ({m.group(0)}): an operation, precision or "
                       "shape it does not support, not a lack of memory")]),
    # a CUDA API's status as a debugger or compute-sanitizer reports it ("warning: Cuda API error detected: cudaLaunchKernel
    # returned (0x9)"): the number decides (2 out of memory, 700 an illegal address, 9 a launch configuration)
    P("cuda-api-error-detected", ("Cuda API error detected",), r"Cuda API error detected: (\w+) returned \((0x[0-9a-fA-F]+|\d+)\)",
      lambda m: driver_result(str(int(m.group(2), 0)), m.group(1))),
    # OpenVINO's failed check of an invariant ("Check '::getPort(port, name, ...)' failed at src/inference/...: Port for
    # tensor name input_ids was not found"): an assertion, read as one; a check that is about an allocation is not a cause,
    # nor one that only states an earlier step did not succeed ("Check 'false'", "Check 'res.m_status == ...FINISHED'"):
    # that step's own failure is the cause
    P("openvino-check", ("' failed at ",), r"\bCheck '(.{1,300}?)' failed at\b",
      lambda m: [] if _ALLOC_CHECK.search(m.group(1)) or _RELAYING_CHECK.search(m.group(1))
      else [("error.final", f"a failed check ({m.string.strip()[:200]}): an invariant of the code, not memory")]),
    # a writer that could not grow its output file ("OSError: Not enough free space to write 140247040 bytes", numpy's
    # memory-mapped file when the converter writes a model): the disk or its quota, not memory
    P("file-write-no-space", ("Not enough free space to write",), r"Not enough free space to write \d+ bytes",
      const(("error.final", "the converter could not grow its output file (Not enough free space to write): the disk or its quota is full, "
                            "not memory"))),
    # an OS error whose number names a cause other than memory: a port another process holds (98, 99), a file that is
    # missing (2) or not permitted (13), too many open files (24); connection errors are left to the failure they relay
    P("os-errno", ("[Errno ",), r"\[Errno (" + "|".join(_ERRNO) + r")\] ([^\n]{0,120})",
      lambda m: [("error.final", f"[Errno {m.group(1)}] {m.group(2).strip()[:120]}: {_ERRNO[m.group(1)]}, not memory")]),
    # (the number as a field: MediaPipe's "Unable to map file to memory buffer, errno=12", an NPU driver's "DRM_IOCTL_AMDXDNA_CREATE_HWCTX
    # IOCTL failed (err=-22): Invalid argument")
    P("errno-field", ("errno=", "(err="), r"(?:\berrno=|\(err=-?)(\d+)\b", _errno_field),
    # no space left on a filesystem: a path outside /dev/shm is a full disk; with no path, a server's usual full
    # filesystem is the container's /dev/shm (64 MB by default), which its workers exchange tensors through
    # (only where no reading above named the line's failure: NCCL's "posix_fallocate failed : No space left" is /dev/shm's)
    P("no-space-left", ("No space left on device",), r"No space left on device(?:\s*(?:\(28\))?:?\s*['\"]?(/[^'\"\s]+))?",
      lambda m: [] if "/dev/shm" in m.string else
      [("error.final", f"the disk holding {m.group(1)} is full (ENOSPC): a filesystem, not memory")] if m.group(1) else
      [("oom.kind", "no_space_left")], fallback=True),
    # one setting checked against another, neither of them memory: "max_tokens_per_mm_item (1500) is larger than
    # max_num_batched_tokens (448)", "max_num_batched_tokens (2048) is smaller than max_model_len (8192)" (also wrapped
    # after "is larger"): the settings disagree, a configuration error raised before anything is allocated
    P("setting-vs-setting", (") is larger", ") is greater", ") is smaller", ") is less", ") must be"),
      r"\b([a-z]+(?:_[a-z]+)+) \((\d[\d,]*)\) (?:is|must be) (?:larger|greater|bigger|smaller|less)(?: than| or equal to)*"
      r"(?: (?:the )?([a-z]+(?:_[a-z]+)+) \((\d[\d,]*)\)|\s*$)",
      _setting_conflict),
    # a Go program's nil dereference ("panic: runtime error: invalid memory address or nil pointer dereference"): a bug in it,
    # whatever the words "memory address" suggest
    P("go-nil-dereference", ("nil pointer dereference",), r"invalid memory address or nil pointer dereference",
      const(("error.final", "a nil pointer dereference in a Go program (invalid memory address): a bug, not a lack of memory"))),
    # Triton compiling an fp8 kernel for a card without that fp8 type ("type fp8e4nv not supported in this architecture. The
    # supported fp8 dtypes are ('fp8e4b15', 'fp8e5')"): a GPU generation the kernel needs, not memory
    P("triton-fp8-unsupported", ("not supported in this architecture",), r"\btype fp8\w* not supported in this architecture",
      const(("error.final", "Triton cannot build this fp8 kernel for this GPU generation (its fp8 type is not supported here): "
                            "a newer card or another kernel path, not memory"))),
    # Apple's Neural Engine compiler refusing a model ("ANECCompile() FAILED", "Unknown MIL->EIR network translation error"):
    # a model or OS version it cannot compile, whatever the execution plan's error code after it
    P("ane-compile-failed", ("ANECCompile() FAILED", "MIL->EIR network translation error"),
      r"\bANECCompile\(\) FAILED|MIL->EIR network translation error",
      const(("error.final", "Apple's Neural Engine compiler could not compile the model (ANECCompile): a model or OS-version "
                            "limit, not a lack of memory"))),
    # OpenCL's command queue gone invalid under a kernel launch ("Failed to clEnqueueNDRangeKernel - Invalid command queue"): the
    # driver lost the queue (a fault or a reset), not an allocation that failed
    P("opencl-invalid-queue", ("Invalid command queue", "CL_INVALID_COMMAND_QUEUE"), r"\bInvalid command queue\b|\bCL_INVALID_COMMAND_QUEUE\b",
      const(("error.final", "OpenCL's command queue became invalid (the driver lost it: a kernel fault or a device reset), not a "
                            "lack of memory"))),
    # Android's hardened allocator finding its heap corrupted ("Scudo ERROR: invalid chunk state when deallocating address"): a
    # double free or a write past a buffer, not a lack of memory
    P("scudo-heap-corruption", ("Scudo ERROR: ",), r"\bScudo ERROR: (?:invalid chunk state|corrupted chunk header|misaligned pointer)",
      const(("error.final", "Android's allocator (Scudo) found its heap corrupted (a double free or an overrun), not a lack of memory"))),
    # Android stopping an app whose service did not come to the foreground in time ("Context.startForegroundService() did not
    # then call Service.startForeground()"): the system's start-up timeout, not its low-memory killer
    P("android-foreground-timeout", ("did not then call Service.startForeground",),
      r"startForegroundService\(\) did not then call Service\.startForeground\(\)",
      const(("error.final", "Android stopped the app because its service did not reach the foreground in time (a start-up "
                            "timeout), not for memory"))),
    # Docker unable to give the container a GPU ('could not select device driver "" with capabilities: [[gpu]]'): the host has
    # no NVIDIA container toolkit (or runtime) configured; the container never started
    P("docker-no-gpu-driver", ("with capabilities: [[gpu]]",), r"device driver \S* ?with capabilities: \[\[gpu\]\]",
      const(("error.final", "Docker could not give the container a GPU (no NVIDIA container toolkit or runtime on the host): "
                            "the container never started, not a lack of memory"))),
    # OpenBLAS's fixed table of per-thread buffers full ("BLAS : Program is Terminated. Because you tried to allocate too many
    # memory regions."): a build-time count of buffers, exhausted by many threads or processes, whatever the free RAM
    P("openblas-regions", ("too many memory regions",), r"tried to allocate too many memory regions",
      const(("error.final", "OpenBLAS ran out of its fixed table of buffers (too many threads or processes calling it: "
                            "OPENBLAS_NUM_THREADS lower), not a lack of memory"))),
    # an index or a slice past a dimension the size of a context ("RuntimeError: start (0) + length (2049) exceeds dimension
    # size (2048).", TensorFlow's "indices[0,0] = 1024 is not in [0, 1024)"): a sequence longer than the model's positions
    # (its rotary or position table), not memory; a dimension that is no context size (a vocabulary's 50257) says nothing
    P("index-past-positions", ("exceeds dimension size", "is not in [0, "),
      r"start \(\d+\) \+ length \(\d+\) exceeds dimension size \((\d+)\)|\bindices\[[\d,]+\] = \d+ is not in \[0, (\d+)\)",
      lambda m: [("error.positions", n)] if (n := int(m.group(1) or m.group(2))) % 256 == 0 and 256 <= n <= 1 << 20 else []),
    # gunicorn's arbiter ending a worker that did not answer within its timeout ("[CRITICAL] WORKER TIMEOUT (pid:13)"): the
    # "Worker (pid:13) was sent SIGKILL! Perhaps out of memory?" that follows is its own kill, not the kernel's
    P("gunicorn-worker-timeout", ("WORKER TIMEOUT",), r"\bWORKER TIMEOUT \(pid:\d+\)",
      const(("error.final", "gunicorn's arbiter killed a worker that did not answer within its --timeout (WORKER TIMEOUT): "
                            "the SIGKILL it reports is its own, not the OOM killer's"))),
    # (IPython marks the frame that raised with an arrow: where a notebook's paste stops at that frame, its raise statement
    # names the exception and its message: "--> 352     raise ValueError(\"Cannot merge LORA layers when ...\")")
    P("ipython-raise-line", ("raise ",), r"^\s*-+>\s*\d+\s+raise\s+((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))\((?:[rbf]?(['\"])(.{1,300}?)\2)?",
      _raise_line, fallback=True),
    P("final-error", ("Error", "Exception", "terminate called", "Segmentation fault", "segmentation fault", "Segfault encountered", "Illegal instruction",
                      "loating point exception", "Aborted", *_SEGV_LOCALIZED,
                      "GGML_ASSERT", "LLAMA_ASSERT", "LLM_ASSERT", "GPTJ_ASSERT", "RWKV_ASSERT", "Assertion", "panicked at", "Fatal Python error", "Internal Error", "Failed to initialize", "Failed to load", "Failed to create"),
      # (a container's service prefix, "tabbyapi  |   RuntimeError: ...", a bracketed one, or pdb's "*** "; the error as
      # its repr, as an engine's loop logs what it caught: "ERROR ... engine.py:136] ValueError('Attempted to assign ...')";
      # a bare time stamp: "09:14:37 TimeoutError: RPC call to sample_tokens timed out."; a Java nested class's name,
      # "org.apache.tvm.Base$TVMError: TVMError: ...")
      r"^(?:.*?\]:?\s+|[A-Za-z][\w.-]{0,62}\s+\|\s+|\*{3} |(?:\d{4}-\d\d-\d\d[T ])?\d\d:\d\d:\d\d(?:[.,]\d+)?Z?\s+|(?:ERROR|CRITICAL|FATAL):\s+|.*?<Future finished exception=|.*?\b(?:the following|this|an?) (?:error|exception):\s+|\s*)(?:[A-Za-z_][\w.$]*[.$])?([A-Z]\w*(?:Error|Exception))(?:(?::\s*|\((?=['\"].*\)>?\s*$))(.*))?$|"
      # (a shell's report of a child's SIGFPE: bash's "Floating point exception (core dumped)", zsh's job line "[1]  2771397
      # floating point exception  lmdeploy serve ..."; and of its SIGABRT, a failed check: "line 2: 3385755 Aborted
      # (core dumped) python3 -m lmdeploy.serve...")
      r"(terminate called after throwing an instance of|Segfault encountered|" + _CRASH_WORDS + r"|(?:GGML|LLAMA|LLM|GPTJ|RWKV)_ASSERT\b|Assertion .{0,200} failed|"
      # (TensorRT's and TensorRT-LLM's check, its condition in words after it: "[TensorRT-LLM][ERROR] Assertion failed: Must set
      # crossKvCacheFraction for encoder-decoder model")
      r"\bAssertion failed(?=: )|panicked at|"
      r"Fatal Python error|Command buffer execution failed|"
      # (an app's refusal to load, with its reason: LM Studio's "Failed to initialize the context: quantized V cache was
      # requested, but this requires Flash Attention")
      r"^Failed to (?:initialize|load|create) (?:the )?(?:context|model|session)(?=: ))(.*)$",
      _final_error, fallback=True),
    # ---- traceback frames: which component was running
    # a frame line is a traceback even when the paste starts below its "Traceback" header
    P("frame-line", ('", line ',), FRAME_LINE, const(("_traceback", True))),
    # vLLM's worker setting up its device (gpu_worker.py's init_device): where it compares the free memory with
    # gpu_memory_utilization before it loads anything
    # (or the worker process's call of it, "self.worker.init_device()", or the executor's, 'collective_rpc("init_device")',
    # where a paste is cut above the frame)
    P("vllm-init-device-frame", ("in init_device", "worker.init_device()", 'collective_rpc("init_device")'),
      r"gpu_worker\.py\", line \d+, in init_device\b|\bself\.worker\.init_device\(\)|\bcollective_rpc\(\"init_device\"\)",
      const(("oom.hint", "init_device"))),
    # a process choosing its device ("torch._C._cuda_setDevice(device)", "torch.cuda.set_device(local_rank)", the C call
    # "cudaSetDevice"): it creates the CUDA context and places nothing of a model
    P("set-device-frame", ("_cuda_setDevice(", "set_device(", "cudaSetDevice"),
      r"\b_cuda_setDevice\(|\bcuda\.set_device\(|\)\.set_device\(|\bcudaSetDevice\b",
      const(("oom.hint", "device_context"))),
    # Triton's autotuner benchmarking its candidate configs (autotuner.py's _bench, testing.py's do_bench): trial launches
    # with buffers of their own, outside any engine's pool
    P("triton-autotune-frames", ("triton/runtime/autotuner.py", "triton/testing.py"), r"triton/(?:runtime/autotuner|testing)\.py",
      const(("oom.hint", "triton_autotune"))),
    # a native backtrace's numbered frames (TVM's runtime under MLC-LLM: "  1: tvm::runtime::relax_vm::NDArrayCache::Load(...)"):
    # a traceback too, and reading the parameter shards is the load
    # (MLC's own "  7: LoadParams" frame, no namespace, reads the parameters too)
    P("frame-native", (": tvm::", ": mlc::", ": LoadParams"), r"^\s*\d+: (?:(?:tvm|mlc)::[\w:<>]+|LoadParams\b)",
      lambda m: [("_traceback", True)] + ([("_phase", "load_weights")] if re.search(r"NDArrayCache::Load|\bLoadParams\b", m.string) else [])),
    # transformers' generate() setting up its KV cache before the first forward (the frame, or the call as the generate
    # frame's source line where the paste is cut below it): a static cache is allocated whole there
    P("frame-hf-cache-setup", ("_prepare_cache_for_generation",),
      r"\bin _prepare_cache_for_generation\b|^\s*self\._prepare_cache_for_generation\(", const(("_phase", "kv_alloc"))),
    # a native backtrace through the KV cache manager allocating its pools (TensorRT-LLM's C++ runtime:
    # "tensorrt_llm::batch_manager::kv_cache_manager::KVCacheManager::allocatePools(bool) + 61"): the KV step
    P("frame-native-kv-pools", ("allocatePools",), r"\b(?:KVCacheManager|BlockManager)::allocatePools\b", const(("_phase", "kv_alloc"))),
    # an engine building the model through its generic Hugging Face backend (no native class for the architecture):
    # that backend does not shard or quantize the layers the way a native class does, so the model's size at the
    # launch settings understates what it places on each GPU
    P("frame-generic-backend", ("models/transformers.py", "models\\transformers.py"),
      r"(?:vllm[/\\]model_executor|sglang[/\\]srt)[/\\]models[/\\]transformers\.py\", line \d+",
      const(("oom.hint", "generic_model_backend"))),
    # ROCm's BLAS libraries failing to read their kernel file ("rocBLAS error: Cannot read .../TensileLibrary.dat",
    # "rocblaslt error: Could not load .../TensileLibrary_lazy_gfx942.dat"; a runner relaying it, "error: Cannot read
    # /usr/local/lib/ollama/rocm/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : gfx1035"): a build without kernels for this GPU,
    # or the process out of file descriptors; not memory
    P("rocm-blas-library", ("TensileLibrary",), r"(?i)(?:could not load|cannot read) [^\n]{0,300}?([\w.-]*TensileLibrary[\w.-]*)",
      lambda m: [("error.final", f"ROCm's BLAS library could not read its kernel file {m.group(1)}: a build without kernels for this GPU, "
                                 "or the process out of open files (ulimit -n); not memory")]),
    # rocBLAS stopping on a kernel it chose ("rocBLAS error: Tensile solution found, but exception thrown for { a_type: ...")
    # or finding none: a library, build or device fault for this GPU (a message in memory words is left to those readings)
    # (its kernel file unread, or no device for its host: rocm-blas-library's and the install's readings)
    P("rocblas-error", ("rocBLAS error:",), r"\brocBLAS error: (?!Cannot read|Could not (?:load|initialize))([^{\n]{4,120}?)\s*(?:for \{|$)",
      lambda m: [] if MEMORY_WORDS.search(m.group(1)) else [
          ("error.final", f"rocBLAS error: {m.group(1).strip()}: ROCm's BLAS library stopped (a library, build or device fault "
                          "for this GPU), not a lack of memory")]),
    # a SYCL build without the kernel this device needs ("No kernel named _ZTSZZL17rms_norm_f32_sycl... was found")
    P("sycl-no-kernel", ("No kernel named",), r"\bNo kernel named _Z\w+",
      const(("error.final", "SYCL found no kernel for an op on this device (a build without it for this GPU, or a driver "
                            "that cannot load it), not a lack of memory"))),
    # Kubernetes could not place the pod ("FailedScheduling ... 0/1 nodes are available: 1 Insufficient
    # huawei.com/Ascend910B3-memory."): no node has the resource its spec requests free, so it never started
    P("k8s-unschedulable", ("nodes are available",), r"\bnodes are available: (?:[^\n]*?\b)?\d+ Insufficient ([\w/-]+(?:\.[\w/-]+)*)",
      lambda m: [("error.final", f"Kubernetes could not schedule the pod: no node has the {m.group(1)} it requests free; "
                                 "nothing ran out of memory")]),
    # Ray could not place the job's workers: its autoscaler ("Error: No available node types can fulfill resource request
    # {'CPU': 8.0, 'GPU': 8.0}"), Serve ("1 replicas that have taken more than 30s to be scheduled"), vLLM's Ray executor
    # ("Cannot provide a placement group requiring 4.0 GPUs", "The number of required GPUs exceeds the total number of
    # available GPUs in the placement group", or still "Waiting for creating a placement group" after minutes): the cluster
    # lacks what it asks for free (fewer GPUs, a node that did not join, another job holding them); nothing ran
    P("ray-unschedulable", ("No available node types", "to be scheduled", "Cannot provide a placement group", "required GPUs exceeds",
                            "Waiting for creating a placement group"),
      r"\bNo available node types can fulfill resource request|\breplicas? that (?:have|has) taken more than \d+s to be scheduled|"
      r"\bCannot provide a placement group requiring|\bThe number of required GPUs exceeds the total number of available GPUs|"
      r"\bWaiting for creating a placement group of specs for (?:[6-9]\d|\d{3,}) seconds",
      const(("error.final", "Ray could not place the workers: the cluster lacks the free GPUs or resources they ask for; "
                            "nothing ran out of memory"))),
    # Windows' report of a crash on a bad pointer, as a program catching it prints it ("exception: access violation reading
    # 0x0000000000000010"): a crash naming no memory failure (a failed allocation prints its own line first)
    P("access-violation", ("access violation",), r"\baccess violation (reading|writing)(?: location)? (0x[0-9A-Fa-f]+)",
      lambda m: [("error.final", f"an access violation {m.group(1)} {m.group(2)}: the process crashed on a bad pointer, naming no "
                                 "memory failure")]),
    # Hugging Face's hosted Inference API refusing a model over its size for automatic loading ("The model ... is too large
    # to be loaded automatically (16GB > 10GB). Please use Spaces ... or Inference Endpoints"): a service's policy
    P("hf-api-size-limit", ("too large to be loaded automatically",), r"too large to be loaded automatically \(([\d.]+ ?[KMGT]B) > ([\d.]+ ?[KMGT]B)\)",
      lambda m: [("error.final", f"the hosted Inference API loads models up to {m.group(2)} by itself and this one is {m.group(1)}: a "
                                 "service's size policy, not memory that ran out (a dedicated endpoint or a local server runs it)")]),
    # a GPU index past the devices the process sees (more ranks than GPUs, or CUDA_VISIBLE_DEVICES narrower than the
    # launch), wherever the line was garbled by other ranks' output
    P("invalid-device-ordinal", ("invalid device ordinal",), r"\bCUDA error: invalid device ordinal\b",
      const(("error.final", "CUDA error: invalid device ordinal: a GPU index past the devices the process sees (more ranks "
                            "than GPUs, or CUDA_VISIBLE_DEVICES narrower than the launch), not a lack of memory"))),
    # the job converts a checkpoint from one format to another ("python inference/convert.py --hf-ckpt-path ...",
    # "python3 -m llama.convert_llama ..."): it reads and writes the whole model in host RAM by design, placing nothing on a GPU
    P("converter-command", ("convert",), r"\bpython[\d.]*\s+(?:-m\s+)?[\w./-]*\bconvert[\w-]*(?:\.py)?(?:\s|$)",
      const(("oom.hint", "converting"))),
    # the job is quantizing or exporting the model (AutoFP8, AutoAWQ, AutoGPTQ/GPTQModel, GPTQ-for-LLaMa, llm-compressor,
    # NVIDIA ModelOpt/AMMO): it holds the full-precision weights by design, so a quantized checkpoint is no fix for it
    P("frame-quantizer", ("auto_fp8", "awq", "auto_gptq", "gptqmodel", "llmcompressor", "modelopt", "ammo", "AMMO", "fasterquant"),
      r"[/\\](?:auto_fp8|awq[/\\]quantize|auto_gptq|gptqmodel|llmcompressor|modelopt[/\\]torch[/\\]quantization|ammo)[/\\]\S*\.py\", line \d+"
      r"|\bin fasterquant\b|The AMMO optimized model state_dict|\bauto_gptq\.\w+(?:\.\w+)*\] Packing model",
      const(("oom.hint", "quantizing"))),
    P("frame-triton-load", ("_init_handles",), r"triton/(?:compiler|runtime)/\w+\.py\", line \d+, in _init_handles|in _init_handles\b",
      const(("oom.hint", "triton_kernel_load"))),
    # (or a frame in a vision tower's own module file: vLLM's "models/intern_vit.py", transformers' "modeling_siglip.py")
    P("frame-vision-encoder", ("vit_", "vision", "visual", "image_encoder", "ImageEncoder", "encode_images", "image_feature", "forward_image",
                               "multimodal_embeddings", "embed_multimodal", "_process_image_input", "image_inputs", "pixel_values",
                               "image_embeds", "_vit.py", "siglip", "clip.py"),
      r"vit_\w*(?:attn|sdpa|attention)|get_vision_hidden_states|vision_model\b.*forward|visual\.forward|image_encoder\b.*forward|"
      r"ImageEncoder\.\w*forward|\bencode_images\b|get_image_features?\b|\bforward_image\b|get_multimodal_embeddings|embed_multimodal|_process_image_input|"
      r"vision_tower\((?!.*\.to\()|\w+\([^)]*\b(?:image_inputs|pixel_values|image_embeds|vision_embeddings)\b|"
      r"[/\\]models?[/\\](?:\w+[/\\])?(?:modeling_)?(?:\w+_vit|siglip\w*|clip|\w+_vision(?:_model)?)\.py\", line \d+, in (?!(?:load_weights|__init__)\b)",
      const(("oom.hint", "multimodal"), ("oom.hint", "multimodal_encoder"))),
    # a batch of images or video frames as a tensor's shape, channels last or first ("Batch of torch.Size([217, 852, 480, 3])
    # images"): a few dozen at once are the encoder's input, whose activations grow with every frame
    P("mm-image-batch", ("torch.Size([",),
      r"(?i)\b(?:images?|frames?|pixel_values)\b.{0,60}?torch\.Size\(\[(\d+), (?:3, \d{2,5}, \d{2,5}|\d{2,5}, \d{2,5}, 3)\]\)|"
      r"torch\.Size\(\[(\d+), (?:3, \d{2,5}, \d{2,5}|\d{2,5}, \d{2,5}, 3)\]\)\)?\s+(?:images?|frames?)\b",
      lambda m: [("oom.hint", "multimodal"), ("oom.hint", "multimodal_encoder")] if int(m.group(1) or m.group(2)) >= 16 else []),
    # a job that embeds texts (an embeddings endpoint's request, a SentenceTransformer, a RAG app's ingest): its buffers grow
    # with the inputs sent in one batch, which is then the setting to lower
    P("embedding-job", ("mbeddings", "SentenceTransformer", "/api/embed", "Embedding: model=", "vector embedding"),
      r"\"/api/embed(?:dings)?\"|/v1/embeddings\b|\bSentenceTransformer\b|(?i:\bgenerating embeddings\b)|"
      r"\bEmbedding: model=\S+, \d+ inputs\b|\bvector embedding: bounded\b",
      const(("oom.hint", "embedding"))),
    P("mm-request", ("processing image", "image_processor", "<|vision_start|>", "<image>", "image item"),
      r"processing image|<\|vision_start\|>|<image>|\bimage item\b", const(("oom.hint", "multimodal"))),
    # a speech encoder or audio codec running on the input audio (wav2vec2 features, a speech/acoustic tokenizer, a voice
    # conversion, an alignment pass): its activations grow with the clip's length, which is the input to shorten
    P("audio-input", ("wav2vec2", "_process_speech", "acoustic_tokenizer", "speech_tokenizer", "semantic_tokenizer", "process audio",
                      "oice conversion", "log_mel", "mel_spectrogram", "hubert"),
      r"(?i)\bmodeling_wav2vec2\b|\bload wav2vec2 model\b|\b_process_speech\w*|\b(?:acoustic|speech|semantic)_tokenizer\.encode\b|"
      r"^\s*process audio\b|\bvoice conversion (?:pass|failed)\b|\blog_mel_spectrogram\b|\bmodeling_hubert\b",
      const(("oom.hint", "audio_input"))),
    P("kv-quant-dropped", ("quantized kv cache requested but", "kv cache type"),
      r"quantized kv cache requested but flash attention disabled|(?:KV|kv) cache type \w+ (?:is )?not supported.*(?:falling back|using) f16",
      const(("oom.hint", "kv_dtype_fallback"), ("knob.kv_cache_dtype", "f16"))),
    P("frame-turbomind-instance", ("create_model_instance",), r"_?create_model_instance", const(("_phase", "kv_alloc"))),
    P("frame-module-to", ("modules/module.py", "vision_tower.to(", "model.to("),
      r'nn/modules/module\.py", line \d+, in (?:to|_apply|cuda)\b|vision_tower\.to\(|\bmodel\.to\(', const(("_phase", "load_weights"))),
)
