"""Competing signals: the account that explains the failing request wins over a background
condition, which stays as a secondary finding with its own fix; a foreign process on the
failing GPU is named with its memory and kept out of the framework's overhead."""

from __future__ import annotations

from pathlib import Path

from oomdoctor.diagnose import DiagnoseOptions, diagnose
from oomdoctor.model import Report

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
GIB = 1 << 30


def _diagnose_text(tmp_path: Path, text: str, name: str = "server.log") -> Report:
    log = tmp_path / name
    log.write_text(text)
    return diagnose(DiagnoseOptions(logs=[str(log)]))


def test_a_16_gib_generate_request_is_activations_with_fragmentation_second() -> None:
    log = FIXTURES / "rules/act-huge-single-allocation/synthetic-transformers-generate-16gib-fragmented/server.log"
    report = diagnose(DiagnoseOptions(logs=[str(log)]))
    assert report.culprit.value == "activations"
    rules = [f.rule_id for f in report.findings]
    assert rules[0] == "act-huge-single-allocation" and "fw-fragmentation" in rules
    knobs = [s.knob for s in report.suggestions]
    # the request's own fixes lead; the background condition keeps its fix further down
    assert knobs[0] == "attention_backend" and "batch_size" in knobs[:3]
    assert "expandable_segments" in knobs[3:]


def test_a_foreign_process_on_the_failing_rank_is_named_with_its_memory() -> None:
    folder = FIXTURES / "multirank/foreign-process"
    report = diagnose(DiagnoseOptions(logs=[str(folder / "rank0.log"), str(folder / "rank1.log")]))
    assert report.culprit.value == "framework"
    top = report.findings[0]
    assert top.rule_id == "fw-other-process" and "pid 4455" in top.message and "8.00 GiB" in top.message
    ledger = {e.account: e.bytes for e in report.ledger}
    assert ledger["other_processes"] == 8 * GIB
    # 79.19 total - 1.02 free - 68.51 held by this process's PyTorch = 9.66 GiB outside it, 8 of them pid 4455's
    assert abs(ledger["framework"] - 1.66 * GIB) < 0.02 * GIB


def test_a_host_ram_refusal_is_not_blamed_on_the_gpus_other_tenants() -> None:
    """Ollama refused a load for system memory (31.9 GiB asked, 31.4 GiB free) on an 8 GiB card that showed 7.1 GiB
    available: what else holds the GPU takes none of the host RAM the load was refused."""
    log = FIXTURES / "rules/host-ram-insufficient/ollama-12865/server.log"
    report = diagnose(DiagnoseOptions(logs=[str(log)], gpu="NVIDIA CUDA GPU, 8.0 GiB", model="qwen3-vl:2b",
                                      commands=["ollama run qwen3-vl:2b"]))
    assert "fw-other-process" not in [f.rule_id for f in report.findings]
    assert report.culprit.value in ("host_memory", "kv_cache")


def test_nothing_free_at_start_suggests_no_fraction(tmp_path: Path) -> None:
    """vLLM read 0.0 of 22.71 GiB free at start-up (holdout r103, wrapped and cut as pasted): no
    gpu_memory_utilization fits, so none is offered; what holds the card (or a driver that misreads it) comes first."""
    log = tmp_path / "server.log"
    log.write_text("    ValueError: Free memory on device xpu:0 (0.0/22.71 GiB) is less than\n"
                   "    desired GPU memory utilization ...\n")
    report = diagnose(DiagnoseOptions(logs=[str(log)]))
    assert report.culprit.value == "framework" and report.findings[0].rule_id == "fw-free-below-util"
    knobs = [s.knob for s in report.suggestions]
    assert "gpu_memory_utilization" not in knobs and knobs[:2] == ["free_gpu", "upgrade"]


def test_experts_kept_in_cpu_ram_do_not_make_the_weights_overflow_the_card(tmp_path: Path) -> None:
    """holdout r130: gpt-oss-120b with -ot exps=CPU on a 12 GB RTX 3060 and no failure line: the GPU holds only the
    attention and dense parts (about 2% of the weights), so nothing says the weights do not fit."""
    log = tmp_path / "server.log"
    log.write_text("ggml_cuda_init: found 1 CUDA devices:\n"
                   "  Device 0: NVIDIA GeForce RTX 3060, compute capability 8.6, VMM: yes\n"
                   "llama-server -m gpt-oss-120b-Q4_K_M-00001-of-00002.gguf -ngl 100 -ot exps=CPU -fa on -c 131072\n")
    report = diagnose(DiagnoseOptions(logs=[str(log)]))
    assert "weights-exceed-gpu" not in [f.rule_id for f in report.findings]
    without = log.read_text().replace(" -ot exps=CPU", "")
    log.write_text(without)
    assert diagnose(DiagnoseOptions(logs=[str(log)])).findings[0].rule_id == "weights-exceed-gpu"


