"""`oomdoctor estimate`: the memory ledger of one GPU for a model and launch settings.

Thin: parse flags, call `oomdoctor.memory`, render. Heavy imports (rich, gguf) stay inside the
command so the CLI starts fast.
"""

from __future__ import annotations

from typing import Any, Optional

import typer

FORMATS = ("text", "json")


def _settings(framework: str, dtype: Optional[str], quantization: Optional[str], kv_cache_dtype: Optional[str],
              tp: int, pp: int, max_model_len: Optional[int], max_num_seqs: Optional[int],
              max_num_batched_tokens: Optional[int], gpu_memory_gib: Optional[float],
              gpu_memory_utilization: Optional[float], framework_version: Optional[str],
              cpu_offload_gb: Optional[float] = None, cpu_moe_layers: Optional[int] = None) -> Any:
    from oomdoctor.errors import InputError
    from oomdoctor.memory import EstimateSettings, Framework
    from oomdoctor.memory.dtypes import GIB, parse_dtype

    if gpu_memory_gib is not None and gpu_memory_gib <= 0:
        raise InputError("--gpu-memory-gib must be positive")
    parse_dtype(dtype)  # reject unknown names early, with the flag's own message
    return EstimateSettings(
        framework=Framework.parse(framework),
        dtype=dtype,
        quantization=quantization,
        kv_cache_dtype=kv_cache_dtype,
        tensor_parallel_size=tp,
        pipeline_parallel_size=pp,
        max_model_len=max_model_len,
        max_num_seqs=max_num_seqs,
        max_num_batched_tokens=max_num_batched_tokens,
        gpu_memory_bytes=int(gpu_memory_gib * GIB) if gpu_memory_gib is not None else None,
        gpu_memory_utilization=gpu_memory_utilization,
        framework_version=framework_version,
        cpu_offload_gb=cpu_offload_gb,
        cpu_moe_layers=cpu_moe_layers,
    )


def _model_spec(config: Optional[str], name: Optional[str], quantization: Optional[str]) -> tuple[str, Optional[str], list[str]]:
    """What load_model reads, and the quantization the model's name states when none is given."""
    if config is not None:
        return config, quantization, []
    from oomdoctor.context import from_model
    from oomdoctor.errors import InputError

    ctx = from_model(str(name))
    if ctx.model is None:
        raise InputError(ctx.notes[0] if ctx.notes else f"--model {name}: unknown model")
    named = next((str(f.value) for f in ctx.facts if f.key == "knob.quantization"), None)
    notes = [f"--model {name} -> {ctx.model.removeprefix('catalog:')} (offline catalog)"] if ctx.model.startswith("catalog:") else []
    return ctx.model, quantization or named, notes


def _card(gpu: Optional[str], gib: Optional[float], tp: Optional[int]) -> tuple[Optional[float], Optional[int]]:
    """--gpu fills --gpu-memory-gib (the capacity the runtime reports) and a default TP of its card count."""
    if gpu is None:
        return gib, tp
    from oomdoctor.context import from_gpu
    from oomdoctor.errors import InputError

    ctx = from_gpu(gpu)
    total = next((int(f.value) for f in ctx.facts if f.key == "gpu.total_bytes"), None)
    count = next((int(f.value) for f in ctx.facts if f.key == "gpu.count"), None)
    if total is None:
        raise InputError(ctx.notes[0] if ctx.notes else f"--gpu {gpu}: unknown card")
    return (gib if gib is not None else total / (1 << 30)), (tp if tp is not None else count)


def _gib(n: int | None) -> str:
    return "-" if n is None else f"{n / (1 << 30):,.2f} GiB"


