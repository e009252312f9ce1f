"""Host-side failures (OOM killer, exit 137, OOMKilled, Ray's memory monitor, CPU allocator,
mmap ENOMEM, /dev/shm and NCCL shared memory) and look-alikes that are not OOMs."""

from __future__ import annotations

import math
import re
from decimal import Decimal

from oomdoctor.parsers.base import CRASH_SIGNALS, SIZE, Emitted, P, Pattern, const, driver_result, kind, size_of, to_bytes


def _shm_df(m: re.Match[str]) -> Emitted:
    yield "host.shm_total_bytes", to_bytes(m.group(1), m.group(2))
    if m.group(3) is not None and int(m.group(3)) >= 99:  # df's row of /dev/shm at its limit: it ran out
        yield from _shm_short(None)


_NEURON_RUNTIME_PARTS = ("dma rings", "shared scratchpad", "collectives", "model code", "model constants", "runtime")


def _neuron_row(m: re.Match[str]) -> Emitted:
    """The total and the tensors' row; the runtime's own buffers are the rest of the total (a log may print the
    breakdown more than once, so its rows are not added up)."""
    yield "oom.runtime_used_bytes" if m.group(1) == "total" else "oom.runtime_tensors_bytes", to_bytes(m.group(2), m.group(3))


def _minus(signal: int) -> tuple[tuple[str, ...], str]:
    """A launcher reporting its child's return code as Python does, minus the signal that ended it
    ("exits with return code = -9", "exitcode: -7"; a compiler driver's "Compile command returned: -9", "neuronx-cc failed with
    -9"): its prefilter anchors and its regex."""
    anchors = (*(f"code{sep}-{signal}" for sep in (" = ", ": ", "=", " ", "  : ", " : ")),
               *(f"{verb}{sep}-{signal}" for verb in ("returned", "failed with", "exited with") for sep in (": ", " ")))
    return anchors, rf"(?i:(?:return ?code|exit ?code|\breturned|\bfailed with|\bexited with)\s*(?:[=:]\s*)?-{signal}\b)"


_MINUS_9, _MINUS_7 = _minus(9), _minus(7)
_MINUS_CRASH = [_minus(int(sig)) for sig in CRASH_SIGNALS]  # (-4, -8, -11: the child crashed)

# the shell's "Killed" in the locales glibc translates it for (strsignal: zh_CN, ja, de, ru, pt_BR, es); the Chinese and
# Japanese words are ones no sentence ends on but the shell's
_KILLED_CJK = ("已杀死", "強制終了")
_KILLED_LOCALIZED = (*_KILLED_CJK, "Getötet", "Убито", "Morto", "Terminado (killed)")
_KILLED_WORDS = "|".join(re.escape(word) for word in _KILLED_LOCALIZED)
_KILLED_CJK_WORDS = "|".join(_KILLED_CJK)

# the NTSTATUS codes a Windows process ends with, and what each says; None: the host's memory ran out
_NTSTATUS = {
    0xC0000409: ("STATUS_STACK_BUFFER_OVERRUN", "the runtime aborted itself (a failed check or an unhandled error)"),
    0xC0000005: ("STATUS_ACCESS_VIOLATION", "the process crashed on a bad pointer"),
    0xC000001D: ("STATUS_ILLEGAL_INSTRUCTION", "the build uses CPU instructions this CPU lacks (AVX2, AVX-512)"),
    0xC00000FD: ("STATUS_STACK_OVERFLOW", "the process overflowed its stack"),
    0xC0000094: ("STATUS_INTEGER_DIVIDE_BY_ZERO", "the process divided an integer by zero (a bug in its code)"),
    0xC0000135: ("STATUS_DLL_NOT_FOUND", "a library the build needs is missing"),
    0xC06D007E: ("VcppException ERROR_MOD_NOT_FOUND", "a library it loads on first use is missing (a delay-loaded DLL: Vulkan's, CUDA's)"),
    0xC0000017: ("STATUS_NO_MEMORY", None),
    0xC000012D: ("STATUS_COMMITMENT_LIMIT", None),
}


def _ntstatus_spellings(code: int) -> tuple[str, ...]:
    """How launchers print an NTSTATUS: hex, unsigned and signed 32-bit, unsigned 64-bit (a sign-extended
    int), and that number as a JavaScript double prints it (LM Studio's "Exit code: 18446744072635812000")."""
    u64 = (1 << 64) - (1 << 32) + code
    return (f"0x{code:08x}", str(code), str(code - (1 << 32)), str(u64), str(int(Decimal(repr(float(u64))))))


_SPELLINGS = [(form, code) for code in _NTSTATUS for form in _ntstatus_spellings(code)]
# (a double keeps 53 bits: 0xC0000005 and 0xC0000017 print as the same number, which then names neither)
_NTSTATUS_BY_SPELLING = {form: code for form, code in _SPELLINGS if sum(f == form for f, _ in _SPELLINGS) == 1}
# (the prefilter's literals: the first five characters of every spelling, hex in both cases)
_EXIT_ANCHORS = tuple(sorted({form[:5] for form, _ in _SPELLINGS} | {form[:5].replace("0xc", "0xC") for form, _ in _SPELLINGS}))


# (and by name, as a launcher's analysis prints it: "System exit code name: STACK_BUFFER_OVERRUN")
_NTSTATUS_BY_NAME = {name.removeprefix("STATUS_"): code for code, (name, _) in _NTSTATUS.items()}


def _windows_exit(m: re.Match[str]) -> Emitted:
    """A Windows process's exit status: an abort, a crash or a missing library is not memory; STATUS_NO_MEMORY
    and the commit limit are the host's RAM and page file."""
    code = _NTSTATUS_BY_SPELLING.get(m.group(1).lower())
    yield from _ntstatus(code)


def _ntstatus(code: int | None) -> Emitted:
    if code is None:
        return
    name, meaning = _NTSTATUS[code]
    if meaning is None:
        yield from _host_alloc()
    else:
        yield "error.final", f"exit status 0x{code:08X} ({name}): {meaning}; the status itself names no memory failure"


# Go's names of the crash signals a child can end on (os/exec's "signal: floating point exception")
_GO_SIGNALS = {"floating point exception": "8", "illegal instruction": "4"}


# a runtime allocation call's own words for running out, shortly after the call's name
_RAN_OUT = r"[^\n]{0,60}?(?:out of memory|ErrorMemoryAllocation|ErrorOutOfMemory)"


# a vocabulary's size: an array this wide is a row of logits per position (Llama 2's 32,000 to Gemma's 262,144)
_VOCAB_WIDTH = range(30_000, 300_000)


def _numpy_alloc(m: re.Match[str]) -> Emitted:
    """numpy refusing an array: host RAM, its size; an array of logits for every position of a context (rows a
    context's length, columns a vocabulary's, of floats) is sized by that context, which is then the setting to lower."""
    yield from _host_alloc(to_bytes(m.group(1), m.group(2)))
    if m.group(3) and int(m.group(3)) >= 2048 and int(m.group(4)) in _VOCAB_WIDTH:
        yield "knob.max_model_len", int(m.group(3))


def _host_alloc(requested: int | None = None) -> Emitted:
    """An allocation refused from the host's RAM, with its size where the message gives one."""
    yield "oom.kind", "host_alloc_failed"
    yield "oom.cpu_alloc_failed", True
    if requested is not None:
        yield "oom.requested_bytes", requested


_DRIVER_MEMORY = re.compile(r"(?i)OUT_?OF_?MEMORY|MemoryAllocation")  # a status name that is out of memory


def _driver_status(m: re.Match[str]) -> Emitted:
    """A CUDA or HIP status name as a binding prints it ("DriverError(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, ...)"),
    with the driver's number where one follows ("CUDA_ERROR_UNKNOWN (code: 700)"): the number decides."""
    name, code = m.group(1), m.group(2)
    if code is not None:
        yield from driver_result(code, "the GPU driver", name)
    elif _DRIVER_MEMORY.search(name):
        yield "oom.kind", "cuda_error_oom"
    elif not name.upper().endswith("UNKNOWN"):
        yield "error.final", f"the GPU driver returned {name}: not out of memory"


_FREE_CELL = re.compile(r"([\d.]+)([KMGTP]i?|B)?")


def _free_cells(first: str, second: str) -> tuple[float, float, bool] | None:
    """Two cells of one row of `free` as numbers, and whether they are bytes: `free -h` gives each cell its own
    unit; plain numbers share the row's one (KiB, or -m/-g's). None where the two do not read alike."""
    a, b = _FREE_CELL.fullmatch(first), _FREE_CELL.fullmatch(second)
    if a is None or b is None or (a.group(2) is None) != (b.group(2) is None):
        return None
    if a.group(2) is None:
        return float(a.group(1)), float(b.group(1)), False
    return to_bytes(a.group(1), a.group(2).rstrip("i")), to_bytes(b.group(1), b.group(2).rstrip("i")), True


def _free_row(m: re.Match[str]) -> Emitted:
    """`free`'s Mem row (total used free shared buff/cache available): how full RAM is."""
    cells = _free_cells(m.group(1), m.group(2))
    if cells is None:
        return
    t, a, in_bytes = cells
    if in_bytes:
        yield "host.ram_total_bytes", int(t)
        yield "host.ram_available_bytes", int(a)
    if t > 0 and a <= t:
        yield "host.ram_used_ratio", round(1 - a / t, 4)


def _swap_row(m: re.Match[str]) -> Emitted:
    """`free`'s Swap row (total used free): how much of the swap is in use."""
    cells = _free_cells(m.group(1), m.group(2))
    if cells is None:
        return
    t, u, in_bytes = cells
    if in_bytes:
        yield "host.swap_total_bytes", int(t)
    if t > 0 and u <= t:
        yield "host.swap_used_ratio", round(u / t, 4)


def _platform_limit(m: re.Match[str]) -> Emitted:
    yield "oom.kind", "killed"
    size, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    if size:
        yield "host.cgroup_limit_bytes", to_bytes(size, unit + "iB")


def _cudamalloc_size(m: re.Match[str]) -> Emitted:
    """A cudaMalloc refused, its size stated: out of memory under status 2 or none stated, else the status's own error."""
    status = m.group(2) or m.group(3)
    if status and status != "2":
        yield from driver_result(status, "cudaMalloc")
        return
    yield "oom.kind", "cuda_error_oom"
    yield "oom.requested_bytes", int(m.group(1) or m.group(4))


def _cgroup_at_limit(m: re.Match[str]) -> Emitted:
    usage, limit, failed = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if failed and usage >= limit * 0.98:  # (an unlimited cgroup prints a limit near 2**63)
        yield "oom.kind", "kernel_oom_kill"
        yield "host.cgroup_limit_bytes", limit << 10


# element sizes of TensorFlow's dtype names
_TF_DTYPE_BYTES = {"float": 4, "float32": 4, "half": 2, "float16": 2, "bfloat16": 2, "double": 8, "float64": 8,
                   "int32": 4, "int64": 8, "int16": 2, "int8": 1, "uint8": 1, "bool": 1, "complex64": 8, "complex128": 16}


def _tf_tensor_oom(m: re.Match[str]) -> Emitted:
    # (the allocator's name, or where a paste cut it or a release left it out, the device the tensor was for)
    allocator = (m.group(4) or "").lower()
    host = allocator.startswith(("cpu", "mklcpu")) if allocator else "device:cpu" in m.group(3).lower()
    yield "oom.kind", "host_alloc_failed" if host else "cuda_error_oom"
    if host:
        yield "oom.cpu_alloc_failed", True
    dims = [int(d) for d in re.findall(r"\d+", m.group(1))]
    size = _TF_DTYPE_BYTES.get(m.group(2).lower())
    if dims and size:
        requested = size * math.prod(dims)
        yield "oom.requested_bytes", requested
        if len(dims) >= 3 and requested >= _TF_RUNTIME_TENSOR and 2 not in dims:
            # a tensor of three or more dimensions this large is a batch's (attention scores [3,16,1024,1024], a
            # decoder's [512,10,50,512]): a model's weights are matrices, its small conv kernels aside (not a stacked
            # key/value pair, GPT-2's cache [batch, layers, 2, heads, positions, head_dim], which the earlier steps weigh);
            # a step the log had reached (a server's warm-up batch) is finer
            yield "_phase_umbrella", "forward"