def test_llama_servers_slot_lines_are_after_the_load(tmp_path: Path) -> None:
    """holdout r130: llama-server's aligned "slot   load_model: id 0 | new slot" lines come once the model is loaded:
    a log of them alone is not one that stopped while the weights loaded."""
    log = tmp_path / "server.log"
    log.write_text("".join(f"0.02.505.69{i} I slot   load_model: id  {i} | task -1 | new slot, n_ctx = 1024\n" for i in range(4)))
    report = diagnose(DiagnoseOptions(logs=[str(log)]))
    assert report.framework == "llamacpp" and report.culprit.value == "unknown"


def test_a_load_the_scheduler_planned_with_a_quarter_free_is_not_blamed_on_the_weights(tmp_path: Path) -> None:
    """holdout r131: Ollama planned 13.8 GiB on 21.3 GiB of Metal memory and the runner stopped with no error line:
    the weights it placed left a third of the device free, so the cut load says nothing about them."""
    plan = ('time=2025-08-05T23:55:48.303+04:00 level=INFO source=server.go:175 msg=offload library=metal layers.requested=-1 '
            'layers.model=25 layers.offload=25 layers.split="" memory.available="[{avail} GiB]" memory.gpu_overhead="0 B" '
            'memory.required.full="13.8 GiB" memory.required.partial="13.8 GiB" memory.required.kv="150.0 MiB" '
            'memory.weights.total="11.7 GiB" memory.graph.full="1.0 GiB"\n')
    log = tmp_path / "server.log"
    head = ("Error: model runner has unexpectedly stopped, this may be due to resource limitations or an internal error\n"
            'time=2025-08-05T23:55:48.303+04:00 level=INFO source=sched.go:786 msg="new model will fit in available VRAM in '
            'single GPU, loading" gpu=0 parallel=1\n')
    log.write_text(head + plan.format(avail="21.3"))
    assert "weights-log-ends-in-load" not in [f.rule_id for f in diagnose(DiagnoseOptions(logs=[str(log)])).findings]
    log.write_text(head + plan.format(avail="17.0"))  # 81% of it planned: the load may still have been the weights'
    assert "weights-log-ends-in-load" in [f.rule_id for f in diagnose(DiagnoseOptions(logs=[str(log)])).findings]


