from __future__ import annotations

import dataclasses
import re

from oomdoctor import __version__
from oomdoctor.facts import Evidence
from oomdoctor.model import Account, Action, Culprit, Report, Suggestion
from oomdoctor.redact import Redactor, redact_report
from oomdoctor.report.markdown import MarkdownRenderer, fence

EXPECTED_KV = """\
# OOM verdict: kv_cache (high confidence)

**The KV cache cannot hold the context/concurrency asked for.**

- **Phase:** kv_alloc
- **Framework:** vLLM 0.6.3.post1

> KV cache: max_model_len 131072 needs more KV than the 3.50 GiB pool holds (28672 tokens). Set --max-model-len 28672.

## Memory ledger

| Account | Size | Share of card | Source | Note |
| --- | ---: | ---: | --- | --- |
| weights | 14.99 GiB | 68.0% | log | model weights took 14.99GiB |
| KV cache | 3.50 GiB | 15.9% | log | kv_cache_size |
| activations | 1.23 GiB | 5.6% | log | peak_torch_memory - weights |
| framework overhead | 133.12 MiB | 0.6% | log | non_torch_memory |
| free | 2.21 GiB | 10.0% | estimate | capacity minus the accounts |
| **capacity** | **22.06 GiB** | 100% | log | total_gpu_memory (NVIDIA L4) |

```text
[WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWKKKKKKKKAAF.....]  19.85 GiB of 22.06 GiB (90.0%)
W weights 14.99 GiB  K kv_cache 3.50 GiB  A activations 1.23 GiB  F framework 133.12 MiB  . free 2.21 GiB
```

## Triage walk

| Step | Account | Status | Why |
| ---: | --- | --- | --- |
| 1 | `weights` | ruled out | weights take 14.99 GiB of 22.06 GiB (68.0%) |
| 2 | `kv_cache` | **CULPRIT** | 131072-token context needs 16.00 GiB of KV; pool is 3.50 GiB |
| 3 | `activations` | not reached |   |
| 4 | `framework` | not reached |   |

## Findings

### 1. [kv_cache] Context length needs more KV cache than the GPU has left

Rule `kv-max-model-len-exceeds-capacity` · confidence high

max_model_len=131072 but the KV cache holds only 28672 tokens (3.50 GiB).

Evidence from `/var/log/vllm/server.log`:

```text
88 | INFO 10-14 09:12:41 worker.py:232] Memory profiling results: total_gpu_memory=22.06GiB \
initial_memory_usage=15.30GiB peak_torch_memory=16.35GiB memory_usage_post_profile=15.42GiB non_torch_memory=0.13GiB \
kv_cache_size=3.50GiB gpu_memory_utilization=0.90
97 | ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored \
in KV cache (28672). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.
```

## Suggested change

**Try first:** `max_model_len: set 28672` — largest context the KV pool holds

```sh
--max-model-len 28672
```

Other options, one at a time if the first does not hold:

2. `--gpu-memory-utilization 0.95` — gpu_memory_utilization: raise 0.95; gives the KV pool 1.10 GiB more
3. `--kv-cache-dtype fp8` — kv_cache_dtype: set fp8; halves KV bytes per token

Launch command with `max_model_len: set 28672` applied:

```diff
  vllm serve meta-llama/Llama-3.1-8B-Instruct
- --max-model-len 131072
+ --max-model-len 28672
  --gpu-memory-utilization 0.9
  --api-key '***'
```

```sh
vllm serve meta-llama/Llama-3.1-8B-Instruct \\
  --max-model-len 28672 \\
  --gpu-memory-utilization 0.9 \\
  --api-key '***'
```

---
_oomdoctor {version}; framework: vLLM 0.6.3.post1_
"""


def render(report: Report) -> str:
    return MarkdownRenderer().render(redact_report(report, Redactor()))


def headings(md: str) -> list[str]:
    return [line for line in md.splitlines() if line.startswith("#")]


def outside_code(md: str) -> str:
    return re.sub(r"(?ms)^(`{3,})[^\n]*\n.*?^\1$", "", md)


def test_kv_report_whole_document(kv):
    assert render(kv) == EXPECTED_KV.replace("{version}", __version__)


def test_verdict_comes_first_and_ledger_is_a_table(kv):
    md = render(kv)
    assert md.splitlines()[0] == "# OOM verdict: kv_cache (high confidence)"
    assert headings(md) == [
        "# OOM verdict: kv_cache (high confidence)",
        "## Memory ledger",
        "## Triage walk",
        "## Findings",
        "### 1. [kv_cache] Context length needs more KV cache than the GPU has left",
        "## Suggested change",
    ]
    assert "| Account | Size | Share of card | Source | Note |\n| --- | ---: | ---: | --- | --- |" in md


def test_no_html_outside_code_and_angle_brackets_escaped(make_kv):
    kv = make_kv(summary="Set <value> once the <b>log</b> shows it.")
    md = render(kv)
    assert "Set \\<value\\> once the \\<b\\>log\\</b\\> shows it." in md
    assert not re.search(r"<[A-Za-z/]", outside_code(md).replace("\\<", ""))


def test_table_cells_escape_pipes(make_kv):
    kv = make_kv()
    ledger = (dataclasses.replace(kv.ledger[0], note="a | b"), *kv.ledger[1:])
    md = render(dataclasses.replace(kv, ledger=ledger))
    assert "| weights | 14.99 GiB | 68.0% | log | a \\| b |" in md


