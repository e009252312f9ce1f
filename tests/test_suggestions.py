"""Every suggestion is a setting: what pastes, with a computed value, spelled as the framework
spells it, within its constraints, and never what is already set."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from oomdoctor import knobs, launch
from oomdoctor.diagnose import DiagnoseOptions, diagnose
from oomdoctor.facts import Fact, FactSet, Origin
from oomdoctor.model import Account, Action
from oomdoctor.rules.loader import load_rules
from oomdoctor.rules.model import SuggestionSpec
from oomdoctor.rules.suggest import build, step_value

ROOT = Path(__file__).resolve().parents[1]
LOGS = sorted(ROOT.glob("fixtures/rules/*/*/server.log"))
PLACEHOLDER = re.compile(r"<[^>]*>|\?|see the finding|\be\.g\.")


@lru_cache(maxsize=1)
def _rules():  # type: ignore[no-untyped-def]
    return load_rules(())


@lru_cache(maxsize=None)
def _report(path: str):  # type: ignore[no-untyped-def]
    return diagnose(DiagnoseOptions(logs=[path]), _rules())


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_first_three_are_settings_not_placeholders(log: Path) -> None:
    report = _report(str(log))
    for s in report.suggestions[:3]:
        if s.flag is None:
            assert not knobs.needs_value(report.framework, s.knob, report.framework_version) or s.value is None
            continue
        assert not PLACEHOLDER.search(s.flag), (s.knob, s.flag)
        assert "  (" not in s.flag, f"prose in the flag: {s.flag!r}"  # notes go to `why`


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_flags_round_trip_through_the_spellings(log: Path) -> None:
    """A launch flag parses back (launch.FLAGS, the same table rerun writes with) to the knob
    and value it was made from."""
    report = _report(str(log))
    fw = report.framework
    for s in report.suggestions:
        if not s.flag or not s.rerunnable or s.value is None or isinstance(s.value, bool) or s.knob == "mm_limits":
            continue  # mm_limits: old vLLM spells a fixed image=1, not the JSON value
        if launch.is_env_assign(s.flag.split()[0]):
            facts = launch.parse_env(dict(t.split("=", 1) for t in s.flag.split() if launch.is_env_assign(t)))
        else:
            facts = launch.parse_argv(launch.split(s.flag), framework=fw)
        got = {f.key: f.value for f in facts}
        key = f"knob.{s.knob}"
        if key in got:
            assert got[key] == s.value or str(got[key]).lower() == str(s.value).lower(), (s.flag, got[key], s.value)


def _facts(**values: object) -> FactSet:
    return FactSet(Fact(k.replace("__", "."), v, Origin.LOG) for k, v in values.items())


def spec(knob: str, action: str, value: object = None, why: str = "because") -> SuggestionSpec:
    return SuggestionSpec(knob, Action(action), value, why)


def test_missing_numbers_give_a_conservative_step_not_a_placeholder() -> None:
    s = build(spec("max_num_seqs", "lower"), "r", Account.KV_CACHE, _facts(), "vllm", None)
    assert s is not None and s.value == 128 and s.flag == "--max-num-seqs 128"  # half of vLLM's default 256
    s = build(spec("max_model_len", "lower"), "r", Account.KV_CACHE, _facts(knob__max_model_len=32768), "sglang", None)
    assert s.value == 16384 and s.flag == "--context-length 16384"
    s = build(spec("gpu_layers", "lower"), "r", Account.WEIGHTS, _facts(), "llamacpp", None)
    assert s.value == 0 and "surely fits" in s.why  # the sources' baseline, then raise
    s = build(spec("tensor_parallel_size", "raise"), "r", Account.WEIGHTS, _facts(knob__tensor_parallel_size=2), "vllm", None)
    assert s.flag == "--tensor-parallel-size 4"


def test_a_setting_to_switch_off_is_spelled_off() -> None:
    # an environment toggle spelled on is pasted with its off value; a bare flag has none to paste
    s = build(spec("expandable_segments", "disable"), "r", Account.NOT_OOM, _facts(), "vllm", None)
    assert s is not None and s.flag == "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False"
    s = build(spec("enforce_eager", "disable"), "r", Account.FRAMEWORK, _facts(), "vllm", None)
    assert s is not None and s.flag is None
    # a flag that takes on/off (llama.cpp's -fa since b6327) and Ollama's 1/0 switch, turned off
    s = build(spec("attention_backend", "disable"), "r", Account.NOT_OOM, _facts(), "llamacpp", None)
    assert s is not None and s.flag == "-fa off"
    s = build(spec("attention_backend", "disable"), "r", Account.NOT_OOM, _facts(), "ollama", None)
    assert s is not None and s.flag == "OLLAMA_FLASH_ATTENTION=0"


def test_a_parallel_size_is_raised_above_what_runs() -> None:
    # a fit of 1 where the command sets none (one GPU) is no change: the step doubles instead
    s = build(spec("tensor_parallel_size", "raise", "{fit.tensor_parallel_size}"), "r", Account.WEIGHTS,
              _facts(fit__tensor_parallel_size=1, gpu__count=2), "tgi", None)
    assert s is not None and s.flag == "--num-shard 2"
    s = build(spec("tensor_parallel_size", "raise", "{fit.tensor_parallel_size}"), "r", Account.WEIGHTS,
              _facts(fit__tensor_parallel_size=4), "vllm", None)
    assert s.flag == "--tensor-parallel-size 4"


def test_never_suggests_what_is_already_set() -> None:
    assert build(spec("max_model_len", "set", 4096), "r", Account.KV_CACHE, _facts(knob__max_model_len=4096), "vllm", None) is None
    assert build(spec("enforce_eager", "enable"), "r", Account.FRAMEWORK, _facts(knob__enforce_eager=True), "vllm", None) is None
    assert build(spec("max_num_seqs", "lower", 512), "r", Account.KV_CACHE, _facts(knob__max_num_seqs=256), "vllm", None) is None


def test_quantization_knows_the_checkpoint_and_the_card() -> None:
    bf16 = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(), "vllm", None)
    assert bf16.knob == "quantization" and bf16.flag.startswith("--quantization fp8")  # not awq: vLLM cannot make AWQ at load
    assert bf16.rerunnable  # fp8 is made at load: the rerun can add the flag
    # before Ampere no fp8: a checkpoint of a method the card's kernels run (AWQ from 7.5, GPTQ from 6.0), a change of
    # model that a rerun cannot make by a flag (vllm-188: Mistral-7B on a 2080 Ti)
    turing = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(gpu__compute_capability="7.5"), "vllm", None)
    assert turing.knob == "quantization" and turing.value == "awq" and "AWQ checkpoint" in turing.why and not turing.rerunnable
    volta = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(gpu__compute_capability="7.0"), "vllm", None)
    assert volta.value == "gptq" and not volta.rerunnable
    maxwell = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(gpu__compute_capability="5.2"), "vllm", None)
    assert maxwell.knob == "smaller_model" and maxwell.flag is None
    # (compute capability is a number: Blackwell's 12.0 is after Ampere's 8.0, not before it as a string)
    blackwell = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(gpu__compute_capability="12.0"), "vllm", None)
    assert blackwell.knob == "quantization" and blackwell.flag.startswith("--quantization fp8")
    already = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(knob__quantization="awq"), "vllm", None)
    assert already.knob == "smaller_model"
    gguf = build(spec("quantization", "set"), "r", Account.WEIGHTS,
                 _facts(knob__quantization="Q4_K_M", knob__model="/models/Qwen2.5-7B-Instruct-Q4_K_M.gguf"), "llamacpp", None)
    assert gguf.value == "Q3_K_M" and gguf.flag == "-m /models/Qwen2.5-7B-Instruct-Q3_K_M.gguf"  # one level lower, the same file name
    hf = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(), "transformers", None)
    assert hf.value == "bnb-4bit" and hf.flag == "quantization_config=BitsAndBytesConfig(load_in_4bit=True)"
    # an engine the log does not name (AWS Neuron's runtime, holdout r85): no bitsandbytes, which is PyTorch's on CUDA
    other = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(gpu__backend="neuron"), "other", None)
    assert other.knob == "quantization" and other.value is None and "bitsandbytes" not in other.why and "4-bit" in other.why


def test_a_quantizing_job_offloads_instead_of_quantizing() -> None:
    """holdout r82: AutoFP8 ran out while quantizing: a quantized checkpoint is what the job makes, not a fix for it."""
    s = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(oom__hint="quantizing"), "transformers", None)
    assert s.knob == "cpu_offload" and s.flag.startswith('device_map="auto", max_memory=') and "quantizes" in s.why


def test_quantization_says_what_half_the_weights_would_still_take() -> None:
    # the reason is the framework's own (fp8 at load), not the rule's 4-bit wording, with the share computed
    big = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(ratio__weights_of_total=1.7), "vllm", None)
    assert big.value == "fp8" and "(85% of the card, not enough alone)" in big.why and "4-bit" not in big.why
    fits = build(spec("quantization", "set", "awq"), "r", Account.WEIGHTS, _facts(ratio__weights_of_total=1.1), "vllm", None)
    assert "(55% of the card)" in fits.why


def test_a_gguf_step_down_is_not_offered_for_weights_far_over_the_memory() -> None:
    # holdout r110: a 70B Q4_K_M on a 16 GB Mac: one level down saves a fifth, the weights are 2.4 times the memory
    over = build(spec("quantization", "set"), "r", Account.WEIGHTS, _facts(knob__quantization="Q4_K_M", ratio__weights_of_total=2.43),
                 "ollama", None)
    assert over.knob == "smaller_model" and "243% of the memory" in over.why
    near = build(spec("quantization", "set"), "r", Account.WEIGHTS, _facts(knob__quantization="Q4_K_M", ratio__weights_of_total=1.1),
                 "ollama", None)
    assert near.knob == "quantization" and near.value == "Q3_K_M"


def test_framework_constraints_and_versions() -> None:
    # TGI's launcher refuses --max-batch-prefill-tokens below --max-input-tokens
    tgi = build(spec("max_num_batched_tokens", "lower", 2048), "r", Account.ACTIVATIONS, _facts(), "tgi", None)
    assert tgi.flag == "--max-batch-prefill-tokens 2048 --max-input-tokens 2048 --max-total-tokens 4096"
    ctx = build(spec("max_model_len", "set", 8192), "r", Account.KV_CACHE, _facts(), "tgi", None)
    assert ctx.flag == "--max-total-tokens 8192 --max-input-tokens 8191"
    # OLLAMA_CONTEXT_LENGTH exists from 0.5.13; before, a Modelfile's num_ctx
    new = build(spec("max_model_len", "set", 8192), "r", Account.KV_CACHE, _facts(), "ollama", "0.6.2")
    old = build(spec("max_model_len", "set", 8192), "r", Account.KV_CACHE, _facts(), "ollama", "0.5.7")
    assert new.flag == "OLLAMA_CONTEXT_LENGTH=8192" and old.flag == "PARAMETER num_ctx 8192"
    # llama.cpp's -fa took a value from b6327
    assert build(spec("kv_cache_dtype", "set", "q8_0"), "r", Account.KV_CACHE, _facts(), "llamacpp", "b6000").flag == "-ctk q8_0 -ctv q8_0 -fa"
    assert build(spec("kv_cache_dtype", "set", "q8_0"), "r", Account.KV_CACHE, _facts(), "llamacpp", "b7000").flag == "-ctk q8_0 -ctv q8_0 -fa on"


def test_advice_the_reason_already_gives_is_not_said_twice() -> None:
    """A change no flag makes (more host RAM) is said once: the knob's stock advice is left out where the rule's
    reason already says it, and kept where it adds what to do."""
    restated = build(spec("host_ram", "raise", why="give the process or container more RAM, or run fewer workers on the node"),
                     "r", Account.HOST_MEMORY, _facts(), "vllm", None)
    assert restated is not None and restated.why == "give the process or container more RAM, or run fewer workers on the node"
    other = build(spec("host_ram", "raise", why="/dev/shm is RAM: the node needs room for it"), "r", Account.HOST_MEMORY, _facts(),
                  "vllm", None)
    assert other is not None and "raise its memory limit" in other.why


def test_step_value_floors() -> None:
    v, _ = step_value("vllm", "max_model_len", Action.LOWER, _facts(knob__max_model_len=600))
    assert v == 512  # never below the sources' conservative start
    assert step_value("vllm", "max_model_len", Action.LOWER, _facts(knob__max_model_len=512))[0] is None


def test_a_context_raised_for_a_refused_request_holds_it() -> None:
    """A request refused for its length: the context to start with is the request rounded up to 1K, never past the
    model's own context, and only when the request is longer than the context set now."""
    value, why = step_value("vllm", "max_model_len", Action.RAISE, _facts(mem__prefill_tokens=9402, knob__max_model_len=8192))
    assert value == 10240 and "9,402-token request" in why
    # llama.cpp's -c is the slots' total
    assert "-np" in step_value("llamacpp", "max_model_len", Action.RAISE, _facts(mem__prefill_tokens=2892, knob__max_model_len=2048))[1]
    over, why = step_value("vllm", "max_model_len", Action.RAISE, _facts(mem__prefill_tokens=163270, model__default_context=131072))
    assert over is None and "longer than the model's own context" in why
    assert step_value("vllm", "max_model_len", Action.RAISE, _facts(mem__prefill_tokens=4000, knob__max_model_len=8192))[0] is None