def test_the_failure_is_quoted_by_the_line_that_says_what_ran_out(tmp_path: Path) -> None:
    """Metal reports a status first ("command buffer 0 failed with status 5") and what ran out on the next line: the
    report quotes that line. A first failure that is an error of its own keeps its line."""
    log = tmp_path / "server.log"
    log.write_text("ggml_metal_synchronize: error: command buffer 0 failed with status 5\n"
                   "error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n"
                   "ggml-metal-context.m:235: fatal error\n")
    message = diagnose(DiagnoseOptions(logs=[str(log)])).facts.get("oom.message")
    assert message is not None and message.value.startswith("error: Insufficient Memory") and message.evidence.line == 2
    log.write_text("ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0.\n"
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 214.00 MiB.\n")
    message = diagnose(DiagnoseOptions(logs=[str(log)])).facts.get("oom.message")
    assert message is not None and message.value.startswith("ValueError: Bfloat16") and message.evidence.line == 1


def test_a_launchers_preflight_names_what_was_free_and_offers_no_fraction_of_an_unknown_card(tmp_path: Path) -> None:
    """A wrapper's pre-flight check (holdout r134): 7.1 GiB free of a card it does not size, the launch wanting 21.7 GiB.
    Something held the rest before vLLM started; with the card's size unknown no gpu_memory_utilization is computed."""
    report = _diagnose_text(tmp_path, "INFO 09-02 04:31:40 [api_server.py:1395] vLLM API server version 0.11.0\n"
                                      "[preflight] ERROR: GPU 0 has 7.1 GiB free, but this config needs ~21.7 GiB/card\n")
    assert report.culprit.value == "framework" and report.findings[0].rule_id == "fw-free-below-util"
    assert "7.10 GiB were free at start-up; it wants 21.70 GiB" in report.findings[0].message
    assert [s.knob for s in report.suggestions][:1] == ["free_gpu"]
    assert "gpu_memory_utilization" not in [s.knob for s in report.suggestions]


def test_without_a_failure_line_the_numbers_alone_are_never_high_confidence(tmp_path: Path) -> None:
    """Ollama's scheduler saw 23.1 of 23.6 GiB held by the models it already runs, and the paste stops there (holdout
    r134): the other tenants are the likely account, but with no failure in the log it is not stated at high confidence."""
    line = ('time=2024-09-30T17:43:13.531Z level=INFO source=sched.go:507 msg="updated VRAM based on existing loaded models" '
            'gpu=GPU-43c5 library=cuda total="23.6 GiB" available="524.8 MiB"\n')
    log = tmp_path / "server.log"
    log.write_text(line)
    report = diagnose(DiagnoseOptions(logs=[str(log)]))
    assert report.culprit.value == "framework" and report.confidence is not None and report.confidence.value == "medium"
    assert [m for m in report.missing_evidence if m.startswith("the failure itself")]  # what would confirm it
    log.write_text(line + "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 256.00 MiB on device 0: cudaMalloc failed: out of memory\n")
    report = diagnose(DiagnoseOptions(logs=[str(log)]))
    assert report.culprit.value == "framework" and report.confidence is not None and report.confidence.value == "high"
    assert report.missing_evidence == ()


def test_an_mps_failure_counts_the_other_allocations_as_held(tmp_path: Path) -> None:
    """holdout r137: MPS's "other allocations" (13.77 of 27.20 GB) are this process's Metal memory outside PyTorch's
    allocator; the ledger showed them as free. They are held, and no second engine's pool is blamed for them."""
    report = _diagnose_text(tmp_path, "RuntimeError: MPS backend out of memory (MPS allocated: 13.36 GB, other allocations: 13.77 GB, "
                                      "max allowed: 27.20 GB). Tried to allocate 583.07 MB on private pool.\n")
    ledger = {e.account: e.bytes for e in report.ledger}
    assert abs(ledger["pytorch"] - 13.36 * GIB) < 0.01 * GIB
    assert abs(ledger["framework"] - 13.77 * GIB) < 0.01 * GIB
    assert ledger["free"] < 0.1 * GIB
    assert "fw-pool-outside-pytorch" not in [f.rule_id for f in report.findings]


def test_deepspeeds_workspace_figures_alone_name_its_reserve_and_show_the_card_in_use(tmp_path: Path) -> None:
    """holdout r139: DeepSpeed-Inference printed its workspace check (100 MiB asked, 47 MiB free of 4 GiB) and the paste
    stops before its error line. Its workspace beside the model is what did not fit; the card was in use, by what the
    log does not say (the ledger had drawn it empty)."""
    report = _diagnose_text(tmp_path, "Using ready reference\nRequested:\t104873984\nFree:\t49217536\nTotal:\t4294443008\n"
                                      "Traceback (most recent call last):\n")
    assert report.culprit.value == "framework" and report.findings[0].rule_id == "fw-deepspeed-workspace"
    assert "100.02 MiB" in report.findings[0].message
    ledger = {e.account: e.bytes for e in report.ledger}
    assert ledger["in_use"] == 4294443008 - 49217536 and ledger["free"] == 49217536


def test_deepspeeds_sized_workspace_is_this_process_unless_another_process_is_listed(tmp_path: Path) -> None:
    """holdout r198: DeepSpeed-Inference sized its workspace outside PyTorch's pool, then PyTorch failed with half the card
    held outside that pool. The workspace is in this process: its batch and max_out_tokens, not another process. Where the
    message names another process holding that memory, that process is the one to stop."""
    sized = "Setting maximum total tokens (input + output) to 414\n"
    old_message = ("RuntimeError: CUDA out of memory. Tried to allocate 568.00 MiB (GPU 0; 23.69 GiB total capacity; 11.57 GiB "
                   "already allocated; 228.56 MiB free; 11.57 GiB reserved in total by PyTorch)\n")
    report = _diagnose_text(tmp_path, sized + old_message)
    assert report.culprit.value == "framework" and report.findings[0].rule_id == "fw-deepspeed-workspace-held"
    assert "414 tokens" in report.findings[0].message
    assert report.suggestions[0].knob == "batch_size"
    other = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 568.00 MiB. GPU 0 has a total capacity of 23.69 GiB of "
             "which 228.56 MiB is free. Process 4242 has 11.90 GiB memory in use. Including non-PyTorch memory, this process has "
             "11.57 GiB memory in use. Of the allocated memory 11.20 GiB is allocated by PyTorch, and 100.00 MiB is reserved by "
             "PyTorch but unallocated.\n")
    listed = _diagnose_text(tmp_path, sized + other, name="other.log")
    assert [f.rule_id for f in listed.findings][:1] == ["fw-other-process"]
    assert "fw-deepspeed-workspace-held" not in [f.rule_id for f in listed.findings]