def test_evidence_with_backticks_gets_a_longer_fence(make_kv):
    kv = make_kv()
    finding = dataclasses.replace(kv.findings[0], evidence=(Evidence("x.log", 5, "see ```py block```"),))
    md = render(dataclasses.replace(kv, findings=(finding,)))
    assert "````text\n5 | see ```py block```\n````" in md
    assert fence(["a"], "sh") == "```sh\na\n```"


def test_several_logs_label_findings_and_name_the_rank_that_failed_first(multi):
    md = render(multi)
    assert "- **Failed first:** pod-1 (/logs/pod-1/server.log, line 4211 at 2025-05-02T10:41:05Z)" in md
    assert (
        "## Logs (2)\n\n"
        "| Rank/pod | Log | First failure |   |\n"
        "| --- | --- | --- | --- |\n"
        "| pod-0 | `/logs/pod-0/server.log` | line 4388 at 2025-05-02T10:41:07Z |   |\n"
        "| pod-1 | `/logs/pod-1/server.log` | line 4211 at 2025-05-02T10:41:05Z | **failed first** |"
    ) in md
    assert "### 1. [activations] Prefill activation peak exceeds free memory — pod-1" in md
    assert "### 2. [framework] Allocator fragmentation — pod-0" in md
    assert md.count("# OOM verdict:") == 1
    assert "| 4 | `framework` | secondary | 2.11 GiB reserved but unallocated |" in md


def test_unknown_culprit_lists_missing_evidence(unknown):
    md = render(unknown)
    assert md.startswith("# OOM verdict: unknown\n\n**A memory failure, but the evidence does not name the account.**")
    assert "## Memory ledger" not in md and "## Suggested change" not in md
    assert (
        "## Missing evidence\n\nThe log does not decide the account. Any of these would:\n\n"
        "- the launch command (server_args=ServerArgs(...) line)\n"
    ) in md
    assert "## Notes\n\n- warning: no framework version in the log\n- skipped: nvml: pynvml not installed" in md
    assert "| 1 | `weights` | not reached |   |" in md


def test_rerun_and_probe_sections(make_kv):
    GiB = 1024**3
    kv = make_kv(
        rerun={"result": "confirmed", "reason": "max_model_len -> 28672 holds",
               "fix": {"knob": "max_model_len", "value": 28672, "argv": ["vllm", "serve", "m", "--max-model-len", "28672"],
                       "env": {"HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyz0123"}},
               "attempts": [{"index": 1, "role": "suggestion", "knob": "max_model_len", "value": 28672,
                             "result": "confirmed", "duration_s": 29.5}]},
        probe={"gpus": [{"name": "NVIDIA L4", "total_bytes": 22 * GiB}], "host": {"ram_total_bytes": 64 * GiB}},
    )
    md = render(kv)
    assert headings(md)[-2:] == ["## Rerun", "## Probe snapshot"]
    assert (
        "## Rerun\n\n**Result:** confirmed: max_model_len -> 28672 holds\n\n"
        "**Keep:** `max_model_len=28672  ->  vllm serve m --max-model-len 28672`\n\n"
        "| Run | Change | Result | Time |\n| --- | --- | --- | ---: |\n"
        "| 1 suggestion | `max_model_len=28672` | confirmed | 29.5s |"
    ) in md
    assert "| `gpus[0].total_bytes` | 22.00 GiB |\n| `host.ram_total_bytes` | 64.00 GiB |" in md
    assert "hf_abc" not in md


def test_env_setting_goes_in_front_of_the_command(make_kv):
    sug = Suggestion("expandable_segments", Action.ENABLE, True, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
                     "fragmentation", "fw-frag", Account.FRAMEWORK)
    kv = make_kv(suggestions=(sug,), extra={"launch_command": ["vllm", "serve", "m", "--enforce-eager"]})
    md = render(kv)
    assert (
        "```diff\n+ PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n  vllm serve m\n  --enforce-eager\n```"
    ) in md
    assert "```sh\nPYTORCH_CUDA_ALLOC_CONF=expandable_segments:True \\\n  vllm serve m \\\n  --enforce-eager\n```" in md


def test_suggestion_without_flag_says_what_to_change(make_kv):
    sug = Suggestion("max_model_len", Action.LOWER, None, None, "the log has no KV numbers", "r", Account.KV_CACHE)
    md = render(make_kv(suggestions=(sug,), extra={}))
    assert "**Try first:** `max_model_len: lower` — the log has no KV numbers" in md
    assert "No exact flag for this framework/version" in md
    assert "```diff" not in md


def test_secrets_never_reach_markdown(make_kv):
    kv = make_kv(summary="HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWx01234 was set")
    md = render(kv)
    assert "token-abc123secret" not in md and "hf_AbCd" not in md
    assert "HF_TOKEN=hf_*** was set" in md


def test_no_memory_failure(make_kv):
    report = make_kv(culprit=Culprit.UNKNOWN, confidence=None, findings=(), suggestions=(), triage=(),
                     memory_failure=False, summary="")
    md = render(report)
    assert md.startswith("# OOM verdict: no memory failure found\n\n**The log shows no out-of-memory failure.**")
