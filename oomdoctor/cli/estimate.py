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
              gpu_memory_utilization: Optional[float], framework_version: Optional[str]) -> Any:
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
    )


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
                facts.append((f"fit {key}", str(fit[key])))
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
            cells = [Text(f"{cell['bytes'] / (1 << 30):.1f}", style=style[cell["fits"]]) for cell in row]
            grid.add_row(str(conc), *cells)
        console.print(grid)
        console.print(Text("GiB per GPU; green fits, red does not", style="dim"))


def register(app: typer.Typer) -> None:
    @app.command("estimate")
    def estimate_command(
        config: str = typer.Option(..., "--config", help="config.json, model directory, .gguf file, or ORG/NAME "
                                                         "in the local Hugging Face cache."),
        framework: str = typer.Option("vllm", "--framework",
                                      help="vllm | sglang | llamacpp | ollama | tgi | tensorrt-llm | transformers"),
        dtype: Optional[str] = typer.Option(None, "--dtype", help="auto | float16 | bfloat16 | float32"),
        quantization: Optional[str] = typer.Option(None, "--quantization",
                                                   help="fp8, awq, gptq, w8a8, bnb_nf4, ... or a GGUF type (Q4_K_M)"),
        kv_cache_dtype: Optional[str] = typer.Option(None, "--kv-cache-dtype",
                                                     help="auto | fp8 | f16 | q8_0 | q4_0, or K/V such as q4_0/f16"),
        tensor_parallel_size: int = typer.Option(1, "--tensor-parallel-size", "-tp", min=1),
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
        settings = _settings(framework, dtype, quantization, kv_cache_dtype, tensor_parallel_size,
                             pipeline_parallel_size, max_model_len, max_num_seqs, max_num_batched_tokens,
                             gpu_memory_gib, gpu_memory_utilization, framework_version)
        model = load_model(config)
        e = estimate(model, settings)
        fit = solve(e, headroom=headroom) if settings.gpu_memory_bytes is not None else None
        grid = memory_map(e, headroom=headroom) if table else None
        data = estimate_dict(e, fit, grid)
        if output_format == "json":
            typer.echo(json.dumps(data, indent=2))
        else:
            _render_text(data)