# the size from which a tensor of three or more dimensions is a pass's, not a weight (conv kernels are megabytes)
_TF_RUNTIME_TENSOR = 128 << 20


_TF_LOAD_OPS = re.compile(r"(?i)Variable|Assign|Initiali[sz]er|random_(?:uniform|normal)|truncated_normal|Restore|ReadVariableOp|^save/")
_TF_SAMPLING_LOOP = re.compile(r"(?i)\bsampl\w*/while/")


# the Paddle ops (snake_case, "[operator < fill_constant > error]") and phi kernels (CamelCase, "phi::FullKernel<...>") that
# make a parameter: a load, not a pass over the input
_PADDLE_LOAD_OPS = re.compile(r"load\w*|assign\w*|fill_constant|\w*_random")
_PADDLE_LOAD_KERNELS = re.compile(r"(?i)full\w*|assign\w*|\w*random\w*|\w*gaussian\w*|uniform\w*")


def _paddle_step(op: str, loads: re.Pattern[str] = _PADDLE_LOAD_OPS) -> str:
    return "load_weights" if loads.fullmatch(op) else "forward"


def _tf_node(m: re.Match[str]) -> Emitted:
    node = m.group(1) or m.group(2)
    if _TF_SAMPLING_LOOP.search(node):
        # (a step of the sampling loop appends one token's keys and values: small for one sequence, large for a batch of
        # many; the step alone does not say which account filled the card)
        return
    yield "_phase", "load_weights" if _TF_LOAD_OPS.search(node) else "forward"


def _hami_oom(m: re.Match[str]) -> Emitted:
    held, limit = int(m.group(1)), int(m.group(2))
    if held >= 1 << 63:
        yield "oom.kind", "bookkeeping_bug"
        return
    yield "oom.kind", "cuda_error_oom"
    yield "oom.gpu_total_bytes", limit


_EXHAUSTED = re.compile(r"(?i)exhausted|out of memory|no memory")


def _iogpu_panic(message: str, where: str) -> Emitted:
    if "IOGPU" in message + where and not _EXHAUSTED.search(message):
        at = f" at {where}" if where else ""
        yield "error.final", (f"the macOS kernel panicked in its GPU driver's memory bookkeeping ({message}{at}): a driver fault "
                              "(a runtime release or heavy unified-memory pressure triggers it); no allocation failed")


def _crashed(what: str, sig: str) -> Emitted:
    """A process ended by a crash signal (SIGILL, SIGFPE, SIGSEGV), as the line names it: not a kill for memory."""
    yield "error.final", f"{what}: the process crashed ({CRASH_SIGNALS[sig]}), it was not killed for memory"


# the signal the kernel sends for each fault it reports in a trap line
_TRAP_SIGNAL = {"general protection fault": "11", "segfault": "11", "invalid opcode": "4", "divide error": "8"}


# a RAM-backed filesystem (a container's /dev/shm, a tmpfs /tmp) is a fraction of the host's RAM; past this it is a disk
_TMPFS_MAX = 64 << 30


def _ray_session_full(m: re.Match[str]) -> Emitted:
    def amount(number: str, unit: str | None) -> int:
        return to_bytes(number, unit) if unit else int(float(number))

    available, capacity = amount(m.group(1), m.group(2)), amount(m.group(3), m.group(4))
    if capacity > _TMPFS_MAX:
        yield "oom.kind", "disk_full"
        yield "host.disk_total_bytes", capacity
        return
    yield "host.shm_total_bytes", capacity
    if not available:  # (a RAM-backed one with room left is a warning: it has not run out)
        yield "oom.kind", "shm_exhausted"


def _shm_short(requested: int | None) -> Emitted:
    """/dev/shm ran out, with the size asked for where the message states it."""
    yield "oom.kind", "shm_exhausted"
    if requested:
        yield "oom.shm_requested_bytes", requested


def _shm_exhausted(m: re.Match[str]) -> Emitted:
    """/dev/shm ran out, the bytes asked for in the message's first group (where it states them)."""
    return _shm_short(int(m.group(1)) if m.group(1) else None)


# a watchdog's own reason for a kill: the process was idle past its limit ("... no activity for 120 seconds")
_WATCHDOG_IDLE = r"\bno activity for \d+ ?s"