def test_a_neuron_cores_breakdown_names_the_part_that_filled_it(tmp_path: Path) -> None:
    """holdout r137-r138: AWS Neuron prints what a core held at the failure. The model's tensors at 82% of it are the
    weights; the runtime's own buffers (the rest, here DMA rings grown with the batch) at 49% are the framework's."""
    def report_for(tensors: str, rings: str, usage: str) -> Report:
        return _diagnose_text(tmp_path, f"ERROR  TDRV:dmem_alloc_internal                     Failed to alloc DEVICE memory: 13743184\n"
                              f"ERROR  TDRV:log_dev_mem                             Failed to allocate 13.107MB (usage: {usage}) on ND 0:NC 1, "
                              f"current utilization:\n        * total: 15.970GB\n        * tensors: {tensors}\n        * dma rings: {rings}\n",
                              f"neuron-{usage.replace(' ', '-')}.log")

    runtime = report_for("8.216GB", "6.518GB", "dma rings")
    assert runtime.culprit.value == "framework" and runtime.findings[0].rule_id == "fw-runtime-buffers"
    assert "7.75 GiB of the 15.97 GiB in use (49%)" in runtime.findings[0].message
    assert {e.account for e in runtime.ledger} >= {"framework", "in_use"}
    model = report_for("13.170GB", "1.471GB", "shared scratchpad")
    assert model.culprit.value == "weights" and model.findings[0].rule_id == "weights-runtime-tensors"


def test_a_small_request_failing_on_a_mostly_free_card_during_load_is_not_the_weights(tmp_path: Path) -> None:
    """holdout r140: a 20 MiB weight tensor failed on a 24 GiB card with 19.76 GiB free and 2.12 GiB allocated (Windows:
    the driver's commit to the page file). The weights did not fill the card; what failed is not their size, and with
    four fifths of the card free no memory ran short: the runtime refused it (round 170: such logs are mostly look-alikes)."""
    report = _diagnose_text(tmp_path, '  File "C:\\env\\lib\\site-packages\\torch\\nn\\modules\\linear.py", line 96, in __init__\n'
                                      "    self.weight = Parameter(torch.empty((out_features, in_features), **factory_kwargs))\n"
                                      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 24.00 GiB total "
                                      "capacity; 2.12 GiB already allocated; 19.76 GiB free; 2.22 GiB reserved in total by PyTorch)\n")
    rules = [f.rule_id for f in report.findings]
    assert report.culprit.value == "not_oom" and rules[0] == "not-oom-card-mostly-free"
    assert "weights-load-oom" not in rules
    # the same failure with the card nearly full is the weights'
    full = _diagnose_text(tmp_path, '  File "C:\\env\\lib\\site-packages\\torch\\nn\\modules\\linear.py", line 96, in __init__\n'
                                    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 24.00 GiB total "
                                    "capacity; 23.12 GiB already allocated; 9.76 MiB free; 23.22 GiB reserved in total by PyTorch)\n", "full.log")
    assert full.culprit.value == "weights"


