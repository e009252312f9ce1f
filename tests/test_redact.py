from __future__ import annotations

import dataclasses
import glob
import os

import pytest

from oomdoctor.facts import Evidence, Fact, FactSet, Origin
from oomdoctor.model import (
    Account,
    Action,
    Confidence,
    Culprit,
    Finding,
    LedgerEntry,
    LogSource,
    Report,
    StepStatus,
    Suggestion,
    TriageStep,
)
from oomdoctor.redact import MASK, Redactor, redact_report

HF = "hf_QwErTyUiOpAsDfGhJkLzXcVbNm0123456789"
API_KEY = "9f8e7d6c-secret-api-key-0042"
BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvbmNhbGwifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ"
DB_PASSWORD = "Tr0ub4dor&3"
OPENAI = "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
SECRETS = (HF, API_KEY, BEARER, DB_PASSWORD, OPENAI, "AKIAIOSFODNN7EXAMPLE", AWS_SECRET, "hunter2", "s3cr3t")

SEEDED_LOG = f"""\
+ export HF_TOKEN={HF}
INFO 05-02 10:40:58 api_server.py:712] vLLM API server version 0.8.5
INFO 05-02 10:40:58 api_server.py:713] args: Namespace(host=None, port=8000, api_key='{API_KEY}', max_model_len=32768, hf_token=None)
INFO 05-02 10:40:59 metrics.py:12] pushing to postgres://metrics:{DB_PASSWORD}@db.internal.example.com:5432/vllm
DEBUG client.py:88] headers={{'Authorization': 'Bearer {BEARER}'}}
Args {{ model_id: "bigscience/bloom", api_key: Some("{API_KEY}"), hf_token: None, ngrok_password: None }}
OPENAI_API_KEY={OPENAI} AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE aws_secret_access_key={AWS_SECRET}
python -m sglang.launch_server --model-path m --api-key s3cr3t --tp 2
{{"token": "hunter2", "max_total_tokens": 4096}}
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB
"""

EXPECTED_LOG = """\
+ export HF_TOKEN=hf_***
INFO 05-02 10:40:58 api_server.py:712] vLLM API server version 0.8.5
INFO 05-02 10:40:58 api_server.py:713] args: Namespace(host=None, port=8000, api_key='***', max_model_len=32768, hf_token=None)
INFO 05-02 10:40:59 metrics.py:12] pushing to postgres://metrics:***@db.internal.example.com:5432/vllm
DEBUG client.py:88] headers={'Authorization': 'Bearer ***'}
Args { model_id: "bigscience/bloom", api_key: Some("***"), hf_token: None, ngrok_password: None }
OPENAI_API_KEY=sk-proj-*** AWS_ACCESS_KEY_ID=AKIA*** aws_secret_access_key=***
python -m sglang.launch_server --model-path m --api-key *** --tp 2
{"token": "***", "max_total_tokens": 4096}
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB
"""

NORMAL_LINES = [
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 518.00 MiB. GPU 0 has a total capacty of 21.67 GiB",
    "python -m vllm.entrypoints.openai.api_server --model /data/qwen --max-model-len=512 --dtype=float --enforce-eager",
    "[gpu=0] Prefill batch. #new-seq: 17, #new-token: 13938, #cached-token: 3260, #token: 1234, token usage: 0.01",
    "max_input_length: 3072, max_total_tokens: 4096, max_batch_prefill_tokens: 4096, ngrok_authtoken: None",
    "tokenizer = AutoTokenizer.from_pretrained(path); eos_token='</s>', pad_token: <pad>, max_new_tokens=1150",
    "snapshots/9b534e4318b7ebc3c961a839f13eb18b1833f441/model-00001-of-00004.safetensors",
    "See https://pytorch.org/docs/stable/notes/cuda.html#environment-variables for PYTORCH_CUDA_ALLOC_CONF",
    "c10::cuda::CUDACachingAllocator::raw_alloc at 07:34:26; kv_cache_utils.py:868 Maximum concurrency: 2.31x",
    "INFO gpu_executor.py:102] # GPU blocks: 1792, # CPU blocks: 2048; --max-num-seqs 256 --kv-cache-dtype fp8",
    "NCCL version 2.18.1+cuda12.1, vllm 0.4.0.post1, driver 535.104.05, CUDA 12.2, llama.cpp build: 4567 (d2fe216f)",
    "Secret sauce: none. The key point is the KV cache; password-less login; tokens/s 41.2",
    "llm_load_tensors: offloaded 33/33 layers to GPU; CUDA0 buffer size = 4155.99 MiB",
]