PATTERNS: tuple[Pattern, ...] = (
    # a launcher's own survey before it loads ("Detected Available RAM: 2574 MB", koboldcpp; "Auto-detected
    # available RAM: 8000 MB"): what the host had free for the model
    P("stated-available-ram", ("Available RAM:", "available RAM:"), r"\b[Aa]vailable RAM:\s*(\d[\d.]*\s?[KMGT]i?B)\b",
      lambda m: [("host.ram_available_bytes", v) for v in (size_of(m.group(1)),) if v]),
    # ---- the kernel and container runtimes
    # (a paste may elide the pid: "Killed process … (VLLM::EngineCor)", "Killed process <pid> (python)")
    P("kernel-oom-kill", ("Out of memory: Killed process", "Killed process", "Out of memory: Kill process", "out of memory: Kill process"),
      # (older kernels capitalise it: "Out of Memory: Killed process 8366405 (photoprism)"; before 4.x they chose first:
      # "Out of memory: Kill process 7248 (python3) score 266 or sacrifice child")
      r"(?:Out of [Mm]emory|Memory cgroup out of memory): Kill(?:ed)? process (?:(\d+)|[^\s(]{1,8})?\s*\(([^)]+)\)",
      lambda m: [("oom.kind", "kernel_oom_kill"), ("host.kernel_oom_kill", m.group(0)[:200]), ("oom.exit_signal", "SIGKILL")]),
    # a cluster's per-user memory watchdog ("Killed process marian (PID: 193038) of user alice" over "User was using total
    # 21844M, and had requested ram_free=9000M"): a kill for RAM over what the job asked for
    P("user-memory-watchdog", ("Killed process ",), r"\bKilled process \S+ \(PID: \d+\) of user\b", kind("killed")),
    # the kernel's report of a memory cgroup (a container, a pod) at its limit, printed before it kills a task in it:
    # "memory: usage 131072kB, limit 131072kB, failcnt 15691"
    P("cgroup-at-limit", ("kB, limit ",), r"\bmemory: usage (\d+)kB, limit (\d+)kB, failcnt (\d+)", _cgroup_at_limit),
    # Android's low-memory killer daemon ending processes because RAM and swap ran low:
    # "lowmemorykiller lmkd I Kill 'com.example' (15964), uid 10137, oom_score_adj 500 to free 92212kB rss, ...; reason: low watermark is breached"
    P("android-lmkd-kill", ("lowmemorykiller", "lmkd"), r"(?:lowmemorykiller|\blmkd\b).{0,80}\bKill '[^']+' \(\d+\),.{0,200}to free \d+kB",
      kind("kernel_oom_kill", ("oom.exit_signal", "SIGKILL"))),
    # macOS's memory-pressure report (a JetsamEvent, "bug_type": "298", with "largestProcess" and "memoryStatus"): the
    # system ran out of memory (on Apple silicon, the RAM the GPU shares) and jetsam killed processes to free it
    P("macos-jetsam-event", ('"bug_type": "298"', '"bug_type":"298"'), r'"bug_type":\s*"298"',
      kind("kernel_oom_kill", ("oom.exit_signal", "SIGKILL"), ("oom.hint", "jetsam"))),
    # iOS ending an app over its memory limit, as Xcode's debugger and the crash report say it ("Terminated due to memory
    # issue", "The app ... has been killed by the operating system because it is using too much memory", "EXC_RESOURCE
    # (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=6144 MB)"): jetsam, the process's RAM over the cap
    # the OS gives an app; the GPU shares that RAM, so a model too large for the device shows itself this way
    # (weights-unified-memory)
    P("ios-jetsam-kill", ("Terminated due to memory", "because it is using too much memory", "RESOURCE_TYPE_MEMORY"),
      r"Terminated due to memory (?:issue|pressure)|killed by the operating system because it is using too much memory|"
      r"EXC_RESOURCE\W+RESOURCE_TYPE_MEMORY\b",
      kind("kernel_oom_kill", ("oom.exit_signal", "SIGKILL"), ("oom.hint", "jetsam"), ("oom.hint", "unified_memory"))),
    P("kernel-oom-invoked", ("invoked oom-killer", "oom-kill:"), r"invoked oom-killer|oom-kill:constraint", kind("kernel_oom_kill")),
    # the OOM killer's table of the tasks it weighed ("[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents
    # oom_score_adj name", then one row per task: "[   2665]     0  2665    55756      339    77824       68     0 crond");
    # the kernel prints it only when it is about to kill for memory, so a paste of its rows alone says the same
    P("kernel-oom-task-table", ("oom_score_adj name", "]  ", "] 1", "] 2", "] 3", "] 4", "] 5", "] 6", "] 7", "] 8", "] 9"),
      r"\[\s*pid\s*\]\s+uid\s+tgid\s+total_vm\s+rss\b.*\boom_score_adj\s+name\b|"
      r"^(?:\[[^\]]*\]\s*)?\[\s*\d+\]\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+-?\d+\s+\S+\s*$",
      kind("kernel_oom_kill", ("oom.exit_signal", "SIGKILL"))),
    # Kubernetes' node event for the kernel's kill ("Warning  SystemOOM  node/...  System OOM encountered, victim
    # process: llama-server"): the node's RAM, not the pod's limit (that one is OOMKilled)
    P("k8s-system-oom", ("System OOM encountered",), r"System OOM encountered",
      kind("kernel_oom_kill", ("oom.exit_signal", "SIGKILL"))),
    # the kernel's reaper freeing a killed task's memory ("oom_reaper: reaped process 2583 (python)"): a kill just happened
    P("kernel-oom-reaper", ("reaped process",), r"oom[_ ]reaper: reaped process \d+\s*\(", kind("kernel_oom_kill", ("oom.exit_signal", "SIGKILL"))),
    # Slurm's step daemon relaying the kernel's kill of a task in its cgroup
    # ("Detected 1 oom-kill event(s) in StepId=27501792.batch cgroup. Some of your processes may have been killed by the cgroup
    # out-of-memory handler.")
    P("slurm-oom-kill", ("oom_kill event", "oom-kill event"), r"Detected \d+ oom[_-]kill events?(?:\(s\))? in", kind("kernel_oom_kill", ("oom.exit_signal", "SIGKILL"))),
    # (macOS and BSD shells: "Killed: 9   python train.py"; a markdown paste keeps its backticks: "`Killed`", or its
    # bold: "268385 **Killed   python eval.py"; glued to a progress bar the kill cut: "model.layers.25:  77%|█████Killed",
    # "0/2 [00:00<?, ?it/s]zsh: killed     python txt2image.py"; over a counter the program kept rewriting: "Killed(282 / 283)")
    # (or to a timer or a "..." the program had not ended: "8%  1/13 0:00:01Killed", "Loading pipeline components...zsh:
    # killed     ./webui.sh"; zsh's job line whose "[1]" the unended line took: "60190 killed     python main.py"; a
    # launcher's own word for it, alone on its line: "KILLED")
    P("killed-line", ("Killed", "killed", "KILLED"), r"^\s*`?[$#>]?\s*[Kk]illed\.?`?\s*$|^\s*KILLED\s*$|^\s*Killed\(\d+ ?/ ?\d+\)\s*$|[\]|%\u2580-\u259f]\s*[Kk]illed\.?\s*$|"
      r"\dKilled\s*$|\s\d+\s+(?:\*\*)?[Kk]illed(?:\s+\S|\s*$)|^\d+\s+killed\s{2,}\S|^\[\d+\][+-]?\s+(?:\d+\s+)?[Kk]illed\b|\[\d+\]\s+\d+ killed\s+\S|"
      r"\bKilled: 9\b|(?:^|[\]|%\u2580-\u259f]\s*|\.\.\.|…)[\"'`]?(?:zsh|bash|sh|fish): killed\s",
      kind("killed", ("oom.exit_signal", "SIGKILL"))),
    # the shell's "Killed" in the user's locale (glibc's strsignal: zh_CN, de, ja, ru, pt_BR, es), alone on its line or in a job line
    # (and after a program's unfinished progress line, which the shell's word ends: "Loading model... Killed", or a progress
    # bar's: "0/1 [00:00<?, ?it/s]已杀死"; and the script's own report of its child: "run.sh: 行 30: 23195 已杀死"; the Chinese
    # and Japanese words, which no sentence ends on but the shell's, after whatever the program left unended: "...issue.rm) 已杀死")
    P("killed-line-localized", (*_KILLED_LOCALIZED, "Killed"),
      rf"^\s*[$#>]?\s*(?:{_KILLED_WORDS})\s*$|^\[\d+\][+-]?\s+(?:\d+\s+)?(?:{_KILLED_WORDS})(?:\s|$)|(?:{_KILLED_CJK_WORDS})\s*$|"
      rf"(?:\.\.\.|…)\s*(?:Killed|{_KILLED_WORDS})\s*$|[\]|%\u2580-\u259f]\s*(?:{_KILLED_WORDS})\s*$|"
      rf"\s\d+\s+(?:{_KILLED_WORDS})(?:\s|$)",
      kind("killed", ("oom.exit_signal", "SIGKILL"))),
    # (not a launcher's advice about a code it may print: SGLang's "Rank 0 scheduler died during initialization (exit code:
    # -3). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer.", where the code it printed is the one to read)
    # (and a parent's report of its child's SIGCHLD, as Jittor prints it: "si_code: 2 si_status: 9", killed by signal 9)
    # (and PHP's Symfony Process quoting the number: 'The process has been signaled with signal "9".')
    # (not a watchdog's kill that says why on the same line: "signal: killed, output: init process exited due to no
    # activity for 120 seconds")
    P("signal-killed", ("signal: killed", "signal: Killed", "signal 9", 'signal "9"', "SIGKILL", "si_status: 9"),
      r"^(?!.*\(\d\) The process is killed by SIGKILL)(?!.*\b[Ii]f (?:the )?exit code is -9\b)(?!.*" + _WATCHDOG_IDLE + ")"
      r".*(?:signal: [Kk]illed|signal \"?9\b\"?|SIGKILL\b(?! handler)|"
      r"\bsi_code: 2 si_status: 9\b)",
      kind("killed", ("oom.exit_signal", "SIGKILL"))),
    # ... which is a timeout: the process was idle past its watchdog's limit
    P("watchdog-kill", ("no activity for",), r"signal: [Kk]illed\b.{0,200}?" + _WATCHDOG_IDLE + r"\w*",
      lambda m: [("error.timeout", m.group(0)[:300])]),
    P("exit-137", ("code 137", "status 137", "(137)", "code: 137", "code=137", "Code: 137", "exit 137", "137 (", "exitCode", "Exit Code"),
      r"(?i)(?:exit(?:ed)?(?: with)?(?: code| status)?|code|status|exitCode)[\s:=(]+137\b",
      kind("exit_137", ("oom.exit_signal", "137"))),
    # exit code 132, 136, 139 (128 + SIGILL, SIGFPE, SIGSEGV): the process crashed; a kill for memory is 137
    P("exit-crash", tuple(f"{w}{c}" for c in ("132", "136", "139") for w in ("code ", "status ", "code: ", "code=", "Code: ", "ExitCode\": ", "exit ")),
      r"(?i)(?:exit(?:ed)?(?: with)?(?: code| status)?|code|status|exitCode\"?)[\s:=(]+(13[269])\b",
      lambda m: _crashed(f"exit code {m.group(1)}", str(int(m.group(1)) - 128))),
    # a Windows process's NTSTATUS exit code, in any of the spellings launchers print (and Go's runtime reporting the
    # exception it died on: "Exception 0xc0000005 0x0 0x0 0x7ff..." in an Ollama runner's crash)
    P("windows-exit-name", ("exit code name:",), r"\bexit code name: (?:STATUS_)?([A-Z][A-Z_]+)\b",
      lambda m: _ntstatus(_NTSTATUS_BY_NAME.get(m.group(1)))),
    P("windows-exit-status", _EXIT_ANCHORS,
      r"(?i)(?:exit(?:ed)?(?: with)?(?: code| status)?|code|status|\bexception)[\s:=(]+(0x[0-9a-f]{8}|-?\d{10,20})\b", _windows_exit),
    # a launcher's return code -9: its child's SIGKILL
    P("return-code-minus-9", _MINUS_9[0], _MINUS_9[1], kind("killed", ("oom.exit_signal", "SIGKILL"))),
    # (cog's "Prediction failed for an unknown reason. It might have run out of memory? (exitcode -11)")
    P("return-code-crash", tuple(a for anchors, _ in _MINUS_CRASH for a in anchors), "|".join(rx for _, rx in _MINUS_CRASH),
      lambda m: [f for sig in re.findall(r"-(\d+)\b", m.group(0))[-1:] for f in _crashed(f"return code -{sig}", sig)]),
    # a supervisor reporting the signal that ended its service ("Service exited with code 256 (by signal 4)",
    # "terminated by signal 11"): a crash, not a kill for memory
    # (and a native crash report naming its signal, Android's tombstone "signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr
    # 0x258", "Fatal signal 11 (SIGSEGV)": a crash at an address)
    P("signal-crash", ("by signal ", "(SIGSEGV)", "(SIGILL)", "(SIGFPE)"),
      r"\b(?:exited|terminated|killed|stopped)\b.{0,40}\bby signal (4|8|11)\b|\bsignal (4|8|11) \((?:SIGILL|SIGFPE|SIGSEGV)\)",
      lambda m: _crashed(f"signal {m.group(1) or m.group(2)}", m.group(1) or m.group(2))),
    # macOS's report of a process that touched memory it had no mapping for (a crash report's "Exception Type:
    # EXC_BAD_ACCESS (SIGSEGV)", lldb's "stop reason = EXC_BAD_ACCESS (code=1, address=0x5868)", "EXC_BAD_ACCESS -
    # KERN_INVALID_ADDRESS at 0x8"): a crash at an address; a kill for memory is jetsam's SIGKILL, not this
    P("macos-bad-access", ("EXC_BAD_ACCESS",), r"\bEXC_BAD_ACCESS\b", lambda m: _crashed("EXC_BAD_ACCESS", "11")),
    # the kernel's own report of a process it stopped for a fault (dmesg: "traps: ld.so[59393] general protection fault ip:...",
    # "traps: python[12] trap invalid opcode ip:...", "llama-server[80906]: segfault at 204803fe0 ip ..."): a crash, not a kill
    # for memory (the OOM killer's lines say "Out of memory: Killed process")
    P("kernel-trap", ("general protection fault", "trap invalid opcode", "trap divide error", "segfault at "),
      # (a paste may elide the pid and the address: "python[...]: segfault at 0 ip ...ade46b")
      r"\btraps: \S+\[\d+\] (?:(general protection fault)|trap (invalid opcode)|trap (divide error))\b|\S+\[(?:\d+|\.\.\.|…)\]: (segfault) at [0-9a-fx]+ ip\b",
      lambda m: _crashed(f"the kernel's trap ({m.group(m.lastindex)})", _TRAP_SIGNAL[m.group(m.lastindex)])),
    # Go's name for the signal that ended a child ("llama-server process has terminated: signal: floating point
    # exception (core dumped)"): an arithmetic fault or an instruction this CPU lacks, not a kill for memory
    P("signal-crash-named", tuple(f"signal: {name}" for name in _GO_SIGNALS),
      r"\bsignal: (" + "|".join(_GO_SIGNALS) + r")\b",
      lambda m: _crashed(f"signal: {m.group(1)}", _GO_SIGNALS[m.group(1)])),
    # a child that stopped itself ("llama runner process has terminated: signal: aborted (core dumped)") with nothing
    # after it: a failed check (a model architecture this build cannot run, an assertion). ggml's own out-of-memory
    # aborts too, but Ollama then relays its error on the line ("... (core dumped) CUDA error: out of memory"), which
    # the memory patterns read; a bare abort names no memory failure
    P("signal-aborted-bare", ("signal: aborted",), r"\bprocess has terminated: signal: aborted(?: \(core dumped\))?[\s\"'.]*$",
      const(("error.final", "the runner aborted (SIGABRT: a failed check or assertion) and relayed no error: no memory failure is named"),
            ("oom.hint", "runner_aborted_silently"))),
    # a native crash report of an abort (Android's tombstone "Fatal signal 6 (SIGABRT), code -1 (SI_QUEUE)", "signal 6
    # (SIGABRT)" over a backtrace through ggml_abort): a failed check or assertion; an allocation that failed says so on its
    # own line (std::bad_alloc, "failed to allocate"), which the memory patterns read, and a kill for memory is SIGKILL
    P("signal-abort-report", ("(SIGABRT)",), r"\bsignal 6 \(SIGABRT\)",
      const(("error.final", "signal 6 (SIGABRT): the process aborted on a failed check or assertion; no memory failure is named"))),
    P("systemd-kill", ("status=9/KILL", "killed by the OOM killer", "oom-kill"), r"status=9/KILL|killed by the OOM killer|Failed with result 'oom-kill'",
      kind("kernel_oom_kill", ("oom.exit_signal", "SIGKILL"))),
    # a WebAssembly build's runtime (Emscripten) out of its linear memory: "Aborted(OOM)", "Cannot enlarge memory arrays to
    # size N bytes (OOM)", older builds' "Cannot enlarge memory arrays. Either (1) compile with -s TOTAL_MEMORY=X ...": the
    # module's heap in the browser's or Node's process, host memory whatever device it drives, capped where it was compiled
    P("wasm-heap-oom", ("Aborted(OOM)", "Cannot enlarge memory arrays"), r"\bAborted\(OOM\)|\bCannot enlarge memory arrays(?: to size (\d+) bytes)?",
      lambda m: [*_host_alloc(int(m.group(1)) if m.group(1) else None), ("oom.hint", "managed_heap")]),
    P("python-memoryerror", ("MemoryError",), r"(?<![A-Za-z])MemoryError\b|\b_ArrayMemoryError\b", kind("host_alloc_failed", ("oom.cpu_alloc_failed", True))),
    # Rust's default allocation-error handler ("memory allocation of 194493608 bytes failed", then an abort): the
    # process's heap, host RAM (a Rust server, tokenizer or app around a GPU engine)
    P("rust-alloc-failed", ("memory allocation of ",), r"\bmemory allocation of (\d+) bytes failed\b",
      lambda m: _host_alloc(int(m.group(1)))),
    # numpy's own ("Unable to allocate 561. MiB for an array with shape ..."): host RAM, with the array's size
    # (llama-cpp-python's logits for every position of the context: "62.6 GiB for an array with shape (131072, 128256)")
    P("numpy-alloc", ("for an array",), r"Unable to allocate ([\d.]+) ?([KMGTP]i?B) for an array(?: with shape \((\d+), (\d+)\) and data type float\d*)?",
      _numpy_alloc),
    # (not a container's state that says it was not: `"OOMKilled": false`); the runtime reporting the cgroup's OOM
    # killer is the kernel saying it killed for memory
    P("oomkilled", ("OOMKilled",), r"OOMKilled(?![\"']?\s*[:=]\s*false)",
      const(("oom.kind", "exit_137"), ("oom.kind", "kernel_oom_kill"), ("oom.hint", "container"))),
    # a supervisor or a platform reporting its child killed for memory: Istio's pilot-agent after Envoy's SIGKILL ("Envoy may
    # have been out of memory killed. Check memory usage and limits"), a container platform's event ("exit 137  OutOfMemoryError:
    # container killed due to memory usage")
    P("supervisor-memory-kill", ("out of memory killed", "container killed due to memory"),
      r"\bmay have been out of memory killed\b|\bcontainer killed due to memory usage\b", const(("oom.kind", "killed"), ("oom.hint", "container"))),
    # the kubelet evicting a pod because the node ran low on RAM ("The node was low on resource: memory. Container
    # plugin-daemon was using 11423936Ki, which exceeds its request of 0."): its containers are stopped for memory
    P("kubelet-memory-eviction", ("low on resource: memory",), r"\blow on resource: memory\b", kind("killed")),
    # the kubelet evicting a pod for disk (an emptyDir past its sizeLimit, ephemeral storage): its containers are
    # stopped, exit 137 included, with no memory short
    P("kubelet-storage-eviction", ("Usage of EmptyDir volume", "ephemeral local storage", "local ephemeral storage",
                                   "low on resource: ephemeral-storage"),
      r'Usage of EmptyDir volume "[^"]*" exceeds the limit|ephemeral local storage usage exceeds|exceeded its local ephemeral storage limit|'
      r"low on resource: ephemeral-storage", kind("storage_eviction")),
    # (Ray's exception for it, also when a paste cuts its name: "ray.exceptions.OutOfMe")
    # (Serve's health check says it of its replicas' workers: "14 worker(s) were killed due to the node running low on memory")
    P("ray-oom", ("killed due to memory pressure", "Ray killed this worker", "node running low on memory", "ray.exceptions.OutOfMe"),
      r"killed due to memory pressure \(OOM\)|exceeds the memory usage threshold of [\d.]+\. Ray killed this worker|(?:was|were) killed due to the node running low on memory|"
      r"ray\.exceptions\.OutOfMe(?:moryError\b|m?o?r?y?E?r?r?o?r?\s*$)",
      kind("ray_oom_kill")),
    # rows of the "top memory users" table Ray prints only when its memory monitor kills a task
    P("ray-memory-table", ("ray::",), r"^(?:\([^)]*\) )?\d+\s+[\d.]+\s+ray::\w+", kind("ray_oom_kill")),
    # a user-space OOM killer that acts before the kernel's: earlyoom ("sending SIGTERM to process 322603 ... VmRSS
    # 29931 MiB") and systemd-oomd ("Killed /user.slice/... due to memory pressure for ... being 58.85% > 50.00%", and
    # systemd's "app.scope: systemd-oomd killed 12 process(es) in this unit.")
    P("userspace-oom-killer", ("earlyoom", "systemd-oomd"),
      r"\bearlyoom(?:\[\d+\])?: sending SIG(?:TERM|KILL) to process \d+|\bsystemd-oomd(?:\[\d+\])?: Killed \S+ due to (?:memory pressure|memory used|swap used)|"
      r"\bsystemd-oomd killed \d+ process\(es\)",
      kind("killed")),
    # a managed platform stopping an instance past its memory limit: Cloud Run ("Memory limit of 2048M exceeded with 2126M
    # used."), Hugging Face Spaces ("Memory limit exceeded (16Gi)"), Heroku ("Error R14 (Memory quota exceeded)", R15 "vastly
    # exceeded"): the container's RAM, not a device's
    P("platform-memory-limit", ("Memory limit of", "Memory limit exceeded (", "(Memory quota"),
      r"\bMemory limit of ([\d.]+) ?([KMGT])i?B? exceeded with [\d.]+ ?[KMGT]i?B? used|\bMemory limit exceeded \(([\d.]+) ?([KMGT])i?B?\)|"
      r"\bError R1[45] \(Memory quota (?:vastly )?exceeded\)", _platform_limit),
    # Dask's nanny restarting a worker past its memory budget ("Worker tcp://127.0.0.1:34349 (pid=342998) exceeded 95%
    # memory budget. Restarting..."): a kill for host RAM by the pipeline's own monitor
    P("dask-nanny-restart", ("memory budget",), r"\bexceeded \d+% memory budget\. Restarting", kind("killed")),
    P("tvm-static-plan", ("storage allocation failure",), r"storage allocation failure, attempted to allocate \d+ at offset \d+ in region that is \d+\s?bytes",
      kind("static_plan_overflow")),
    # (the same message cut before its list of causes: "... by an unexpected system error. ... Worker exit type: SYSTEM_ERROR")
    P("ray-worker-died", ("killed by SIGKILL by OOM killer", "Worker exit type: SYSTEM_ERROR"),
      r"potential root causes\. \(1\) The process is killed by SIGKILL by OOM killer|"
      r"A worker died or was killed while executing a task by an unexpected system error\..*Worker exit type: SYSTEM_ERROR",
      kind("ray_worker_died")),
    # Python's process pool after one of its workers ended without raising ("A process in the process pool was terminated
    # abruptly while the future was running or pending.", "A child process terminated abruptly, the process pool is not
    # usable anymore"): a worker killed from outside, which for a pool of model workers is most often the OOM killer
    P("process-pool-broken", ("terminated abruptly",),
      r"\bA process in the process pool was terminated abruptly\b|\bA child process terminated abruptly, the process pool is not usable",
      kind("pool_worker_died")),
    # Paddle Lite's host allocator refusing a size ("Check failed: p: Error occurred in TargetWrapper::Malloc period: no enough
    # for mallocing 57446400 bytes."): host RAM, its size (a size near 2**64 is a negative one wrapped: not-oom-absurd-request)
    P("paddle-lite-malloc", ("for mallocing ",), r"\bno enough for mallocing (\d+) bytes", lambda m: _host_alloc(int(m.group(1)))),
    # (or only its location, the message cut: "[enforce fail at alloc_cpu.cp", the CPU allocator's check that its malloc succeeded)
    P("cpu-allocator", ("DefaultCPUAllocator", "enforce fail at alloc_cpu"),
      r"DefaultCPUAllocator: (?:can't allocate memory|not enough memory)(?:: you tried to allocate (\d+) bytes)?|\[enforce fail at alloc_cpu\.(?!.*DefaultCPUAllocator)",
      lambda m: _host_alloc(int(m.group(1)) if m.group(1) else None)),
    # Windows' commit limit (RAM plus page file), ERROR_COMMITMENT_LIMIT, in English or in a localized message
    P("windows-commit-limit", ("os error 1455", "paging file is too small", "页面文件太小"),
      r"os error 1455|paging file is too small|页面文件太小", kind("host_alloc_failed", ("oom.cpu_alloc_failed", True))),
    # ggml could not take its context's memory from the host (ggml_init's malloc): "GGML_ASSERT: ggml.c:4411: ctx->mem_buffer != NULL"
    P("ggml-init-malloc", ("mem_buffer != NULL",), r"GGML_ASSERT\b.{0,200}\bctx->mem_buffer != NULL",
      kind("host_alloc_failed", ("oom.cpu_alloc_failed", True))),
    # Windows could not map the model file into the process (llama.cpp's mmap, in the user's language): its address
    # space (a 32-bit build) or the commit limit, the host's side
    P("windows-map-view", ("MapViewOfFile failed", "CreateFileMapping"),
      r"(?:MapViewOfFile|CreateFileMapping\w*) failed(?!: (?:Access is denied|The system cannot find))",
      kind("host_alloc_failed", ("oom.cpu_alloc_failed", True), ("_phase", "load_weights"))),
    # faulthandler.enable() asking the kernel for its signal stack (sigaltstack) and refused with ENOMEM: on CPUs whose
    # signal frame outgrew the fixed size older Pythons ask for (AMX, CPython bpo-46968), not a lack of RAM
    P("faulthandler-enable", ("faulthandler.enable(",), r"^\s*(?:\S+\s+)?faulthandler\.enable\(\)\s*$", const(("oom.hint", "faulthandler_enable"))),
    # a mapping at a fixed address refused with ENOMEM (strace's "mmap(0x10000000000, 2201924, ..., MAP_FIXED, ...) = -1 ENOMEM",
    # llamafile's loader's "prog mmap failed w/ errno 12"): that range of the address space is not there to map (a kernel
    # with fewer address bits), whatever RAM is free
    P("mmap-fixed-enomem", ("MAP_FIXED", "prog mmap failed w/ errno 12"),
      r"\bmmap\(0x[0-9a-f]*[1-9a-f][0-9a-f]*, \d+, [^)]*\bMAP_FIXED\b[^)]*\) = -1 ENOMEM|\bprog mmap failed w/ errno 12\b",
      kind("va_reservation", ("oom.hint", "fixed_mapping"))),
    P("mmap-enomem", ("Cannot allocate memory", "unable to mmap"), r"unable to mmap (\d+) bytes|Cannot allocate memory \(12\)|\[Errno 12\] Cannot allocate memory",
      lambda m: _host_alloc(int(m.group(1)) if m.group(1) else None)),
    # (not iOS's "high watermark memory limit exceeded": ios-jetsam-kill)
    P("container-limit", ("memory limit", "Memory limit"), r"exceeded (?:its |the )?memory limit|(?<!watermark )memory limit (?:reached|exceeded)",
      kind("exit_137", ("oom.hint", "container"))),
    P("docker-compose", ("docker", "container_name", "kubectl", "shm_size", "shmSize"), r"(?<![/\w])docker(?![/\w])|container_name|kubectl|shm_?[sS]ize",
      const(("oom.hint", "container"))),
    # the locked-memory limit named (UCX, RDMA registration: "Please set max locked memory (ulimit -l) to 'unlimited'")
    P("memlock-limit", ("max locked memory", "RLIMIT_MEMLOCK"), r"max locked memory|RLIMIT_MEMLOCK", const(("oom.hint", "memlock_limit"))),
    # Colab's own notice: its runtime was restarted for host RAM
    # (in any case, "your session crashed after using all available ram": a "(?i)" reading's anchor selects its line in any case)
    P("colab-ram-crash", ("after using all available RAM",), r"(?i)session crashed after using all available RAM",
      kind("kernel_oom_kill", ("oom.hint", "notebook"))),
    # a notebook's kernel gone without a traceback (Jupyter, Databricks): the kernel's process ended from outside
    # (and the Jupyter server restarting a kernel that died: "KernelRestarter: restarting kernel (1/5), keep random ports")
    P("notebook-kernel-died", ("kernel appears to have died", "appears to have died", "kernel is unresponsive", "Kernel died", "kernel died", "Kernel Restarting",
                               "kernel process died", "Kernel crashed while executing", "KernelRestarter: restarting kernel"),
      r"(?i)kernel (?:for \S+ )?appears to have died|(?:python )?kernel is unresponsive|\bkernel (?:process )?died\b|Kernel Restarting|"
      r"Kernel crashed while executing|KernelRestarter: restarting kernel",
      const(("oom.hint", "kernel_died"))),
    P("free-mem-row", ("Mem:",), r"^\s*Mem:\s+(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S+)\s*$", _free_row),
    # its Swap row (total used free; a paste's closing fence may stick to it): swap nearly all used is RAM long past full
    P("free-swap-row", ("Swap:",), r"^\s*Swap:\s+(\S+)\s+(\S+)\s+\S+?(?:`{3})?\s*$", _swap_row),
    # a memory report's host line (DeepSpeed's see_memory_usage, psutil): how full RAM is
    P("host-ram-percent", ("percent =", "percent="), r"(?i)(?:CPU|host|system|virtual) (?:virtual )?memory:?\s+used\s*=\s*[\d.]+\s*\w*,\s*percent\s*=\s*([\d.]+)%",
      lambda m: [("host.ram_used_ratio", float(m.group(1)) / 100)]),
    # ---- shared memory
    # (a launcher's return code -7 is the child's SIGBUS, as -9 is its SIGKILL)
    P("bus-error", ("Bus error", "bus error", "SIGBUS", *_MINUS_7[0]), r"[Bb]us error|SIGBUS received|signal 7 \(SIGBUS\)|" + _MINUS_7[1],
      kind("bus_error", ("oom.exit_signal", "SIGBUS"))),
    P("shm-nccl", ("/dev/shm", "posix_fallocate failed"), r"(?:Error while creating shared memory segment /dev/shm/\S+(?: \(size (\d+)\))?|/dev/shm/\S+.*No space left on device|"
      r"posix_fallocate failed|System memory request exceeds memory available in /dev/shm)",
      _shm_exhausted),
    # vLLM's CPU KV-offload region, which lives in /dev/shm ("Insufficient space in /dev/shm: 160 MiB required, 64 MiB free";
    # a paste may wrap the figures to the next line, "4095/4096 MiB required")
    P("shm-offload-region", ("Insufficient space in /dev/shm",), r"\bInsufficient space in /dev/shm\b(?::\s*(\d+)(?:/\d+)? ?MiB required)?",
      lambda m: _shm_short(int(m.group(1)) << 20 if m.group(1) else None)),
    # UCX's shared-memory transport could not map its receive queue ("mm_iface failed to allocate receive FIFO"): its
    # segments live in /dev/shm, which a container gives 64 MiB unless told more (the group is never set: no size stated)
    P("shm-ucx-fifo", ("failed to allocate receive FIFO",), r"\bmm_iface failed to allocate receive FIFO()", _shm_exhausted),
    # Triton's python backend: its shared-memory region lives in /dev/shm ("... to requested size (67108864 bytes)")
    P("shm-triton-region", ("Unable to initialize shared memory key",),
      r"Unable to initialize shared memory key '[^']*' to requested size(?: \((\d+) bytes\))?",
      _shm_exhausted),
    # the backend finding its Python stub process dead or stalled ("Stub process 'damage_0' is not healthy", "Stub process
    # is unhealthy and it will be restarted"): most often its shared-memory region outgrew a container's 64 MiB /dev/shm
    P("triton-stub-unhealthy", ("Stub process",), r"Stub process (?:'[^']*' )?is (?:not healthy|unhealthy)", kind("stub_unhealthy")),
    P("shm-ray-sizes", ("available in /dev/shm",), r"The request is for (\d+) bytes, and the amount available is (\d+) bytes",
      lambda m: [("oom.kind", "shm_exhausted"), ("oom.shm_requested_bytes", int(m.group(1))), ("oom.shm_available_bytes", int(m.group(2)))]),
    # Ray refusing to start with an object store larger than /dev/shm (past 10 GB it raises rather than fall back to
    # /tmp): "ValueError: The configured object store size (20.24 GB) exceeds /dev/shm size (10.73 GB)" (decimal GB)
    P("shm-ray-object-store", ("exceeds /dev/shm size",),
      r"configured object store size \((\d+(?:\.\d+)?) GB\) exceeds /dev/shm size \((\d+(?:\.\d+)?) GB\)",
      lambda m: [("oom.kind", "shm_exhausted"), ("oom.shm_requested_bytes", round(float(m.group(1)) * 1e9)),
                 ("host.shm_total_bytes", round(float(m.group(2)) * 1e9))]),
    P("shm-ray-sizes2", ("The request is for",), r"The request is for (\d+) bytes, and the amount available is (\d+) bytes",
      lambda m: [("oom.shm_requested_bytes", int(m.group(1))), ("oom.shm_available_bytes", int(m.group(2)))]),
    # Ray's session directory (its object spilling and logs, often a small RAM-backed /tmp in a container)
    # with no space left: "file_system_monitor.cc:111: /tmp/ray/session_... is over 95% full, available space: 0; capacity: 67108864"
    # (a filesystem of a disk's size is a full disk, not a RAM-backed tmpfs: the 1 TB "/tmp" of a host; newer Ray states
    # both in GB, "available space: 42.6695 GB; capacity: 876.137 GB", and warns while space is left)
    P("ray-session-full", ("is over 95% full", "% full, available space"),
      r"/ray/session_\S+ is over \d+% full, available space: ([\d.]+)(?: ?([KMGT]i?B))?; capacity: ([\d.]+)(?: ?([KMGT]i?B))?",
      _ray_session_full),
    # (df's whole row of it: "shm  64M  64M  0 100% /dev/shm", full)
    P("shm-df", ("shm ",), r"^\s*(?:shm|tmpfs)\s+" + SIZE + r"(?:\s+\S+\s+\S+\s+(\d{1,3})%\s+/dev/shm\b|\s|$)", _shm_df),
    # NVIDIA's containers (Triton, NGC PyTorch) at start-up: "NOTE: The SHMEM allocation limit is set to the default of 64MB.
    # This may be insufficient for the inference server."
    P("shm-ngc-default-note", ("SHMEM allocation limit",), r"The SHMEM allocation limit is set to the default of (\d+) ?MB",
      lambda m: [("host.shm_total_bytes", int(m.group(1)) << 20), ("oom.hint", "shm_warned_small")]),
    P("nccl-system-error", ("ncclSystemError", "unhandled system error"), r"ncclSystemError|unhandled system error",
      const(("oom.hint", "nccl_system_error"))),
    # NCCL's failed CUDA call ("NCCL WARN Cuda failure 'out of memory'", "Last error: Cuda failure 1 'invalid
    # argument'", older NCCL without the number): out of memory for its buffers, or another reason (a
    # transport it cannot use, as under WSL2), a communication error and not an OOM
    P("nccl-cuda-failure", ("NCCL WARN Cuda failure 'out of memory'", "ncclUnhandledCudaError", "Cuda failure"),
      r"NCCL WARN Cuda failure '(out of memory)'|Cuda failure (?:\d+ )?'([^']{1,60})'",
      lambda m: [("oom.kind", "nccl_oom" if (m.group(1) or m.group(2)) == "out of memory" else "comm_error")]),
    # NCCL's own allocator refusing a device buffer ("Failed to CUDA calloc 8388608 bytes", under "ncclUnhandledCudaError")
    P("nccl-cuda-alloc", ("Failed to CUDA calloc", "Failed to CUDA malloc"), r"Failed to CUDA [cm]alloc (\d+) bytes",
      lambda m: [("oom.kind", "nccl_oom"), ("oom.requested_bytes", int(m.group(1)))]),
    # NCCL registering its communication buffers with the network card (verbs): ENOMEM there is the
    # size of its buffers against what the host lets it lock
    P("nccl-ib-register", ("NCCL WARN Call to ibv_reg",), r"NCCL WARN Call to ibv_reg\w* failed with error Cannot allocate memory",
      const(("oom.kind", "nccl_oom"), ("oom.hint", "nccl_registration"))),
    # host memory a server pins after allocating it (cudaHostRegister: a host-side KV pool, an offload buffer) refused:
    # "cudaHostRegister failed (rc=1, ...) at offset=0 size=34760392704": the host's lockable memory, not the card's
    # (or in an engine's own words for the same call: "CUDA host registration skipped: out of memory", "Unable to pin host
    # memory with error code: -1")
    P("host-register-failed", ("cudaHostRegister failed", "hipHostRegister failed", "host registration", "Unable to pin host memory"),
      r"(?:cuda|hip)HostRegister failed\b(?:[^\n]*?\bsize[=:]\s*(\d+))?|(?i:\b(?:CUDA|HIP) host registration (?:failed|skipped)\b[^\n]{0,40}?\bout of memory)|"
      r"\bUnable to pin host memory\b",
      lambda m: [("oom.kind", "host_alloc_failed"), ("oom.hint", "pinned_host")]
      + ([("oom.requested_bytes", int(m.group(1)))] if m.group(1) else [])),
    # the amdgpu kernel driver refusing to map GPU-shared (SVM) memory past its limit on the host's resident memory
    # ("amdgpu: SVM mapping failed, exceeds resident system memory limit"): host RAM the GPU maps, not the card's
    P("amdgpu-svm-system-limit", ("exceeds resident system memory limit",), r"\bSVM mapping failed, exceeds resident system memory limit",
      const(("oom.kind", "host_alloc_failed"), ("oom.hint", "pinned_host"))),
    # a managed runtime's heap over its cap, in host RAM: V8's ("Reached heap limit Allocation failed - JavaScript heap out of
    # memory", "Ineffective mark-compacts near heap limit"), the JVM's ("java.lang.OutOfMemoryError: Java heap space", "GC
    # overhead limit exceeded", "Direct buffer memory", Netty's "failed to allocate 65536 byte(s) of direct memory"): a cap
    # the runtime sets, which the machine's free RAM may exceed
    P("managed-heap", ("JavaScript heap", "Java heap space", "GC overhead limit", "irect buffer memory", "of direct memory", "heap limit",
                       "last resort"),
      r"JavaScript heap out of memory|(?:Reached|near) heap limit|OutOfMemoryError: (?:Java heap space|GC overhead limit exceeded|"
      r"Direct buffer memory)|byte\(s\) of direct memory|\blast resort (?:gc|GC)\b",
      const(("oom.hint", "managed_heap"))),
    # tcmalloc's notice of a host allocation over its threshold (1 GiB unless set: "tcmalloc: large alloc 2676842496 bytes ==
    # 0x548b6000 @ 0x7f73..."): an allocation that succeeded, but a log that ends in a run of them stopped while the process
    # took host RAM in gibibyte steps (Colab's kernel dies that way when its RAM runs out: host-large-allocs-unended)
    P("tcmalloc-large-alloc", ("tcmalloc: large alloc",), r"\btcmalloc: large alloc (\d+) bytes",
      lambda m: [("_max:mem.host_large_alloc_bytes", int(m.group(1)))]),
    # cymem's pool, under spaCy and thinc, refusing host RAM ("MemoryError: Error assigning 18446744072562989824 bytes")
    P("cymem-assign", ("Error assigning ",), r"\bError assigning (\d+) bytes",
      lambda m: [("oom.kind", "host_alloc_failed"), ("oom.cpu_alloc_failed", True), ("oom.requested_bytes", int(m.group(1)))]),
    # the amdgpu kernel driver (or RADV relaying it) refusing a command submission whose buffers it could not place:
    # "radv/amdgpu: Not enough memory for command submission", "[drm] *ERROR* Not enough memory for command submission!":
    # the GTT, system RAM the GPU maps (all of an APU's memory), is full; the "device lost" that follows is its report
    P("amdgpu-cs-no-memory", ("Not enough memory for command submission",), r"\bNot enough memory for command submission\b",
      const(("oom.kind", "host_alloc_failed"), ("oom.hint", "gtt_exhausted"))),
    # a CUDA or HIP runtime allocation that ran out, in an engine's own words where no family above knows the line
    # ("HipError(2): hipMalloc: out of memory", "cudaMallocHost failed: cudaErrorMemoryAllocation: out of memory"): the
    # host calls pin system RAM, so theirs is the host's memory, not the card's
    P("runtime-malloc-oom", ("cudaMalloc", "hipMalloc"), r"\b(?:cuda|hip)Malloc(?:Managed|Async)?\b" + _RAN_OUT,
      kind("cuda_error_oom"), fallback=True),
    # a library's report of a cudaMalloc it could not make, with its size (faiss: "Failed to cudaMalloc 16000000000 bytes on
    # device 0 (error 2 out of memory", "cudaMalloc error 2 on alloc size 18446744065779875840"): status 2 is out of memory,
    # as is a refusal whose status the paste cut; another status is its own error
    P("cudamalloc-size", ("Failed to cudaMalloc", "cudaMalloc error "),
      r"\bFailed to cudaMalloc (\d+) bytes(?: on device \d+ \(error (\d+))?|\bcudaMalloc error (\d+) on alloc(?:ation)? size (\d+)",
      _cudamalloc_size),
    P("runtime-host-malloc-oom", ("cudaMallocHost", "cudaHostAlloc", "hipHostMalloc", "hipHostAlloc", "hipMallocHost"),
      r"\b(?:cuda|hip)(?:MallocHost|HostAlloc|HostMalloc)\b" + _RAN_OUT, kind("host_alloc_failed", ("oom.hint", "pinned_host"))),
    # a server's pool of pinned host buffers with too few left for a model ("PinnedMemoryPool out of memory (358 buffers
    # available, 794 buffers needed)"): host memory it pinned up front, not the card's
    P("pinned-pool-oom", ("PinnedMemoryPool", "inned memory pool"), r"(?i)\bpinned[ _]?memory[ _]?pool\b[^\n]{0,30}?\bout of memory",
      kind("host_alloc_failed", ("oom.hint", "pinned_host"))),
    # TensorFlow's pinned host allocator (cuMemHostAlloc) refused: "failed to alloc N bytes on host:
    # CUDA_ERROR_OUT_OF_MEMORY", "could not allocate pinned host memory of size: N": host memory, not the card's
    P("tf-pinned-host", ("bytes on host", "could not allocate pinned host memory"),
      r"failed to alloc (\d+) bytes on host: CUDA_ERROR_OUT_OF_MEMORY|could not allocate pinned host memory of size: (\d+)",
      lambda m: [("oom.kind", "host_alloc_failed"), ("oom.hint", "pinned_host"), ("oom.requested_bytes", int(m.group(1) or m.group(2)))]),
    # TensorFlow's allocators: "OOM when allocating tensor with shape[41500,1002,1024] and type float on
    # /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu": the CPU allocator's is the host's RAM
    P("tf-tensor-oom", ("OOM when allocating tensor",),
      r"OOM when allocating tensor with shape\s?\[([\d,\s]*)\] and type (\w+) on (\S+)(?: by allocator (\w+))?", _tf_tensor_oom),
    # the kernel that failed, by its source file ("OP_REQUIRES failed at random_op.cc:77 : Resource exhausted: OOM ..."):
    # a variable's initializer or restore is the load, any other kernel a pass over the input
    P("tf-op-requires", ("OP_REQUIRES failed at",), r"OP_REQUIRES failed at (\w+)\.cc:\d+ : Resource exhausted",
      lambda m: [("_phase", "load_weights" if _TF_LOAD_OPS.search(m.group(1)) or m.group(1).startswith("random_op") else "forward")]),
    # the graph node TensorFlow was running when it failed ("[[{{node stft/rfft}}]]", "[[{{node conv2d_transpose_4/conv2d_transpose}}]]"):
    # a variable's initializer or a checkpoint restore is the load; any other op outside the sampling loop computes on
    # the input, a forward pass
    # (TensorFlow 1.x prints the node with its op: "[[Node: dynamic_seq2seq/decoder/output_projection/Tensordot/MatMul = MatMul[...")
    P("tf-node", ("{{node ", "[[Node: "), r"\{\{node ([\w/.-]+)\}\}|\[\[Node: ([\w/.-]+) = ", _tf_node),
    # PaddlePaddle's CPU allocator (system_allocator.cc): "ResourceExhaustedError: Fail to alloc memory of 129472640 size,
    # error code is 12." (ENOMEM): host RAM; its GPU allocator words it "Out of memory error on GPU 0"
    P("paddle-host-alloc", ("Fail to alloc memory of",), r"Fail to alloc memory of (\d+) size",
      lambda m: [("oom.kind", "host_alloc_failed"), ("oom.cpu_alloc_failed", True), ("oom.requested_bytes", int(m.group(1)))]),
    # Paddle on a Kunlun XPU: its allocator's check of the device runtime's return code ("(External) XPU API return wrong
    # value[-705], no enough memory"): the XPU's device memory ran out
    P("paddle-xpu-oom", ("XPU API return wrong value",), r"\bXPU API return wrong value\[-?\d+\],?\s*no enough memory",
      const(("oom.kind", "cuda_error_oom"), ("gpu.backend", "kunlun"))),
    # the operator Paddle was running ("[operator < conv2d > error]"): a parameter's initializer or a load is the load,
    # any other op computes on the input
    P("paddle-operator", ("[operator <",), r"\[operator < (\w+) > error\]",
      lambda m: [("_phase", _paddle_step(m.group(1)))]),
    # an older Paddle naming the op whose allocation threw ("W0109 operator.cc:179] mul raises an exception
    # paddle::memory::allocation::BadAlloc"): a failed allocation, in the step that op runs (a fill or an assign is the load)
    P("paddle-op-badalloc", ("raises an exception paddle::memory::allocation::BadAlloc",),
      r"\b(\w+) raises an exception paddle::memory::allocation::BadAlloc",
      lambda m: [("oom.kind", "runtime_alloc_failed"), ("_phase", _paddle_step(m.group(1)))]),
    # Go's runtime refusing the heap more memory ("fatal error: runtime: out of memory", PhotoPrism, Ollama's server): host RAM
    # (and Node's V8 engine at its heap limit, "FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed -
    # JavaScript heap out of memory": the process's heap, sized by node's --max-old-space-size)
    # (or only the "Last few GCs" that V8's report opens with, its heap at the limit: "Mark-Compact 4012.3 (4129.4) -> 3996.3
    # (4129.1) MB, 3206.37 / 0.02 ms (average mu = 0.107, current mu = 0.037) task; scavenge might not succeed")
    # (or Electron reporting a renderer that Chromium's allocator ended for memory, its render-process-gone details:
    # '{"reason":"oom","exitCode":-536870904}')
    P("runtime-heap-oom", ("fatal error: runtime: out of memory", "JavaScript heap out of memory", "scavenge might not succeed",
                           "last resort", '"reason":"oom"', '"reason": "oom"'),
      r"fatal error: runtime: out of memory|JavaScript heap out of memory|"
      r"\bMark-Compact [\d.]+ \([\d.]+\) -> [\d.]+ \([\d.]+\) MB\b[^\n]{0,200}scavenge might not succeed|"
      # (older V8's last collections before it gave up: "Mark-sweep 651.8 (658.9) -> 651.8 (658.9) MB, 189.5 / 0.0 ms  last
      # resort gc")
      r"\bMark-(?:sweep|Compact) [\d.]+ \([\d.]+\) -> [\d.]+ \([\d.]+\) MB\b[^\n]{0,200}last resort (?:gc|GC)\b|\"reason\":\s?\"oom\"",
      const(("oom.kind", "host_alloc_failed"), ("oom.cpu_alloc_failed", True))),
    # TensorFlow's stream executor refused a region by the driver ("failed to allocate 20.79G (22317891584 bytes) from device:
    # CUDA_ERROR_OUT_OF_MEMORY"): TensorFlow takes nearly the whole card up front (or grows it in chunks); the driver refusing
    # the region says the device's memory is held elsewhere, by another process or a runtime that preallocated first
    P("tf-region-refused", ("from device: CUDA_ERROR_OUT_OF_MEMORY",),
      r"failed to allocate [\d.]+[KMGT]? \((\d+) bytes\) from device: CUDA_ERROR_OUT_OF_MEMORY",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.requested_bytes", int(m.group(1))), ("oom.hint", "runtime_region_refused")]),
    # the kernel a Paddle op ran, as its C++ traceback names it ("void phi::SoftmaxGPUDNNKernel<float, phi::GPUContext>(...)"):
    # a parameter's initializer (full, assign, a random fill) is the load, any other kernel computes on the input
    P("paddle-kernel-frame", ("Context>(",), r"\bphi::(\w+?)Kernel<[^()]*?phi::(?:GPU|XPU|Custom)Context>\(",
      lambda m: [("_phase", _paddle_step(m.group(1), _PADDLE_LOAD_KERNELS))]),
    # ONNX Runtime running a node of the model's graph when it failed ("Non-zero status code returned while running Conv node.
    # Name:'p2o.Conv.2' Status Message: ... Failed to allocate memory for requested buffer of size 1277558784"): the session
    # placed its weights when it was created; a node's run computes on the input, a forward pass
    P("ort-node", ("status code returned while running",), r"Non-zero status code returned while running \w+ node\b",
      const(("_phase", "forward"))),
    # Ascend's runtime refusing device memory: "Failed to allocate resource[DeviceMemory] with info [size:2147483648].
    # Reason: Memory resources are exhausted."; HCCL asking for it (HcclAllocComResource...) is a communication buffer
    P("ascend-device-resource", ("Failed to allocate resource[DeviceMemory]",), r"Failed to allocate resource\[DeviceMemory\] with info \[size:(\d+)\]",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.requested_bytes", int(m.group(1))), ("gpu.backend", "npu")]),
    P("hccl-comm-resource", ("HcclAllocComResource",), r"\bHcclAllocComResource\w*", const(("oom.kind", "nccl_oom"), ("oom.hint", "hccl"))),
    # NVSHMEM (DeepEP's and other expert-parallel kernels' transport) backing its symmetric heap with GPU memory:
    # cuMemCreate's status 2 is CUDA_ERROR_OUT_OF_MEMORY; the barrier's "illegal memory access" after it is a consequence
    P("nvshmem-heap", ("cuMemCreate failed", "allocate_physical_memory_to_heap failed"),
      r"mem_heap\.cpp:\d+: non-zero status: 2 cuMemCreate failed|allocate_physical_memory_to_heap failed",
      const(("oom.kind", "nccl_oom"), ("oom.hint", "nvshmem"))),
    # AWS Neuron's runtime (Inferentia/Trainium): "Failed to alloc DEVICE memory: N", then "Failed to allocate
    # 448.000MB (usage: tensors) on ND 0:NC 0, current utilization:" and its "* tensors: 15.785GB" rows;
    # the model's tensors are its weights (and the KV cache the compiled model holds)
    P("neuron-device-alloc", ("Failed to alloc DEVICE memory",), r"Failed to alloc DEVICE memory: (\d+)",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.requested_bytes", int(m.group(1))), ("gpu.backend", "neuron")]),
    # (a request for the runtime's own buffers, "(usage: dma rings)", "(usage: shared scratchpad)", is not the model's)
    P("neuron-usage-alloc", ("(usage: ",), r"Failed to allocate ([\d.]+) ?([KMGT]i?B) \(usage: (\w[\w ]*)\) on ND \d+:NC \d+",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.requested_bytes", to_bytes(m.group(1), m.group(2))), ("gpu.backend", "neuron")]
      + ([("oom.buffer", "weights"), ("_phase", "load_weights")] if m.group(3) == "tensors" else
         [("oom.buffer", "runtime")] if m.group(3) in _NEURON_RUNTIME_PARTS else [])),
    # its rows of what the core held at the failure: the tensors (weights, the KV cache the compiled model holds, its
    # inputs), and the runtime's own buffers beside them (DMA rings, scratchpad, collectives, the model's code)
    P("neuron-usage-row", ("* tensors:", "* total:"), r"^\s*\* (total|tensors): ([\d.]+) ?([KMGT]i?B)\s*$", _neuron_row),
    # Ascend's driver refusing device memory: "halMemAlloc failed:size=32(Byte), type=17, ..., drvRetCode=6"
    # (6 is DRV_ERROR_OUT_OF_MEMORY; other codes are not a lack of memory)
    P("ascend-hal-alloc", ("halMemAlloc failed",), r"halMemAlloc failed:size=(\d+)\(Byte\).{0,200}?drvRetCode=6\b",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.requested_bytes", int(m.group(1))), ("gpu.backend", "npu")]),
    # ---- look-alikes that are not OOMs
    # (a paste that kept only the runtime's pointer to the error's name: "Search for `cudaErrorIllegalAddress' in ...")
    # (an engine's own wording of the status: "ds4: CUDA launch ... attention failed: an illegal memory access"; cuda-gdb's
    # report of the fault: "CUDA Exception: Warp Out-of-range Address", "... Warp Misaligned Register", "received signal
    # CUDA_EXCEPTION_5"; the driver's core dump: "coredump: Detected an exception of type CUDBG_EXCEPTION_WARP_ILLEGAL_ADDRESS (14)")
    P("illegal-access", ("illegal memory access", "ErrorIllegalAddress", "ERROR_ILLEGAL_ADDRESS", "CUDA Exception: ", "CUDA_EXCEPTION_",
                         "CUDBG_EXCEPTION_"),
      r"an illegal memory access was enc|\bfailed: an illegal memory access\b|\b(?:cuda|hip)ErrorIllegalAddress\b|"
      r"\bCUDA_ERROR_ILLEGAL_ADDRESS\b|CUDA Exception: (?:Warp|Lane|Device) [\w -]*(?:Address|Instruction|Register|PC)\b|\bsignal CUDA_EXCEPTION_\d+|"
      r"\bexception of type CUDBG_EXCEPTION_(?:WARP|LANE|DEVICE)_\w+",
      kind("illegal_memory_access")),
    # the NVIDIA kernel driver's Xid events (dmesg): 13, 31 and 43 are a kernel's fault (an exception, an MMU fault, a
    # channel stopped), 8 and 46 a GPU its watchdog found stuck (the GPU stopped processing), 48, 62, 74, 79, 94, 95, 119
    # and 120 the device itself (double-bit ECC, the internal micro-controller halted, an NVLink error, fallen off the
    # bus, a contained or uncontained ECC error, GSP errors)
    # (a paste may keep only the event: "Xid 31, MMU Fault ... FAULT_PDE ACCESS_TYPE_VIRT_READ")
    P("nvidia-xid", ("NVRM: Xid", "Xid "), r"(?:NVRM: Xid \([^)]*\): |\bXid )(8|13|31|43|46|48|62|74|79|94|95|119|120),",
      lambda m: [("oom.kind", "illegal_memory_access" if m.group(1) in ("13", "31", "43") else
                  "gpu_timeout" if m.group(1) in ("8", "46") else "device_lost")]),
    # (the same watchdog's own line: "NVRM: krcWatchdog_IMPL: RC watchdog: GPU is probably locked!")
    P("nvidia-rc-watchdog", ("RC watchdog",), r"RC watchdog: GPU is probably locked", kind("gpu_timeout")),
    # CTranslate2's wording of a CUDA status ("CUDA failed with error invalid device ordinal"): any but out of memory
    # names another cause
    P("ct2-cuda-status", ("CUDA failed with error",), r"CUDA failed with error (?!out of memory)([a-z][\w ]{2,80})",
      lambda m: [("error.final", f"the CUDA runtime returned '{m.group(1).strip()}': not out of memory")]),
    # a CUDA or HIP status by name (any but out-of-memory names another cause), read where no other pattern named the line
    # (not one a warning reports the run went on past: PyTorch's "UserWarning: HIP initialization: Unexpected error from
    # hipGetDeviceCount() ... Error 101: hipErrorInvalidDevice", a launcher's "Warning: caught exception '...'")
    P("driver-status-name", ("CUDA_ERROR_", "cudaError", "hipError"),
      r"^(?![^\n]*?(?:\w*Warning:|\bcaught exception\b))[^\n]*?"
      r"\b(CUDA_ERROR_[A-Z_]+|cudaError[A-Z]\w*|hipError[A-Z]\w*)\b(?:[^\n]{0,40}?\(code:? ?(\d+)\))?", _driver_status, fallback=True),
    # (ggml's wording of the same: "CUDA kernel vec_dot_q5_K_q8_1_impl_vmmq has no device code compatible with CUDA arch 520")
    # (or PyTorch's warning at start-up that its build has no kernels for the card, which the failure follows: "NVIDIA GeForce
    # RTX 5060 Ti with CUDA capability sm_120 is not compatible with the current PyTorch installation")
    P("no-kernel-image", ("no kernel image", "has no device code compatible", "is not compatible with the current PyTorch"),
      r"no kernel image is available for execution on the device|has no device code compatible with (?:CUDA|HIP|ROCm) arch|"
      r"with CUDA capability sm_\d+ is not compatible with the current PyTorch installation", kind("no_kernel_image")),
    # a feature the GPU's architecture lacks, refused by the build or the engine ("Networks with FP8 precision require
    # hardware with FP8 support", "FP8 FMHA cannot be enabled except on Ada or Hopper or Blackwell Arch"): no memory
    # setting moves it
    # (or the library saying so of the card: bitsandbytes' "ERROR: Your GPU does not support Int8 Matmul!")
    P("hardware-lacks-feature", ("require hardware with", "requires hardware with", "cannot be enabled except on", "GPU does not support",
                                 "GPU doesn't support"),
      r"requires? hardware with \w+ support|cannot be enabled except on [\w ]{0,60}?(?:Arch|architectures?|GPUs?)\b|"
      r"\b(?:[Yy]our|[Tt]his) GPU does(?:n't| not) support\b",
      kind("no_kernel_image")),
    # bfloat16 on a card before compute capability 8.0 (vLLM: "Bfloat16 is only supported on GPUs with compute capability of at
    # least 8.0. Your Tesla P40 GPU has compute capability 6.1"): the dtype the checkpoint asks for, float16 runs
    # (a traceback cut inside vLLM's check, whose only raise is this one: "in _check_if_gpu_supports_dtype")
    P("bf16-unsupported", ("Bfloat16 is only supported", "bfloat16 is only supported", "Bf16 is only supported", "_check_if_gpu_supports_dtype"),
      r"(?i)bf(?:loat)?16 is only supported on GPUs with compute capability of at least|\bin _check_if_gpu_supports_dtype\b",
      kind("no_kernel_image", ("oom.hint", "bf16_unsupported"))),
    # (or the kernel's own assertion line, which a paste may keep alone or cut: "Indexing.cu:1093: indexSelectSmallIndex: block:
    # [0,0,0], thread: [1,0,0] Assertion `srcIndex < srcSelectDimSize` failed.")
    P("device-assert", ("device-side assert", "] Assertion `"),
      r"device-side assert triggered|: block: \[\d+,\d+,\d+\], thread: \[\d+,\d+,\d+\] Assertion `", kind("device_assert")),
    # a GPU page fault the kernel driver reports: AMD's "[gfxhub] page fault" (with its UTCL2 client), Intel Xe's
    # "Faulted Address: 0x..." block: a kernel touched memory it had no mapping for
    # (and the amdgpu report's later lines, where a paste keeps only those: "VM_L2_PROTECTION_FAULT_STATUS:0x00341051",
    # "in page starting at address 0x00007ee24e9fe000 from IH client 0x1b (UTCL2)")
    # (the IOMMU's report of a device's access outside its mappings: "mtgpu 0000:81:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT
    # domain=0x0010 address=0x7da7796200 flags=0x0000]")
    P("gpu-page-fault", ("page fault", "Faulted Address:", "VM_L2_PROTECTION_FAULT_STATUS:", "from IH client", "[IO_PAGE_FAULT"),
      r"\[gfxhub\d?\] (?:no-retry )?page fault|^\s*Faulted Address: 0x[0-9a-fA-F]+|VM_L2_PROTECTION_FAULT_STATUS:0x0*[1-9a-fA-F]|"
      r"\bAMD-Vi: Event logged \[IO_PAGE_FAULT\b|"
      r"in page starting at address 0x[0-9a-fA-F]+ from IH client\b",
      kind("illegal_memory_access")),
    # Ascend's runtime could not create a stream's submission/completion queues (its driver's stream limit), or begin a
    # capture on one: resources of the stream scheduler, not device memory
    P("ascend-stream-queues", ("Alloc sq cq fail", "rtStreamBeginCapture execution failed"),
      r"Alloc sq cq fail|rtStreamBeginCapture execution failed",
      const(("error.final", "the Ascend runtime could not create a stream's queues (sq/cq) or begin capturing on it: the driver's stream "
                            "resources, not device memory"))),
    # the kernel's report of its memory when an allocation of its own failed or the OOM killer ran ("Mem-Info:",
    # "page allocation failure: order:0"): the host's RAM
    P("kernel-mem-report", ("Mem-Info:", "page allocation failure"), r"\bMem-Info:\s*$|: page allocation failure: order:\d+",
      kind("host_alloc_failed", ("oom.cpu_alloc_failed", True))),
    # the same report's zone line with its free pages under the zone's minimum watermark: the kernel is out of RAM there
    # ("Node 0 Normal free:20084kB boost:0kB min:66452kB low:162724kB ...")
    P("kernel-zone-below-min", ("Normal free:", "DMA32 free:", "Movable free:"), r"\bNode \d+ (?:Normal|DMA32|Movable) free:(\d+)kB .{0,80}?\bmin:(\d+)kB",
      lambda m: [("oom.kind", "host_alloc_failed"), ("oom.cpu_alloc_failed", True)] if int(m.group(1)) < int(m.group(2)) else []),
    P("misaligned", ("misaligned address",), r"misaligned address", kind("illegal_memory_access")),
    # a kernel that crashed (cudaErrorLaunchFailure; ROCm's page fault of a kernel, or memory it still used): a fault, not a full device
    # (Ascend's AI core: "The DDR address of the MTE instruction is out of range", cut or whole, and the device's report of
    # the core's exception above it, "there is an exception of aivec error" / "there is an fftsplus aicore error exception";
    # a TPU core its runtime halted, "INTERNAL: Core halted unexpectedly: INTERNAL: Accelerator device halt", a program's
    # bounds check that tripped)
    P("launch-failure", ("unspecified launch failure", "Memory access fault by GPU", "MEMORY_APERTURE_VIOLATION", "DDR address of the",
                         "beyond the largest legal address",
                         "HSA_STATUS_ERROR_EXCEPTION",
                         "Core halted unexpectedly", "Accelerator device halt", "there is an exception of", "aicore error exception",
                         "peer GPU memory over nvlink", "launch failed", "Device fault error", "allow fault by device",
                         "Memory critical error by agent", "SMMU returns a Terminate error"),
      r"unspecified launch failure|Memory access fault by GPU node|HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION|"
      # (the same status in its own words, where a terminal's wrap cut its name: "The agent attempted to access memory
      # beyond the largest legal address. code: 0x29")
      r"attempted to access memory beyond the largest legal address|"
      # (ROCm's queue aborting on a kernel's hardware exception: "HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a
      # hardware exception. code: 0x1016")
      r"HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception|"
      # (ROCm's runtime finding memory it was to free or map still in use by the device: "Memory critical error by agent
      # node-0 (Agent handle: 0x...) on address 0x.... Reason: Memory in use.")
      r"Memory critical error by agent node-\d+ .{0,80}?Reason: Memory in use|"
      r"DDR address of the \w+ instruction is(?: out\b|\s*$)|Core halted unexpectedly|Accelerator device halt|"
      r"there is an (?:exception of (?:fftsplus )?(?:aivec(?:tor)?|aic|aicore) error|(?:fftsplus )?aicore error exception)\b|"
      # (a peer's memory read over NVLink that faulted: "CUDA error: Invalid access of peer GPU memory over nvlink or a hardware error")
      r"Invalid access of peer GPU memory over nvlink|"
      # (a custom op's check after its launch: "RuntimeError: moe_sum_reduce CUDA kernel (small-token) launch failed"; Ascend's
      # memory manager reporting a device's page fault: "[devmm] [ERROR] ... Device fault error.", "Va error don't allow fault by device")
      r"\bCUDA kernel\b[^\n]{0,60}\blaunch failed\b(?![^\n]*memory)|\[devmm\][^\n]{0,160}(?:Device fault error|Va error don't allow fault by device)|"
      # (Ascend's DMA engine faulting on an address its SMMU could not translate: "there is a sdma error, ... The SMMU returns
      # a Terminate error during page table translation", then "Memory async copy failed ... [sdma copy error]")
      r"\bThe SMMU returns a Terminate error during page table translation",
      kind("illegal_memory_access")),
    # the runtime's own query of the device's free memory failed (ROCm's HSA agent query, hipMemGetInfo returning an
    # error: a host driver older than the container's runtime): the memory was never measured, nothing ran out
    # (ggml's SYCL backend: "[ggml_backend_sycl_device_get_memory] failed to get device memory size")
    P("memory-query-failed", ("MEMORY_AVAIL query failed", "hipMemGetInfo: Returned hipError", "failed to get device memory"),
      r"HSA_AMD_AGENT_INFO_MEMORY_AVAIL query failed|hipMemGetInfo: Returned hipError(?!OutOfMemory)\w+|failed to get device memory size",
      kind("gpu_memory_unreported")),
    # HAMi's vGPU layer refusing an allocation over the pod's share: "Device 0 OOM 18446744073707737660 / 24146608128"
    # (the device's use as it counts it / the pod's limit); a use past 2^63 is a negative count printed unsigned: its own bookkeeping
    P("hami-oom", ("HAMI-core ERROR",), r"\[HAMI-core ERROR[^\]]*\]: Device \d+ OOM (\d+) / (\d+)", _hami_oom),
    # macOS panicking in its GPU memory bookkeeping ('panic(cpu 18 caller 0x...): "completeMemory() prepare count
    # underflow" @IOGPUMemory.cpp:550'): a driver fault that runtime releases and memory pressure trigger; no allocation failed
    # (a panic report wrapped after its header puts the message on the next line alone: '"completeMemory() ..." @IOGPUMemory.cpp:550')
    # (a paste that masks the cpu and address, 'panic(cpu N caller 0xXXXX): ...', or keeps only the word: 'panic: "..." @IOGPU...')
    P("macos-iogpu-panic", ("panic(cpu", "@IOGPU"), r'panic\(cpu \w+[^)]*\): "([^"]{1,200})"(?:\s*@\s*(\S+))?|^\s*(?:panic:\s*)?"([^"]{1,200})"\s*@\s*(IOGPU\S+)\s*$',
      lambda m: _iogpu_panic(m.group(1) or m.group(3), m.group(2) or m.group(4) or "")),
    # the CUDA runtime could not start (driver, container runtime): the model then runs on the CPU, or nowhere
    P("cuda-init-failed", ("failed to initialize CUDA",), r"failed to initialize CUDA: (?!out of memory)", kind("broken_install")),
    P("nccl-graph", ("NCCL cannot be captured",), r"NCCL cannot be captured in a graph", kind("nccl_graph_capture")),
    P("nccl-invalid-usage", ("NCCL error: invalid usage",), r"NCCL error: invalid usage", kind("nccl_graph_capture")),
    # Jetson's GPU memory manager (nvmap) refused the process: the user may not open the device, so the GPU is unused
    P("nvmap-denied", ("NvRmMemInit",), r"NvRmMemInit\w* failed with Permission denied", kind("broken_install")),
    P("bnb-no-gpu", ("compiled without GPU support",), r"bitsandbytes was compiled without GPU support", kind("broken_install")),
    # the OpenCL driver failing to compile a runtime's kernels (TVM/MLC: "OpenCL build error for device=0x...", then the
    # driver's status, often "CL_OUT_OF_HOST_MEMORY"): the driver's compiler gave up on the program, which a driver or a model
    # library built for this GPU fixes; the status is the compiler's, not the process's RAM
    P("opencl-build-error", ("OpenCL build error",), r"\bOpenCL build error\b", kind("broken_install", ("oom.hint", "kernel_build"))),
    # (older transformers said it as "8-bit operations on `bitsandbytes` are not supported under CPU!")
    P("bnb-dispatch", ("dispatched on the CPU or the disk", "are not supported under CPU"),
      r"Some modules are dispatched on the CPU or the disk|8-bit operations on `?bitsandbytes`? are not supported under CPU",
      kind("bnb_dispatch", ("_phase", "load_weights"))),
    # (a runtime API the driver is too old for: TurboMind's allocator on an 11.x driver)
    # (the container runtime refusing an image built for a newer CUDA: "nvidia-container-cli: requirement error:
    # unsatisfied condition: cuda>=11.8, please update your driver")
    # (an app's own check of the CUDA version: "CUDA version 12.3 is not compatible with TensorRT-LLM models. Required version: 12.4")
    # (PyTorch's own check at its first CUDA call: "The NVIDIA driver on your system is too old (found version 9010)")
    P("driver-too-old", ("driver version is insufficient", "not supported in the installed CUDA driver", "unsatisfied condition: cuda",
                         "is not compatible with", "driver on your system is too old"),
      r"CUDA driver version is insufficient|API call is not supported in the installed CUDA driver|requirement error: unsatisfied condition: cuda\s*>=|"
      r"CUDA (?:driver )?version [\d.]+ is not compatible with|\bThe NVIDIA driver on your system is too old\b",
      kind("broken_install")),
    # Ollama (or any Go or C program loading libcuda by hand) finding a driver library too old for the runtime:
    # 'unable to load cuda driver library" ... error="symbol lookup for cuCtxCreate_v3 failed: ... undefined symbol'
    P("driver-library-symbol", ("unable to load cuda driver library", "unable to load cudart library"),
      r"unable to load (?:cuda driver|cudart) library.{0,300}(?:undefined symbol|symbol lookup)", kind("broken_install")),
    # a CUDA library the process needs that the loader does not find or cannot use (cuDNN's "Unable to load any of
    # {libcudnn_ops.so.9.1.0, ...}" / "Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor", "Could not load library
    # libcudnn_cnn_infer.so.8", "ImportError('libcudart.so.12: cannot open shared object file"): an install whose CUDA
    # libraries do not match, which fails (or kills a notebook's kernel) however much memory is free
    # (CTranslate2's own wording: "RuntimeError: Library libcublas.so.12 is not found")
    P("cuda-library-missing", ("libcudnn", "Cannot load symbol cudnn", "cannot open shared object file", "is not found"),
      r"Unable to load any of \{libcudnn|Could not load library libcudnn|Cannot load symbol cudnn\w+|"
      r"\bLibrary lib(?:cudart|cublas\w*|cudnn\w*)\.so[.\d]* is not found|"
      r"\blib(?:cudart|cublas\w*|cudnn\w*|nccl|nvrtc)\.so[.\d]*: cannot open shared object file",
      kind("broken_install", ("oom.hint", "cuda_libraries"))),
    # informational lines of an allocator or a transport that go on working: TensorFlow's pool allocator growing
    # its cache, Open MPI's shared-memory transport falling back, AMD MIOpen skipping a solver whose workspace the caller
    # did not provide ("Warning [IsEnoughWorkspace] ... workspace required: 3416064, provided ptr: 0 size: 0"); nothing failed
    # (TensorRT's builder likewise: "Some tactics do not have sufficient workspace memory to run. Increasing workspace size may
    # increase performance": the faster tactics were skipped, the engine still built)
    # (and TensorFlow's allocator on a request its caller can do without, falling back to a slower kernel: "ran out of memory
    # trying to allocate 2.13GiB. The caller indicates that this is not a failure")
    P("memory-notice", ("PoolAllocator: After", "Raising pool_size_limit_", "unable to create shared memory BTL", "[IsEnoughWorkspace]",
                        "do not have sufficient workspace memory", "this is not a failure"),
      r"PoolAllocator: After \d+ get requests|Raising pool_size_limit_ from \d+|create_and_attach: unable to create shared memory BTL|"
      r"Warning \[IsEnoughWorkspace\]|Some tactics do not have sufficient workspace memory to run|"
      r"The caller indicates that this is not a failure",
      kind("memory_notice")),
    # a Triton (or torch.compile) kernel build whose link step finds no libcuda ("/usr/bin/ld: cannot find -lcuda",
    # "collect2: error: ld returned 1 exit status"): the driver library is not where the toolchain looks
    P("link-no-libcuda", ("cannot find -lcuda", "ld returned 1 exit status"), r"cannot find -lcuda\b|collect2: error: ld returned 1 exit status",
      kind("broken_install")),
    # a thread the process could not start ("pthread_create failed: Resource temporarily unavailable", Boost's
    # "thread: Resource temporarily unavailable [system:11]"): the thread limit of the process or its cgroup (pids.max)
    P("thread-limit", ("pthread_create failed", "thread: Resource temporarily unavailable"),
      r"pthread_create failed: Resource temporarily unavailable|\bthread: Resource temporarily unavailable \[system:11\]",
      const(("error.final", "a thread could not be started (EAGAIN): the process's or its container's thread limit (ulimit -u, "
                            "pids.max), not memory"))),
    # an RDMA memory registration refused with ENOMEM ("Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory"):
    # the locked-memory limit (RLIMIT_MEMLOCK) or the driver, not the host's RAM
    P("rdma-reg-mr", ("ibv_reg_mr",), r"ibv_reg_mr\w* failed with error Cannot allocate memory", kind("mlock_limit")),
    # no device the runtime can use: CUDA's, HIP's ("no ROCm-capable device is detected"), rocBLAS's on a GPU its
    # build has no kernels for ("Could not initialize Tensile host: No devices found")
    P("no-gpu-device", ("No CUDA GPUs are available", "no ROCm-capable device", "hipErrorNoDevice", "Could not initialize Tensile host"),
      r"No CUDA GPUs are available|no ROCm-capable device is detected|hipErrorNoDevice|Could not initialize Tensile host: No devices found",
      kind("broken_install")),
    # the device is held by someone else and this process may not have it: CUDA's exclusive-process mode ("all
    # CUDA-capable devices are busy or unavailable"), a model server's own one-model-per-GPU placement (Xinference's
    # "No available slot found for the model"); nothing was allocated
    # (Habana's runtime on a Gaudi another process holds: "synStatus=20 [Device already acquired] Device acquire failed";
    # vLLM's Ray executor on a node whose GPUs another placement group reserved: "Current node has no GPU available")
    # (AWS Neuron's runtime with the NeuronCores another process or a stale pod holds: "Not enough free NCs to allocate 2
    # members group", "insufficient NCs")
    P("device-taken", ("busy or unavailable", "No available slot found", "Device already acquired", "Current node has no GPU available",
                       "free NCs", "insufficient NCs", "Insufficient NCs"),
      r"CUDA-capable devices? (?:are|is|\(s\) is/are) busy or unavailable|No available slot found\b|\[Device already acquired\]|"
      r"Current node has no GPU available|\bNot enough free NCs\b|\b[Ii]nsufficient NCs\b",
      kind("device_taken")),
    # the CUDA runtime could not even count the devices (a driver, fabric manager or container runtime fault)
    P("device-count-failed", ("Unexpected error from cudaGetDeviceCount",), r"Unexpected error from cudaGetDeviceCount\(\)", kind("broken_install")),
    # ROCm's device query failing to start its runtime ("hsa api call failure at: .../rocminfo/rocminfo.cc:1306", with
    # "HSA_STATUS_ERROR_OUT_OF_RESOURCES" after it), or the driver's device refusing to open ("Unable to open /dev/kfd
    # read-write: Cannot allocate memory"): the runtime could not reach the GPU (a card the driver does not support, a
    # platform without PCIe atomics) before any program asked it for memory
    P("hsa-init-failed", ("rocminfo.cc", "Unable to open /dev/kfd"), r"hsa api call failure at: \S*rocminfo\.cc:\d+|Unable to open /dev/kfd\b",
      kind("broken_install", ("oom.hint", "device_init"))),
)