def test_a_cut_message_with_only_the_cards_size_draws_no_free_card(tmp_path: Path) -> None:
    """holdout r139: PyTorch's message cut after "a total capacity of 6.00 GiB": nothing says what was in use or free,
    so the ledger shows the capacity and draws no bar (it had drawn the card empty, "free 6.00 GiB")."""
    from oomdoctor.report import fmt
    from oomdoctor.report.svg import render_svg

    report = _diagnose_text(tmp_path, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.29 GiB. GPU 0 has a total capacity "
                                      "of 6.00 GiB of whi\n")
    view = fmt.ledger_view(report)
    assert view.capacity_bytes == 6 << 30 and view.rows == ()
    assert render_svg(report) is None
    # with what was free stated, the rest is drawn as in use
    stated = _diagnose_text(tmp_path, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.29 GiB. GPU 0 has a total capacity "
                                      "of 6.00 GiB of which 20.00 MiB is free.\n", "stated.log")
    assert {e.account for e in fmt.ledger_view(stated).rows} >= {"free"}


def test_an_estimate_past_the_card_yields_to_a_log_that_reached_its_kv_cache(tmp_path: Path) -> None:
    """holdout r153: GLM-5.1 deployed over two nodes of eight 910B cards, the card named once: the catalog's 744B model
    on one card is 22 times the card, yet vLLM got to sizing its KV cache, so the weights had loaded under a split the
    context does not state. The stated failure is the KV cache's."""
    report = _diagnose_text(tmp_path, "两台机器每台八张910B的卡，vllm是0.18，部署多节点GLM5.1\n"
                                      "ValueError: No available memory for the cache blocks\n")
    assert report.culprit.value == "kv_cache"
    context = diagnose(DiagnoseOptions(logs=[str(tmp_path / "server.log")], gpu="Huawei Ascend 910B (NPU)", model="GLM-5.1"))
    rules = [f.rule_id for f in context.findings]
    assert context.culprit.value == "kv_cache"
    assert "weights-exceed-gpu" not in rules and "weights-no-room-for-kv" not in rules


# (holdout r159 mnn-llm-38: a CUTLASS kernel's assertion, then "Out of memory when beta is acquired")
_DEVICE_ASSERT = ("/src/cutlass/arch/memory_sm75.h:208: void ldsm(const void *): block: [0,21,0], thread: [95,0,0] "
                  "Assertion `0 && __PRETTY_FUNCTION__` failed.")
_ALLOC_FAILED = "RuntimeError: CUDA error: out of memory"


def test_a_memory_failure_below_a_device_fault_is_its_echo(tmp_path: Path) -> None:
    """A CUDA context that faulted fails every later call, allocations included: the fault is the answer."""
    report = _diagnose_text(tmp_path, f"{_DEVICE_ASSERT}\n{_ALLOC_FAILED}\n")
    assert report.culprit.value == "not_oom"
    assert report.findings[0].rule_id == "not-oom-gpu-fault"


def test_pytorchs_out_of_memory_below_a_device_fault_is_not_its_echo(tmp_path: Path) -> None:
    """(holdout r173 speculators-886) PyTorch raises its out-of-memory error only for CUDA's out-of-memory status; a lost
    context answers with the fault's status, so "Tried to allocate" below a fault is an allocation that really failed."""
    torch_oom = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.79 GiB. GPU 0 has a total capacity of 79.18 GiB "
                 "of which 1.20 GiB is free.")
    report = _diagnose_text(tmp_path, f"{_DEVICE_ASSERT}\n{torch_oom}\n")
    assert report.culprit.value not in ("not_oom", "unknown")
    assert "not-oom-gpu-fault" not in [f.rule_id for f in report.findings]


def test_a_memory_failure_above_a_device_fault_stays_a_memory_failure(tmp_path: Path) -> None:
    """The other order is an allocation that failed first; what faulted later does not undo it."""
    report = _diagnose_text(tmp_path, f"{_ALLOC_FAILED}\n{_DEVICE_ASSERT}\n")
    assert report.culprit.value not in ("not_oom", "unknown")


def test_ollamas_stopped_runner_is_a_crash_unless_the_weights_crowd_the_card() -> None:
    """Ollama's "may be due to resource limitations" is its guess: with nothing else in the log the runner's crash
    is named (not_oom, low); where the card and the model show the weights taking most of it, they come first."""
    log = str(FIXTURES / "rules/not-oom-runner-stopped-unstated/ollama-14550/server.log")
    alone = diagnose(DiagnoseOptions(logs=[log]))
    assert alone.culprit.value == "not_oom" and alone.findings[0].rule_id == "not-oom-runner-stopped-unstated"
    crowded = diagnose(DiagnoseOptions(logs=[log], gpu="RTX 3060 12GB", model="qwen2.5:14b"))
    assert "not-oom-runner-stopped-unstated" not in [f.rule_id for f in crowded.findings]
    assert crowded.culprit.value == "weights" and crowded.findings[0].rule_id == "weights-runner-died-model-near-device"


