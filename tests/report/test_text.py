from __future__ import annotations

import re
import subprocess
import sys

import pytest

from oomdoctor import __version__
from oomdoctor.model import Report
from oomdoctor.redact import Redactor, redact_report
from oomdoctor.report.text import TextRenderer

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def render(report: Report, color: bool = False, width: int = 80, verbose: bool = True) -> str:
    return TextRenderer(color=color, width=width, verbose=verbose).render(redact_report(report, Redactor()))


def panel_titles(out: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^╭─ (.+?) ─", out, re.M)]


def body(out: str) -> list[str]:
    """The text inside the panels, one entry per line, borders stripped."""
    return [line[2:-2].rstrip() for line in out.splitlines() if line.startswith("│")]


def test_kv_report_structure(kv):
    out = render(kv)
    assert panel_titles(out) == [
        "OOM verdict",
        "Memory ledger",
        "Triage walk (weights → kv_cache → activations → framework)",
        "Findings and evidence",
        "Suggested change",
    ]
    lines = body(out)
    assert lines[:4] == [
        "kv_cache (high confidence)",
        "The KV cache cannot hold the context/concurrency asked for.",
        "phase: kv_alloc · framework: vLLM 0.6.3.post1",
        "",
    ]
    assert lines[4] == "KV cache: max_model_len 131072 needs more KV than the 3.50 GiB pool holds"
    assert "[" + "W" * 50 + "K" * 12 + "A" * 4 + "F" + "." * 7 + "]" in lines
    assert "19.85 GiB of 22.06 GiB (90.0%)" in lines
    assert "K KV cache           3.50 GiB   15.9% kv_cache_size" in lines
    assert "2. kv_cache    CULPRIT     131072-token context needs 16.00 GiB of KV; pool" in lines
    assert "3. activations not reached" in lines
    assert "97 ValueError: The model's max seq len (131072) is larger than the maximum" in lines
    assert lines[lines.index("Try first:") + 1] == "  --max-model-len 28672"
    assert "- --max-model-len 131072" in lines and "+ --max-model-len 28672" in lines
    assert "  --api-key '***'" in lines
    assert out.rstrip().splitlines()[-1] == f"oomdoctor {__version__}; framework: vLLM 0.6.3.post1"


@pytest.mark.parametrize("width", [60, 80, 100])
def test_lines_fit_the_width(kv, multi, unknown, width):
    for report in (kv, multi, unknown):
        out = render(report, width=width)
        assert max(len(line) for line in out.splitlines()) <= width
        colored = render(report, color=True, width=width)
        assert max(len(ANSI.sub("", line)) for line in colored.splitlines()) <= width


def test_no_ansi_without_color_and_ansi_with_it(kv):
    assert "\x1b" not in render(kv, color=False)
    assert ANSI.search(render(kv, color=True))


def test_colour_bar_uses_blocks_and_plain_bar_uses_letters(kv):
    plain = render(kv)
    assert re.search(r"\[W+K+A+F\.+\]", plain)
    colored = ANSI.sub("", render(kv, color=True))
    assert re.search(r"\[█+█+░+\]", colored)


def test_environment_does_not_override_the_cli_decision(kv, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("TERM", "xterm-256color")
    out = render(kv, color=False)
    assert "\x1b" not in out
    assert max(len(line) for line in out.splitlines()) == 80


def test_several_logs(multi):
    out = render(multi)
    lines = body(out)
    assert panel_titles(out)[3] == "Logs (2)"
    assert "phase: prefill · framework: vLLM 0.8.5 · failed first: pod-1" in lines
    assert "pod-1 /logs/pod-1/server.log, line 4211 at 2025-05-02T10:41:05Z — failed" in lines
    assert "1. [activations] Prefill activation peak exceeds free memory — pod-1" in lines
    assert "2. [framework] Allocator fragmentation — pod-0" in lines
    assert "4. framework   secondary 2.11 GiB reserved but unallocated" in lines


def test_unknown_shows_missing_evidence(unknown):
    out = render(unknown)
    assert panel_titles(out) == [
        "OOM verdict",
        "Triage walk (weights → kv_cache → activations → framework)",
        "Missing evidence",
        "Notes",
    ]
    lines = body(out)
    assert lines[0] == "unknown"
    assert "• nvidia-smi output at the time of the failure" in lines


def test_rerun_and_probe_panels(make_kv):
    rerun = {
        "result": "confirmed", "reason": "max_model_len -> 28672 holds",
        "fix": {"knob": "max_model_len", "value": 28672, "argv": ["vllm", "serve", "m", "--max-model-len", "28672"]},
        "baseline": {"index": 0, "role": "baseline", "result": "still_oom", "duration_s": 30.4},
        "attempts": [{"index": 1, "role": "suggestion", "knob": "max_model_len", "value": 28672, "result": "confirmed",
                      "duration_s": 29.5}],
    }
    kv = make_kv(rerun=rerun, probe={"gpu": {"name": "NVIDIA L4", "free_bytes": 1024**3}})
    out = render(kv)
    assert panel_titles(out)[-2:] == ["Rerun", "Probe snapshot"]
    lines = body(out)
    assert "confirmed: max_model_len -> 28672 holds" in lines
    assert "keep: max_model_len=28672  ->  vllm serve m --max-model-len 28672" in lines
    assert any(line.startswith("1 suggestion: max_model_len=28672") and "confirmed 29.5s" in line for line in lines)
    assert "gpu.free_bytes 1.00 GiB" in lines


def test_rich_is_imported_lazily():
    code = "import sys, oomdoctor.report.text, oomdoctor.report.markdown, oomdoctor.redact; print('rich' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_short_report_by_default(kv):
    out = render(kv, verbose=False)
    lines = out.rstrip().splitlines()
    assert len(lines) <= 30
    assert panel_titles(out) == ["OOM verdict"]  # one box; the rest is plain lines
    assert body(out)[0].startswith("kv_cache (high confidence)  phase kv_alloc · vLLM 0.6.3.post1")
    fix = next(i for i, line in enumerate(lines) if line.startswith("Fix first"))
    assert "--max-model-len 28672" in lines[fix]
    assert sum(1 for line in lines if line.startswith("Or")) == 1
    evidence = lines.index("Evidence (server.log)")
    assert lines[evidence + 1].startswith("97 ValueError: The model's max seq len (131072)")
    assert "Triage walk" not in out and "Findings and evidence" not in out
    assert lines[-1].endswith("the complete report") or "-v:" in out