def test_seeded_log_keeps_structure_and_loses_every_secret():
    out = Redactor().text(SEEDED_LOG)
    assert out == EXPECTED_LOG
    for secret in SECRETS:
        assert secret not in out


def test_normal_lines_are_unchanged():
    for hosts in (False, True):
        r = Redactor(hosts=hosts)
        for line in NORMAL_LINES:
            assert r.text(line) == line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ip=10.1.2.3 and 192.168.0.17:29500", "ip=*** and ***:29500"),
        ("bind 0.0.0.0:8000, probe 127.0.0.1", "bind 0.0.0.0:8000, probe 127.0.0.1"),
        ("node [fe80::1ff:fe23:4567:890a]:8000 2001:db8::1", "node [***]:8000 ***"),
        ("on gpu-node-7.us-east-1.compute.internal and vllm-0.vllm.svc.cluster.local", "on *** and ***"),
        ("postgres://u:***@db.corp.example.com:5432/x", "postgres://u:***@***:5432/x"),
        ("/home/alice/models/llama and /Users/bob/x and C:\\Users\\carol\\models", "/home/***/models/llama and /Users/***/x and C:\\Users\\***\\models"),
        ("mail oncall@example.com", "mail ***@***"),
        ("docs at https://docs.vllm.ai/en/latest and https://huggingface.co/meta-llama", "docs at https://docs.vllm.ai/en/latest and https://huggingface.co/meta-llama"),
        ("vllm.entrypoints.openai.api_server self.app.run model.safetensors", "vllm.entrypoints.openai.api_server self.app.run model.safetensors"),
    ],
)
def test_hosts(text, expected):
    assert Redactor(hosts=True).text(text) == expected
    assert Redactor(hosts=False).text(text) == text


def test_idempotent():
    r = Redactor(hosts=True)
    once = r.text(SEEDED_LOG)
    assert r.text(once) == once


def test_disabled_redactor_is_identity():
    r = Redactor(secrets=False)
    assert not r.active
    assert r.text(SEEDED_LOG) == SEEDED_LOG


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["vllm", "serve", "m", "--api-key", API_KEY], ["vllm", "serve", "m", "--api-key", MASK]),
        (["--hf-token", "$HF_TOKEN", "--token", "x1"], ["--hf-token", "$HF_TOKEN", "--token", MASK]),
        ([f"--api-key={API_KEY}", "--max-model-len", "4096"], ["--api-key=***", "--max-model-len", "4096"]),
        (["--api-key", "--port", "8000"], ["--api-key", "--port", "8000"]),
    ],
)
def test_argv(argv, expected):
    assert Redactor().argv(argv) == expected


def test_nested_values():
    data = {
        "env": {"HF_TOKEN": "abc", "CUDA_VISIBLE_DEVICES": "0,1", "OPENAI_API_KEY": None},
        "argv": ["vllm", "serve", "m", "--api-key", "k1"],
        "gpus": [{"name": "NVIDIA L4", "total_bytes": 23_000_000_000, "note": f"token {HF}"}],
        "tuple": ("a", "--password", "p"),
    }
    assert Redactor().value(data) == {
        "env": {"HF_TOKEN": MASK, "CUDA_VISIBLE_DEVICES": "0,1", "OPENAI_API_KEY": None},
        "argv": ["vllm", "serve", "m", "--api-key", MASK],
        "gpus": [{"name": "NVIDIA L4", "total_bytes": 23_000_000_000, "note": "token hf_***"}],
        "tuple": ("a", "--password", MASK),
    }