def test_gpu_layers_all_is_not_a_layer_count() -> None:
    # -ngl 999 asks for every layer: a step down starts from the model's count, never from 999
    known = step_value("llamacpp", "gpu_layers", Action.LOWER, _facts(knob__gpu_layers=999, mem__layers_total=33))
    assert known[0] == 24
    # count unknown: a baseline that fits, with the share of the weights buffer the card holds
    value, why = step_value("llamacpp", "gpu_layers", Action.LOWER,
                            _facts(knob__gpu_layers=999, oom__requested_bytes=27846 << 20, gpu__total_bytes=24 << 30))
    assert value == 0 and "about 79% of the model's layers fit the card" in why
    # a real count below the model's layers is stepped down as set
    assert step_value("llamacpp", "gpu_layers", Action.LOWER, _facts(knob__gpu_layers=40))[0] == 30


def test_a_runner_that_aborted_silently_points_at_its_own_log() -> None:
    """holdout r114: Ollama's runner aborted and relayed nothing; the error line names no cause, so the first step is
    the runner's own last lines, not 'the error line names the cause'."""
    report = _report(str(ROOT / "fixtures/rules/not-oom-other-error/ollama-7334/server.log"))
    first = report.suggestions[0]
    assert first.knob == "other" and "OLLAMA_DEBUG=1" in first.why and "error line names" not in first.why
    named = _report(str(ROOT / "fixtures/rules/not-oom-other-error/exllamav2-42/server.log"))
    assert "the error line names the cause" in named.suggestions[0].why