def test_a_need_the_failure_states_is_not_blamed_on_memory_held_beside_the_model(tmp_path: Path) -> None:
    """XLA said the program needed 21.90G of a 7.48G chip, and the launch context makes the model small (1.1B): the need is
    the program's own, so "something beside the model held the rest" (fw-weights-cleared-unstated) does not follow."""
    log = tmp_path / "server.log"
    log.write_text("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in "
                   "memory space hbm. Used 21.90G of 7.48G hbm. Exceeded hbm capacity by 14.42G.\n")
    report = diagnose(DiagnoseOptions(logs=[str(log)], model="a 1.1B causal LM"))
    assert report.framework == "other"
    rules = [f.rule_id for f in report.findings]
    assert "fw-weights-cleared-unstated" not in rules
    assert report.culprit.value != "framework"


def test_large_host_allocations_are_the_story_only_where_the_log_states_no_failure(tmp_path: Path) -> None:
    """holdout r154: tcmalloc's notices of gibibyte host allocations, and the log stops: host RAM (host-large-allocs-unended);
    the same notices above a device out-of-memory are only allocations that succeeded, and the device failure is read."""
    notices = ("tcmalloc: large alloc 3079086080 bytes == 0x5656f6cf0000 @  0x7fb8b24aa001 0x5654577f7b30\n"
               "tcmalloc: large alloc 5302616064 bytes == 0x5605c8c30000 @  0x7f917b37cb6b 0x7f917b39c379\n")
    silent = _diagnose_text(tmp_path, notices + "^C\n")
    assert silent.culprit.value == "host_memory" and silent.findings[0].rule_id == "host-large-allocs-unended"
    assert "4.94 GiB" in silent.findings[0].message
    failed = _diagnose_text(tmp_path, notices + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
                            "total capacity of 23.65 GiB of which 1.06 GiB is free.\n", name="failed.log")
    assert "host-large-allocs-unended" not in [f.rule_id for f in failed.findings]
    assert failed.culprit.value != "host_memory"


def test_a_schedulers_refusal_is_memory_only_where_its_own_numbers_fall_short(tmp_path: Path) -> None:
    """holdout r204 (GPUStack): a refusal to place the model whose need is below what the largest worker has is its placement
    (not-oom-placement-fits); the same refusal with the need above it is the model's size (weights-placement-refused); a
    worker counted with no card is a detection failure (not-oom-placement-no-gpu), and no worker past its filters (one not
    ready) a placement (not-oom-placement-filtered)."""
    refused = "Unable to find a schedulable worker for the model.\n- The model requires approximately {need} GiB of VRAM.\n"
    largest = "- The largest available worker has {have} GiB allocatable VRAM, 4/4 of GPUs meet the VRAM utilization ratio.\n"
    fits = _diagnose_text(tmp_path, refused.format(need="87.8") + largest.format(have="175.95"))
    assert fits.culprit.value == "not_oom" and fits.findings[0].rule_id == "not-oom-placement-fits"
    assert "needs 87.80 GiB and found 175.95 GiB" in fits.findings[0].message
    short = _diagnose_text(tmp_path, refused.format(need="187.8") + largest.format(have="175.95"), name="short.log")
    assert short.culprit.value == "weights" and short.findings[0].rule_id == "weights-placement-refused"
    assert "not-oom-placement-fits" not in [f.rule_id for f in short.findings]
    blind = _diagnose_text(tmp_path, "Unable to find a schedulable worker for the model. The largest available worker has 0.0 GiB "
                           "allocatable VRAM across 0 GPUs.\n", name="blind.log")
    assert blind.culprit.value == "not_oom" and blind.findings[0].rule_id == "not-oom-placement-no-gpu"
    filtered = _diagnose_text(tmp_path, "No suitable workers.\n- Matched 0/1 workers by READY status.\n", name="filtered.log")
    assert filtered.culprit.value == "not_oom" and filtered.findings[0].rule_id == "not-oom-placement-filtered"
    unfiltered = _diagnose_text(tmp_path, "No suitable workers.\n- Matched 1/1 workers by READY status.\n", name="unfiltered.log")
    assert unfiltered.culprit.value == "weights" and unfiltered.findings[0].rule_id == "weights-placement-refused"
