"""Host-side failures (parsers/host.py): the kernel OOM killer, a shell's "Killed", exit 137,
Kubernetes OOMKilled, Ray's memory monitor, the CPU allocator, mmap ENOMEM, /dev/shm and NCCL
shared memory."""

from __future__ import annotations

import pytest
from parser_table import ANY, case, check, lines, params

OOM = "oom.kind"

CASES = [
    # ---- the kernel
    case("kernel-oom-killer-dmesg",  # corpus
         "[Sun Mar 24 23:54:53 2024] Out of memory: Killed process 6154 (python) total-vm:18109076kB, anon-rss:14095848kB, "
         "file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:29036kB oom_score_adj:0\n",
         [(OOM, "kernel_oom_kill", 1), ("host.kernel_oom_kill", "Out of memory: Killed process 6154 (python)", 1),
          ("oom.exit_signal", "SIGKILL", 1)], framework="transformers", failure_line=1),
    case("kernel-oom-killer-cgroup",
         "[ 9876.543210] Memory cgroup out of memory: Killed process 4242 (python3) total-vm:98765432kB, "
         "anon-rss:61234567kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:123456kB oom_score_adj:0\n",
         [(OOM, "kernel_oom_kill", 1), ("host.kernel_oom_kill", "Memory cgroup out of memory: Killed process 4242 (python3)", 1),
          ("oom.exit_signal", "SIGKILL", 1)]),
    case("kernel-invoked-oom-killer",
         "[  123.456789] python3 invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, "
         "oom_score_adj=0\n",
         [(OOM, "kernel_oom_kill", 1)]),
    # ---- shells and containers
    case("shell-killed", lines("Loading checkpoint shards:  67%|██████▋   | 2/3 [00:41<00:20, 20.81s/it]", "Killed"),
         [(OOM, "killed", 2), ("oom.exit_signal", "SIGKILL", 2)], phase="load_weights", failure_line=2),
    case("shell-killed-lowercase", "killed\n", [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # pasted as markdown inline code
    case("shell-killed-backticks", "`Loading checkpoint shards:   0%|          | 0/2 [00:00<?, ?it/s] `\n`Killed`\n",
         [(OOM, "killed", 2), ("oom.exit_signal", "SIGKILL", 2)], phase="load_weights", failure_line=2),
    case("entrypoint-killed-in-compose",  # corpus
         "scalellm          | ./entrypoint.sh: line 28:     7 Killed                  LD_LIBRARY_PATH=/app/lib:$LD_LIBRARY_PATH "
         "/app/bin/scalellm $ARGS \"$@\"\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("exit-137-compose", "scalellm exited with code 137\n", [(OOM, "exit_137", 1), ("oom.exit_signal", "137", 1)]),
    case("exit-137-kubectl", "command terminated with exit code 137\n", [(OOM, "exit_137", 1), ("oom.exit_signal", "137", 1)]),
    case("oomkilled-pod-status", lines("    State:          Terminated", "      Reason:       OOMKilled", "      Exit Code:    137"),
         [(OOM, "exit_137", 2), (OOM, "kernel_oom_kill", 2), ("oom.hint", "container", 2), (OOM, "exit_137", 3), ("oom.exit_signal", "137", 3)]),
    case("ray-memory-monitor",  # corpus
         "(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) node_manager.cc:3069: 1 Workers (tasks / actors) "
         "killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: "
         "351e406b196f66bb45eaad02a3b8b4725babfa8cc12949432f7ad7d8, IP: ***) over the last time period.\n",
         [(OOM, "ray_oom_kill", 1)], framework="vllm"),
    # ---- allocation failures in host RAM
    case("cpu-allocator",
         "RuntimeError: [enforce fail at alloc_cpu.cpp:83] . DefaultCPUAllocator: can't allocate memory: you tried to "
         "allocate 1073741824 bytes. Error code 12 (Cannot allocate memory)\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 1073741824, 1)]),
    case("mmap-enomem-safetensors",  # corpus
         "ERROR 06-02 09:39:03 [core.py:396] RuntimeError: unable to mmap 16933256392 bytes from file "
         "</root/.cache/huggingface/hub/models--Qwen--Qwen3-30B-A3B-GPTQ-Int4/snapshots/9b534e4318b7ebc3c961a839f13eb18b1833f441/"
         "model.safetensors>: Cannot allocate memory (12)\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 16933256392, 1)],
         framework="vllm"),
    # ---- shared memory
    case("ray-object-store-shm",  # corpus
         "[2026-03-25 05:44:29,435 W 39 39] (raylet) store_runner.cc:83: System memory request exceeds memory available in "
         "/dev/shm. The request is for 10200547328 bytes, and the amount available is 9663676416 bytes.\n",
         [(OOM, "shm_exhausted", 1), ("oom.shm_requested_bytes", 10200547328, 1), ("oom.shm_available_bytes", 9663676416, 1)]),
    case("nccl-shm-segment",  # corpus + the older NCCL phrasing (KNOBS.md 11.3)
         "Error while creating shared memory segment /dev/shm/nccl-F9ffgB (size 9637888)\n",
         [(OOM, "shm_exhausted", 1), ("oom.shm_requested_bytes", 9637888, 1)]),
    case("nccl-shm-no-space",
         "hostname:1234:1234 [0] misc/shmutils.cc:72 NCCL WARN Error while creating shared memory segment "
         "/dev/shm/nccl-XXXX (size 9637888), error: No space left on device (28)\n",
         [(OOM, "shm_exhausted", 1), ("oom.shm_requested_bytes", 9637888, 1)]),
    case("nccl-posix-fallocate",
         "hostname:1234:1234 [0] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device\n",
         [(OOM, "shm_exhausted", 1)]),
    case("dataloader-bus-error",
         "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n",
         [(OOM, "bus_error", 1), ("oom.exit_signal", "SIGBUS", 1)]),
    case("df-dev-shm",  # corpus: `df -h /dev/shm` pasted into the issue
         lines("Filesystem      Size  Used Avail Use% Mounted on", "shm              64M     0   64M   0% /dev/shm"),
         [("host.shm_total_bytes", 64 << 20, 2)]),
    case("nccl-system-error-is-a-hint",  # corpus: often shm, never decisive alone
         lines("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, "
               "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
               "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. "),
         [("oom.hint", "nccl_system_error", 1), ("oom.hint", "nccl_system_error", 2)]),
    case("nccl-cuda-oom",
         "hostname:1234:1234 [0] misc/cudawrap.cc:100 NCCL WARN Cuda failure 'out of memory'\n",
         [(OOM, "nccl_oom", 1)]),
    case("compose-shm-size-is-a-hint",  # corpus: the user's compose file
         lines("services:", "  vllm:", "    shm_size: 2g"),
         [("oom.hint", "container", 3)]),
    case("ray-memory-monitor-table",  # holdout r8: rows of the top-memory-users table Ray prints when it kills a task
         "(ActorModelRayActor pid=8249) 8800\t1.18\tray::ReferenceModelRayActor\n",
         [(OOM, "ray_oom_kill", 1)]),
    case("nvrm-no-memory",  # holdout r8: the kernel driver's resource manager on a unified-memory machine
         lines("NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY]",
               "(0x00000051) returned from _memdescAllocInternal(pMemDesc) @ mem_desc.c:1359"),
         [(OOM, "driver_no_memory", 1)]),
    case("ray-dev-shm-warning",  # corpus: Ray falls back to /tmp inside a container started without --shm-size
         "2023-11-18 03:39:16,283 WARNING services.py:1996 -- WARNING: The object store is using /tmp instead of /dev/shm "
         "because /dev/shm has only 67108864 bytes available. This will harm performance!\n",
         [("host.shm_total_bytes", 67108864, 1), ("oom.hint", "shm_warned_small", 1)]),
    # holdout r69: Ray's session folder on a small RAM-backed /tmp, full
    case("ray-session-folder-full",
         "(raylet) [2023-12-07 03:27:39,873 E 101250 101275] (raylet) file_system_monitor.cc:111: /tmp/ray/session_2023-12-06_16-50-22_168114_101109 "
         "is over 95% full, available space: 0; capacity: 67108864. Object creation will fail if spilling is required.\n",
         [(OOM, "shm_exhausted", 1), ("host.shm_total_bytes", 67108864, 1)]),
    case("docker-run-continued-over-lines",  # corpus: a pasted `docker run ... \` with `>` prompts
         lines("(base) user@host:~$ docker run --runtime nvidia --gpus all \\", ">    -p 8000:8000 \\",
               ">    --shm-size 1g vllm:latest \\", ">    --model=/mnt/model/ \\", ">    --tensor-parallel-size 2"),
         [("oom.hint", "container", 1), ("knob.shm_size_bytes", 1 << 30, 1), ("knob.tensor_parallel_size", 2, ANY),
          ("knob.model", "/mnt/model/", 1), ("knob.model", "/mnt/model/", 3), ("knob.model", "/mnt/model/", 4)],
         framework="vllm"),
]


@pytest.mark.parametrize("c", params(CASES))
def test_host_messages(c):
    check(c)