def test_a_split_over_gpus_in_a_script_is_cpu_offload_where_one_gpu_is_in_sight(tmp_path: Path) -> None:
    """transformers places whole layers with device_map: over several GPUs that is a pipeline split; with one GPU in
    sight the same device_map keeps the layers that do not fit it in CPU RAM (holdout: labels want cpu_offload there)."""
    log = tmp_path / "server.log"
    log.write_text("torch.cuda.OutOfMemoryError: CUDA out of memory.\n")
    one = [s.knob for s in diagnose(DiagnoseOptions(logs=[str(log)])).suggestions]
    assert "cpu_offload" in one[:3] and "pipeline_parallel_size" not in one
    two = [s.knob for s in diagnose(DiagnoseOptions(logs=[str(log)], gpu="2x RTX 4090")).suggestions]
    assert "pipeline_parallel_size" in two[:3]
    assert knobs.knob_for("transformers", "tensor_parallel_size", 4) == "pipeline_parallel_size"
    assert knobs.knob_for("vllm", "tensor_parallel_size") == "tensor_parallel_size"


def test_a_broken_install_says_where_to_look_by_what_the_log_names() -> None:
    """holdout r140: the first step for a broken install follows what broke: CUDA libraries the loader cannot find (cuDNN
    for CTranslate2), Metal shaders that do not build for the GPU, a driver or firmware the runtime refuses."""
    def first(case: str) -> str:
        return _report(str(ROOT / f"fixtures/rules/not-oom-broken-install/{case}/server.log")).suggestions[0].why

    assert "cuDNN" in first("chatterbox-tts-extended-14") and "LD_LIBRARY_PATH" in first("chatterbox-tts-extended-14")
    assert "Metal shaders" in first("llamacpp-3092")
    assert "driver or firmware" in first("fastflowlm-536")
    assert "Metal shaders" in first("llama-rn-124")
    # (a library built without GPU support names none of these: the general step)
    assert "GPU-enabled build" in first("bitsandbytes-windows-webui-1")
    # (an OpenCL driver whose compiler failed on the kernels: the driver, or a library built for this GPU)
    assert "OpenCL compiler" in first("mlc-llm-2650")


