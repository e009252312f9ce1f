from __future__ import annotations

import dataclasses

import pytest

from oomdoctor.model import Account, LedgerEntry, StepStatus, TriageStep
from oomdoctor import launch
from oomdoctor.report import fmt

GiB = 1024**3


@pytest.mark.parametrize(
    ("n", "text"),
    [(None, "?"), (0, "0 B"), (1023, "1023 B"), (1024, "1.00 KiB"), (518 * 1024**2, "518.00 MiB"),
     (int(21.67 * GiB), "21.67 GiB"), (-2 * GiB, "-2.00 GiB"), (3 * 1024**4, "3.00 TiB")],
)
def test_fmt_bytes(n, text):
    assert fmt.fmt_bytes(n) == text


def test_bar_segments_fill_exactly_and_keep_small_accounts_visible(kv):
    view = fmt.ledger_view(kv)
    for cells in (10, 50, 76):
        segs = fmt.bar_segments(view, cells)
        assert sum(n for _, n in segs) == cells
        assert [a for a, _ in segs] == ["weights", "kv_cache", "activations", "framework", "free"]
        assert all(n >= 1 for _, n in segs)


def test_bar_over_capacity(kv):
    ledger = tuple(e for e in kv.ledger if e.account != "capacity") + (LedgerEntry("capacity", 16 * GiB, "probe"),)
    view = fmt.ledger_view(dataclasses.replace(kv, ledger=ledger))
    assert view.over_by == int(14.99 * GiB) + int(3.5 * GiB) + int(1.23 * GiB) + int(0.13 * GiB) - 16 * GiB
    bar = fmt.text_bar(view, 20)
    assert bar.count(".") == 0 and bar.count("|") == 1 and bar.index("|") == 1 + round(20 * 16 / 19.85)
    assert fmt.bar_caption(view).endswith(f"over capacity by {fmt.fmt_bytes(view.over_by)}")


def test_triage_walk_fills_missing_steps_and_keeps_gates_first(kv):
    report = dataclasses.replace(kv, triage=(
        TriageStep(Account.KV_CACHE, StepStatus.CULPRIT, "x"),
        TriageStep(Account.HOST_MEMORY, StepStatus.RULED_OUT, "no kill"),
    ))
    walk = fmt.triage_walk(report)
    assert [(fmt.account_name(t.account), t.status) for t in walk] == [
        ("host_memory", StepStatus.RULED_OUT),
        ("weights", StepStatus.NOT_REACHED),
        ("kv_cache", StepStatus.CULPRIT),
        ("activations", StepStatus.NOT_REACHED),
        ("framework", StepStatus.NOT_REACHED),
    ]


@pytest.mark.parametrize(
    ("argv", "setting", "expected"),
    [
        (["vllm", "serve", "m", "--max-model-len", "32768"], "--max-model-len 16384",
         ["vllm", "serve", "m", "--max-model-len", "16384"]),
        (["vllm", "serve", "m", "--max_model_len=32768"], "--max-model-len 16384",
         ["vllm", "serve", "m", "--max_model_len=16384"]),  # the user's spelling and form stay
        (["vllm", "serve", "m", "-tp", "1"], "--tensor-parallel-size 2",
         ["vllm", "serve", "m", "-tp", "2"]),
        (["vllm", "serve", "m"], "--enforce-eager", ["vllm", "serve", "m", "--enforce-eager"]),
        (["vllm", "serve", "m", "--enforce-eager"], "--enforce-eager", ["vllm", "serve", "m", "--enforce-eager"]),
        (["llama-server", "-m", "x.gguf", "-ctk", "f16"], "-ctk q8_0 -ctv q8_0 -fa on",
         ["llama-server", "-m", "x.gguf", "-ctk", "q8_0", "-ctv", "q8_0", "-fa", "on"]),
        (["CUDA_VISIBLE_DEVICES=0", "vllm", "serve", "m"], "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
         ["CUDA_VISIBLE_DEVICES=0", "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", "vllm", "serve", "m"]),
        (["vllm", "serve", "m"], "CUDA_VISIBLE_DEVICES=<idle GPU index>", None),
        (["vllm", "serve", "m"], "docker run --shm-size=16g (or --ipc=host)", None),
        (["python", "x.py"], "from_pretrained(..., torch_dtype=torch.bfloat16)", None),
    ],
)
def test_apply_setting(argv, setting, expected):
    assert launch.apply_setting(argv, setting) == expected


def test_split_flag_separates_the_note():
    assert fmt.split_flag("-ctk q8_0 -ctv q8_0 -fa on  (a quantized V cache needs flash attention)") == (
        "-ctk q8_0 -ctv q8_0 -fa on", "a quantized V cache needs flash attention")
    assert fmt.split_flag("--max-model-len 4096") == ("--max-model-len 4096", "")
    assert fmt.split_flag(None) == (None, "")


def test_command_lines_group_flags_with_values():
    argv = ["HF_HOME=/data", "python", "-m", "vllm.entrypoints.openai.api_server", "--model", "m", "--enforce-eager"]
    assert fmt.command_lines(argv) == [
        "HF_HOME=/data", "python", "-m vllm.entrypoints.openai.api_server", "--model m", "--enforce-eager"]