def _render_text(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    m, s = data["model"], data["settings"]
    title = (f"{m['model_type']} ({m['params'] / 1e9:.2f} B params, {m['attention']}) on {data['framework']}, "
             f"TP {s['tensor_parallel_size']} PP {s['pipeline_parallel_size']}")
    table = Table(title=title, title_justify="left")
    table.add_column("account")
    table.add_column("per GPU", justify="right")
    table.add_column("source")
    colours = {"weights": "blue", "kv_cache": "magenta", "activations": "yellow", "framework": "cyan",
               "free": "green", "capacity": "white"}
    for name, acc in data["ledger"].items():
        table.add_row(Text(name, style=colours[name]), _gib(acc["bytes"]), acc["source"])
    console.print(table)
    cap = data["ledger"]["capacity"]["bytes"]
    parts = [(n, data["ledger"][n]["bytes"] or 0) for n in ("weights", "kv_cache", "activations", "framework")]
    scale = cap or sum(b for _, b in parts) or 1
    width = 60
    bar = Text()
    for name, b in parts:
        cells = min(width - len(bar.plain), max(0, round(width * max(0, b) / scale)))
        bar.append("█" * cells, style=colours[name])
    free = width - len(bar.plain)
    if cap and free > 0:
        bar.append("░" * free, style="green")
    over = data["ledger"]["free"]["bytes"]
    if over is not None and over < 0:
        bar.append(f" over by {_gib(-over)}", style="bold red")
    console.print(Text("card  ") + bar + Text(f"  {_gib(cap) if cap else 'card size unknown'}"))
    facts = [
        ("settings", f"dtype {s['dtype']}, weights {s['quantization']}, KV {s['kv_cache_dtype']}, "
                     f"max_model_len {s['max_model_len']}, max_num_seqs {s['max_num_seqs']}"),
        ("weights", f"{_gib(data['weights_bytes'])} per GPU ({data['bits_per_weight']} bits per weight)"),
        ("KV per token", f"{data['kv_bytes_per_token']:,} B per GPU"),
    ]
    if data.get("kv_tokens") is not None:
        facts.append(("KV capacity", f"{data['kv_tokens']:,} tokens ({_gib(data.get('kv_cache_bytes'))})"))
    if s.get("gpu_memory_utilization") is not None:
        facts.append(("memory fraction", f"{s['gpu_memory_utilization']} ({s['gpu_memory_utilization_source']})"))
    fit = data.get("fit")
    if fit:
        verdict = {True: "fits", False: "does NOT fit", None: "unknown"}[fit["fits"]]
        facts.append(("verdict", f"{verdict} ({fit['needed_tokens']:,} tokens needed)"
                                 + ("" if fit["within_headroom"] in (True, None) else "; headroom below 10%")))
        for key in ("max_model_len", "max_num_seqs", "gpu_memory_utilization", "kv_cache_dtype",
                    "tensor_parallel_size", "gpu_layers"):
            if fit.get(key) is not None:
                shown = str(fit[key])
                if key == "max_num_seqs" and fit[key] == 0:
                    shown = "none fits (see the note)"
                elif key == "gpu_memory_utilization":
                    shown = f"at least {fit[key]}"
                facts.append((f"fit {key}", shown))
        for note in fit.get("notes") or ():
            facts.append(("note", note))
    for label, value in facts:
        console.print(Text(f"{label:>18}: ", style="bold") + Text(value))
    for note in data.get("notes", []):
        console.print(Text(f"  note: {note}", style="dim"))
    if "table" in data:
        t = data["table"]
        grid = Table(title="memory map: concurrency x context (per GPU)", title_justify="left")
        grid.add_column("seqs \\ ctx", justify="right")
        for c in t["contexts"]:
            grid.add_column(f"{c // 1024}K" if c >= 1024 else str(c), justify="right")
        for conc, row in zip(t["concurrencies"], t["rows"]):
            style = {True: "green", False: "red", None: ""}
            mark = {True: " ok", False: " NO", None: ""}  # readable without colour (piped, pasted into a ticket)
            cells = [Text(f"{cell['bytes'] / (1 << 30):.1f}{mark[cell['fits']]}", style=style[cell["fits"]]) for cell in row]
            grid.add_row(str(conc), *cells)
        console.print(grid)
        console.print(Text("GiB per GPU; ok (green) fits, NO (red) does not", style="dim"))


def register(app: typer.Typer) -> None:
    @app.command("estimate")
    def estimate_command(
        config: Optional[str] = typer.Option(None, "--config", help="config.json, model directory, .gguf file, or ORG/NAME "
                                                                    "in the local Hugging Face cache."),
        model: Optional[str] = typer.Option(None, "--model", help="A model by name, resolved offline: HF id, Ollama tag or "
                                                                  "GGUF file name (local HF cache first, then the shipped catalog)."),
        gpu: Optional[str] = typer.Option(None, "--gpu", help="The card as you would write it ('L4', '2x RTX 4090', "
                                                              "'A100 80GB'): sets --gpu-memory-gib and, for several cards, "
                                                              "the tensor-parallel size."),
        framework: str = typer.Option("vllm", "--framework",
                                      help="vllm | sglang | llamacpp | ollama | tgi | tensorrt-llm | transformers"),
        dtype: Optional[str] = typer.Option(None, "--dtype", help="auto | float16 | bfloat16 | float32"),
        quantization: Optional[str] = typer.Option(None, "--quantization",
                                                   help="fp8, awq, gptq, w8a8, bnb_nf4, ... or a GGUF type (Q4_K_M)"),
        kv_cache_dtype: Optional[str] = typer.Option(None, "--kv-cache-dtype",
                                                     help="auto | fp8 | f16 | q8_0 | q4_0, or K/V such as q4_0/f16"),
        tensor_parallel_size: Optional[int] = typer.Option(None, "--tensor-parallel-size", "-tp", min=1,
                                                           help="default 1, or the card count of --gpu"),
        pipeline_parallel_size: int = typer.Option(1, "--pipeline-parallel-size", "-pp", min=1),
        max_model_len: Optional[int] = typer.Option(None, "--max-model-len", min=1,
                                                    help="context length (llama.cpp/Ollama: n_ctx / num_ctx)"),
        max_num_seqs: Optional[int] = typer.Option(None, "--max-num-seqs", min=1,
                                                   help="concurrent sequences (llama.cpp -np, Ollama parallel)"),
        max_num_batched_tokens: Optional[int] = typer.Option(None, "--max-num-batched-tokens", min=1,
                                                             help="batched-token / prefill-chunk budget"),
        gpu_memory_gib: Optional[float] = typer.Option(None, "--gpu-memory-gib",
                                                       help="total memory of ONE GPU in GiB, as printed"),
        gpu_memory_utilization: Optional[float] = typer.Option(
            None, "--gpu-memory-utilization",
            help="vLLM gpu_memory_utilization / SGLang mem_fraction_static / TRT-LLM free fraction"),
        framework_version: Optional[str] = typer.Option(None, "--framework-version",
                                                        help="e.g. 0.5.0 (older vLLM cached DeepSeek without MLA)"),
        cpu_offload_gb: Optional[float] = typer.Option(None, "--cpu-offload-gb", min=0.0,
                                                       help="vLLM/SGLang: GiB of each GPU's weights kept in CPU RAM"),
        n_cpu_moe: Optional[int] = typer.Option(None, "--n-cpu-moe", min=0,
                                                help="llama.cpp: keep the experts of the first N layers in CPU RAM "
                                                     "(N at or above the layer count: all, as --cpu-moe)"),
        headroom: float = typer.Option(0.10, "--headroom", min=0.0, max=0.5, help="share of the card kept free"),
        output_format: str = typer.Option("text", "--format", help="text | json"),
        table: bool = typer.Option(False, "--table", help="also print memory for concurrency x context"),
    ) -> None:
        """Estimate weights, KV cache, activations and framework memory per GPU, and what fits."""
        import json

        from oomdoctor.errors import InputError
        from oomdoctor.memory import estimate, load_model, memory_map, solve
        from oomdoctor.memory.report import estimate_dict

        if output_format not in FORMATS:
            raise InputError(f"unknown format {output_format!r} (use text or json)")
        if (config is None) == (model is None):
            raise InputError("give the model as --model NAME or --config PATH (one of them)")
        spec, quantization, notes = _model_spec(config, model, quantization)
        gpu_memory_gib, tensor_parallel_size = _card(gpu, gpu_memory_gib, tensor_parallel_size)
        settings = _settings(framework, dtype, quantization, kv_cache_dtype, tensor_parallel_size or 1,
                             pipeline_parallel_size, max_model_len, max_num_seqs, max_num_batched_tokens,
                             gpu_memory_gib, gpu_memory_utilization, framework_version,
                             cpu_offload_gb=cpu_offload_gb, cpu_moe_layers=n_cpu_moe)
        for note in notes:
            typer.echo(f"oomdoctor: note: {note}", err=True)
        model = load_model(spec)
        e = estimate(model, settings)
        fit = solve(e, headroom=headroom) if settings.gpu_memory_bytes is not None else None
        grid = memory_map(e, headroom=headroom) if table else None
        data = estimate_dict(e, fit, grid)
        if output_format == "json":
            typer.echo(json.dumps(data, indent=2))
        else:
            _render_text(data)