def _secret_report() -> Report:
    path = "/home/alice/logs/rank0.log"
    ev = Evidence(path, 3, f"args: Namespace(api_key='{API_KEY}')")
    sug = Suggestion("max_model_len", Action.SET, f"x {HF}", f"--max-model-len 4096 # {OPENAI}", f"why {BEARER}",
                     "r", Account.KV_CACHE)
    finding = Finding("r", Account.KV_CACHE, f"title {HF}", f"message Bearer {BEARER}", Confidence.HIGH, (ev,),
                      (sug,), source="rank0")
    return Report(
        schema_version="1", framework="vllm", framework_version="0.8.5", culprit=Culprit.KV_CACHE,
        confidence=Confidence.HIGH, phase="startup", summary=f"summary postgres://u:{DB_PASSWORD}@10.0.0.5/db",
        findings=(finding,), suggestions=(sug,),
        triage=(TriageStep(Account.KV_CACHE, StepStatus.CULPRIT, f"note api_key={API_KEY}"),),
        ledger=(LedgerEntry("capacity", 80 * 1024**3, "probe", f"on 10.0.0.5 token={API_KEY}"),),
        facts=FactSet([
            Fact("oom.message", f"HF_TOKEN={HF}", Origin.LOG, ev),
            Fact("knob.max_model_len", 4096, Origin.SETTINGS),
        ]),
        sources=(LogSource(path, "rank0", 10, 3, "10:41:05"),),
        missing_evidence=(f"need token={API_KEY}",), warnings=(f"warn {OPENAI}",), skipped=(f"skip {HF}",),
        failed_first="rank0",
        probe={"env": {"HF_TOKEN": "plain-value"}, "host": "gpu-7.corp.example.com"},
        rerun={"argv": ["vllm", "serve", "--api-key", "s3cr3t"], "result": "CONFIRMED"},
        extra={"launch_command": ["vllm", "serve", "m", "--api-key", "s3cr3t"]},
    )


def _strings(obj) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if dataclasses.is_dataclass(obj):
        return [s for f in dataclasses.fields(obj) for s in _strings(getattr(obj, f.name))]
    if isinstance(obj, FactSet):
        return [s for f in obj for s in _strings(f)]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, (list, tuple)):
        return [s for v in obj for s in _strings(v)]
    return []


def test_redact_report_reaches_every_string():
    report = _secret_report()
    out = redact_report(report, Redactor())
    text = "\n".join(_strings(out))
    for secret in (*SECRETS, "plain-value"):
        assert secret not in text, secret
    # hosts kept unless asked; numbers and structure untouched
    assert out.sources[0].path == "/home/alice/logs/rank0.log"
    assert out.findings[0].evidence[0].text == "args: Namespace(api_key='***')"
    assert out.facts.value("knob.max_model_len") == 4096
    assert out.ledger[0].bytes == 80 * 1024**3
    assert out.extra["launch_command"] == ["vllm", "serve", "m", "--api-key", MASK]
    assert out.rerun == {"argv": ["vllm", "serve", "--api-key", MASK], "result": "CONFIRMED"}
    assert report.summary.endswith(f"{DB_PASSWORD}@10.0.0.5/db")  # the input is not changed


def test_redact_report_hosts():
    out = redact_report(_secret_report(), Redactor(hosts=True))
    text = "\n".join(_strings(out))
    for ident in ("alice", "10.0.0.5", "gpu-7.corp.example.com"):
        assert ident not in text
    assert out.sources[0].path == "/home/***/logs/rank0.log"
    assert out.findings[0].evidence[0].source == "/home/***/logs/rank0.log"
    assert out.failed_first == out.sources[0].label == "rank0"


CORPUS = "/work/shared/corpus"


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="shared corpus not present")
def test_corpus_logs_have_no_false_positives():
    """The public corpus logs were already scrubbed; default redaction must not touch them."""
    r = Redactor()
    for path in sorted(glob.glob(f"{CORPUS}/*/server.log")):
        with open(path, encoding="utf-8", errors="replace") as fh:
            log = fh.read()
        assert r.text(log) == log, path