def test_a_final_error_that_names_a_setting_gets_that_setting() -> None:
    """holdout r99, r174: a check of one setting against another is answered with the value that passes it, and a
    quantized cache the build runs only with flash attention with flash attention turned on, or the cache left at f16."""
    rbln = _report(str(ROOT / "fixtures/rules/not-oom-other-error/vllm-rbln-527/server.log")).suggestions[0]
    assert (rbln.knob, rbln.value, rbln.flag) == ("max_num_batched_tokens", 1500, "--max-num-batched-tokens 1500")
    fa = [s.knob for s in _report(str(ROOT / "fixtures/rules/not-oom-other-error/llamacpp-28524/server.log")).suggestions[:2]]
    assert fa == ["attention_backend", "kv_cache_dtype"]


def test_a_launcher_that_spells_the_engine_s_settings_its_own_way_gets_its_own_flags(tmp_path: Path) -> None:
    """holdout r188: KoboldCpp runs llama.cpp but takes --gpulayers and --contextsize, not -ngl and -c; its banner, its
    parsed arguments or its program in --cmd name it, and a rerun does not patch its command with llama.cpp's flags."""
    kobold = _report(str(ROOT / "fixtures/rules/weights-exceed-gpu/koboldcpp-1540/server.log"))
    layers = next(s for s in kobold.suggestions if s.knob == "gpu_layers")
    assert layers.flag == f"--gpulayers {layers.value}" and not layers.rerunnable
    log = tmp_path / "server.log"
    log.write_text("CUDA error: out of memory\n  current device: 0, in function ggml_backend_cuda_buffer_type_alloc_buffer\n")
    cmd = "koboldcpp.exe --model gemma-3-27b-it-Q4_K_M.gguf --gpulayers 99 --contextsize 32768"
    flags = [s.flag or "" for s in diagnose(DiagnoseOptions(logs=[str(log)], commands=[cmd], gpu="RTX 3060 12GB")).suggestions]
    assert any(f.startswith("--gpulayers ") for f in flags) and not any(f.startswith("-ngl") for f in flags)
    plain = [s.flag or "" for s in diagnose(DiagnoseOptions(logs=[str(log)], commands=[cmd.replace("koboldcpp.exe", "llama-server")],
                                                         gpu="RTX 3060 12GB")).suggestions]
    assert any(f.startswith("-ngl ") for f in plain)
    # a cache type is a number to KoboldCpp; a knob it has no flag of its own for says the flag is the engine's
    assert knobs.render_launcher("koboldcpp", "kv_cache_dtype", "q8_0").text == "--quantkv 1 --flashattention"
    assert knobs.render_launcher("koboldcpp", "max_num_seqs", 4) is None


def test_max_memory_is_filled_from_the_card_and_the_host(tmp_path: Path) -> None:
    """accelerate's max_memory carries this card's share (a little under its 23.78 GiB) and, where the log states the
    host's RAM, the CPU's; a card the log does not state keeps the placeholder the note explains."""
    log = tmp_path / "server.log"
    log.write_text("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of "
                   "23.78 GiB of which 6.69 MiB is free. Of the allocated memory 23.30 GiB is allocated by PyTorch, and 2.00 MiB "
                   "is reserved by PyTorch but unallocated.\n")
    flags = [s.flag or "" for s in diagnose(DiagnoseOptions(logs=[str(log)])).suggestions if s.knob == "cpu_offload"]
    assert flags and '"20GiB"' in flags[0] and "NGiB" not in flags[0]
    bare = tmp_path / "bare.log"
    bare.write_text("torch.cuda.OutOfMemoryError: CUDA out of memory.\n")
    flags = [s.flag or "" for s in diagnose(DiagnoseOptions(logs=[str(bare)])).suggestions if s.knob == "cpu_offload"]
    assert flags and '"NGiB"' in flags[0]