SNAPSHOT = {
    "version": 1,
    "taken_at": "2025-03-14T09:26:53Z",
    "hostname": "shared-a100",
    "gpu": {
        "driver_version": "550.54.15",
        "cuda_driver_version": "12.4",
        "devices": [{
            "index": 0, "name": "NVIDIA A100-SXM4-80GB", "total_bytes": 80 * GiB, "used_bytes": 77 * GiB,
            "free_bytes": 3 * GiB, "mig_enabled": False,
            "processes": [
                {"pid": 2388, "used_bytes": 15 * GiB, "command": "VLLM::EngineCore", "user": "root"},
                {"pid": 4242, "used_bytes": 61 * GiB, "command": "python train.py", "user": "alice"},
                {"pid": 5000, "used_bytes": GiB // 2, "command": "python notebook.py", "user": "bob"},
            ],
            "mig_instances": [], "notes": ["another process holds 61.00 GiB"],
        }],
    },
    "host": {
        "ram": {"total_bytes": 169 * GiB, "available_bytes": 152 * GiB, "swap_total_bytes": 0},
        "shm": {"path": "/dev/shm", "total_bytes": 64 * 1024**2, "free_bytes": 0},
        "cgroup": {"limit_bytes": None, "usage_bytes": 38 * GiB, "oom_kills": 2},
        "kernel_oom": {"lines": ["python invoked oom-killer: gfp_mask=0x140cca"]},
    },
    "server": {"pid": 2201, "framework": "vllm", "user": "root", "env": {"HF_TOKEN": "abc"}},
}


def test_probe_summary_of_a_snapshot():
    assert fmt.probe_summary(SNAPSHOT, max_processes=2) == [
        ("taken", "2025-03-14T09:26:53Z on shared-a100"),
        ("driver", "550.54.15 (CUDA 12.4)"),
        ("GPU 0", "NVIDIA A100-SXM4-80GB: 77.00 GiB used of 80.00 GiB, 3.00 GiB free"),
        ("GPU 0 pid 4242", "61.00 GiB python train.py (alice)"),
        ("GPU 0 pid 2388", "15.00 GiB VLLM::EngineCore (root)"),
        ("GPU 0 others", "1 more processes, 512.00 MiB"),
        ("GPU 0 note", "another process holds 61.00 GiB"),
        ("host RAM", "152.00 GiB available of 169.00 GiB; swap 0 B"),
        ("/dev/shm", "0 B free of 64.00 MiB"),
        ("container", "38.00 GiB used of no limit; 2 OOM kills"),
        ("kernel OOM", "1 line(s); first: python invoked oom-killer: gfp_mask=0x140cca"),
        ("server", "pid 2201 (vllm, root)"),
    ]


def test_probe_summary_of_an_unknown_shape_flattens():
    assert fmt.probe_summary({"a": {"b_bytes": GiB, "c": [1, 2]}}) == [("a.b_bytes", "1.00 GiB"), ("a.c", "1, 2")]


def test_probe_identity_is_masked_with_hosts():
    from oomdoctor.redact import Redactor

    masked = Redactor(hosts=True).value(SNAPSHOT)
    summary = dict(fmt.probe_summary(masked))
    assert summary["taken"] == "2025-03-14T09:26:53Z on ***"
    assert summary["GPU 0 pid 4242"] == "61.00 GiB python train.py (***)"
    assert masked["server"]["env"] == {"HF_TOKEN": "***"}
    assert Redactor().value(SNAPSHOT)["hostname"] == "shared-a100"


def test_launch_command_accepts_a_string(kv):
    report = dataclasses.replace(kv, extra={"launch_command": "vllm serve 'm x' --max-model-len 8192"})
    assert fmt.launch_command(report) == ["vllm", "serve", "m x", "--max-model-len", "8192"]
    assert fmt.launch_command(dataclasses.replace(kv, extra={})) is None


def test_brief_why_keeps_the_advice_when_nothing_can_be_pasted():
    from oomdoctor.model import Action, Suggestion

    advice = Suggestion("mm_limits", Action("lower"), None, None, "the encoder grows with the image; resize the image", "r",
                        Account.ACTIVATIONS)
    assert fmt.brief_why(advice) == "the encoder grows with the image; resize the image"
    flag = dataclasses.replace(advice, knob="max_model_len", flag="-c 4096", why="a shorter context; a note")
    assert fmt.brief_why(flag) == "a shorter context"
    other = dataclasses.replace(advice, knob="other", why="shard the optimizer; the change the finding describes")
    assert fmt.brief_why(other) == "shard the optimizer"
    # (a "; " inside an aside separates its items: the aside stays whole)
    aside = dataclasses.replace(flag, why="a larger share (TGI: --cuda-memory-fraction; scripts: set_per_process_memory_fraction); a note")
    assert fmt.brief_why(aside) == "a larger share (TGI: --cuda-memory-fraction; scripts: set_per_process_memory_fraction)"


def test_a_finding_whose_message_restates_its_title_is_said_once(kv):
    """The title leads only where the message adds to it: 'A crash inside a forward pass, its error line not in the
    log: The engine crashed inside a forward pass...' says the same thing twice."""
    top = kv.findings[0]
    said_again = dataclasses.replace(top, title="A serving engine crashed inside a forward pass, its error line not in the log",
                                     message="The engine crashed inside a forward pass while serving; the error line is not in the log.",
                                     evidence=[])
    assert fmt.finding_reason(said_again) == said_again.message
    adds = dataclasses.replace(said_again, title="No room for KV blocks within the memory fraction",
                               message="No memory is left for KV blocks.")
    assert fmt.finding_reason(adds) == "No room for KV blocks within the memory fraction: No memory is left for KV blocks."
