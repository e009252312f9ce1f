"""The card table: free-text card names and log lines -> count, name, runtime capacity."""

from __future__ import annotations

import glob
import os
import re
import subprocess
import sys

import pytest

from oomdoctor import gpus
from oomdoctor.gpus import CardSpec, capacity_from_name, card_from_log_line, parse_card

GiB = 1 << 30

# (text as an on-call engineer writes it, count, name, capacity per device in GiB as the runtime reports it)
FREE_TEXT = [
    # the brief's own examples
    ("A100 80GB", 1, "NVIDIA A100 80GB", 79.14),
    ("2x RTX 4090", 2, "NVIDIA GeForce RTX 4090", 23.65),
    ("2×4090", 2, "NVIDIA GeForce RTX 4090", 23.65),
    ("H100 NVL", 1, "NVIDIA H100 NVL 94GB", 93.00),
    ("T4", 1, "NVIDIA Tesla T4", 14.75),
    ("4 x A10G", 4, "NVIDIA A10G", 22.20),
    ("MI300X", 1, "AMD Instinct MI300X", 191.98),
    ("M2 Max 32GB", 1, "Apple M2 Max 32GB", 21.33),
    ("RTX 4070 Super 12GB", 1, "NVIDIA GeForce RTX 4070 Super", 11.74),
    ("8xH100", 8, "NVIDIA H100 SXM 80GB", 79.11),
    ("L40S", 1, "NVIDIA L40S", 44.42),
    ("Tesla V100-SXM2-16GB", 1, "NVIDIA Tesla V100 16GB", 15.78),
    ("NVIDIA GeForce RTX 3090 Ti", 1, "NVIDIA GeForce RTX 3090 Ti", 23.67),
    ("Radeon RX 7900 XTX", 1, "AMD Radeon RX 7900 XTX", 23.98),
    ("Arc A770", 1, "Intel Arc A770 16GB", 15.11),
    ("Mac Studio M2 Ultra 192GB", 1, "Apple M2 Ultra 192GB", 144.00),
    ("Jetson Orin 64GB", 1, "NVIDIA Jetson AGX Orin 64GB", 61.25),
    # data centre
    ("A100 40GB", 1, "NVIDIA A100 40GB", 39.50),
    ("NVIDIA A100-SXM4-80GB", 1, "NVIDIA A100 80GB", 79.14),
    ("8 x A100-SXM4-40GB", 8, "NVIDIA A100 40GB", 39.50),
    ("8*A100 80G", 8, "NVIDIA A100 80GB", 79.14),
    ("four A100 40GB", 4, "NVIDIA A100 40GB", 39.50),
    ("A100 (4 GPUs)", 4, "NVIDIA A100 80GB", 79.14),
    ("H100 80GB HBM3", 1, "NVIDIA H100 SXM 80GB", 79.11),
    ("H100 PCIe", 1, "NVIDIA H100 PCIe 80GB", 79.11),
    ("2 x H100 NVL 94GB", 2, "NVIDIA H100 NVL 94GB", 93.00),
    ("H200", 1, "NVIDIA H200", 139.50),
    ("8xH200", 8, "NVIDIA H200", 139.50),
    ("B200", 1, "NVIDIA B200", 177.97),
    ("H20", 1, "NVIDIA H20 96GB", 94.90),
    ("H800 80GB", 1, "NVIDIA H800", 79.11),
    ("A800", 1, "NVIDIA A800 80GB", 79.14),
    ("GH200 480GB", 1, "NVIDIA GH200 96GB", 94.90),
    ("L4", 1, "NVIDIA L4", 22.03),
    ("2x L4", 2, "NVIDIA L4", 22.03),
    ("L40", 1, "NVIDIA L40", 44.40),
    ("L20", 1, "NVIDIA L20", 44.57),
    ("A10", 1, "NVIDIA A10", 22.18),
    ("A30", 1, "NVIDIA A30", 23.53),
    ("A40", 1, "NVIDIA A40", 44.57),
    ("A16", 1, "NVIDIA A16", 14.73),
    ("V100 32GB", 1, "NVIDIA Tesla V100 32GB", 31.74),
    ("Tesla V100S-PCIE-32GB", 1, "NVIDIA Tesla V100S", 31.74),
    ("Tesla P40", 1, "NVIDIA Tesla P40", 22.38),
    ("P100 16GB", 1, "NVIDIA Tesla P100 16GB", 15.89),
    ("K80", 1, "NVIDIA Tesla K80", 11.17),
    ("NVIDIA Tesla T4 15GB", 1, "NVIDIA Tesla T4", 14.75),
    # workstation
    ("RTX A6000", 1, "NVIDIA RTX A6000", 47.55),
    ("2x RTX A6000", 2, "NVIDIA RTX A6000", 47.55),
    ("NVIDIA RTX A5000", 1, "NVIDIA RTX A5000", 23.67),
    ("RTX A4000", 1, "NVIDIA RTX A4000", 15.61),
    ("RTX A2000 12GB", 1, "NVIDIA RTX A2000 12GB", 11.53),
    ("RTX 6000 Ada", 1, "NVIDIA RTX 6000 Ada 48GB", 47.55),
    ("RTX 4000 Ada", 1, "NVIDIA RTX 4000 Ada", 19.70),
    ("RTX PRO 6000 Blackwell", 1, "NVIDIA RTX PRO 6000 Blackwell", 94.92),
    ("Quadro RTX 8000", 1, "NVIDIA Quadro RTX 8000", 47.46),
    # consumer
    ("RTX 3090", 1, "NVIDIA GeForce RTX 3090", 23.70),
    ("dual 3090", 2, "NVIDIA GeForce RTX 3090", 23.70),
    ("single RTX 3090", 1, "NVIDIA GeForce RTX 3090", 23.70),
    ("3 x RTX 3090", 3, "NVIDIA GeForce RTX 3090", 23.70),
    ("RTX 3060 12GB", 1, "NVIDIA GeForce RTX 3060 12GB", 11.76),
    ("RTX 3060 8GB", 1, "NVIDIA GeForce RTX 3060 8GB", 7.76),
    ("RTX 3080", 1, "NVIDIA GeForce RTX 3080 10GB", 9.78),
    ("RTX 3070", 1, "NVIDIA GeForce RTX 3070", 7.78),
    ("RTX 2080 Ti", 1, "NVIDIA GeForce RTX 2080 Ti", 10.76),
    ("2080Ti 22GB", 1, "NVIDIA GeForce RTX 2080 Ti 22GB", 21.52),  # a modded card: the stated size wins
    ("RTX 2060", 1, "NVIDIA GeForce RTX 2060 6GB", 5.79),
    ("GTX 1080 Ti", 1, "NVIDIA GeForce GTX 1080 Ti", 10.91),
    ("GTX 1060 3GB", 1, "NVIDIA GeForce GTX 1060 3GB", 2.94),
    ("GTX 1660 Ti", 1, "NVIDIA GeForce GTX 1660 Ti", 5.81),
    ("GTX 1650", 1, "NVIDIA GeForce GTX 1650", 3.81),
    ("Titan RTX", 1, "NVIDIA TITAN RTX", 23.64),
    ("RTX 4060 Ti 16GB", 1, "NVIDIA GeForce RTX 4060 Ti 16GB", 15.72),
    ("RTX 4060 Ti", 1, "NVIDIA GeForce RTX 4060 Ti 8GB", 7.76),
    ("RTX 4080 Super", 1, "NVIDIA GeForce RTX 4080 Super", 15.72),
    ("RTX 4090 24GB", 1, "NVIDIA GeForce RTX 4090", 23.65),
    ("RTX 4090 x2", 2, "NVIDIA GeForce RTX 4090", 23.65),
    ("RTX 5090", 1, "NVIDIA GeForce RTX 5090", 31.37),
    ("RTX 5090 D 32GB", 1, "NVIDIA GeForce RTX 5090 D", 31.37),
    ("RTX 5060 Ti", 1, "NVIDIA GeForce RTX 5060 Ti 16GB", 15.65),
    ("RTX 5070 Ti 16GB + RTX 5090 D 32GB", 1, "NVIDIA GeForce RTX 5070 Ti", 15.65),  # the first card named
    ("RTX 4090 Laptop GPU", 1, "NVIDIA GeForce RTX 4090 Laptop GPU", 15.72),
    ("RTX 4060 Laptop", 1, "NVIDIA GeForce RTX 4060 Laptop GPU", 7.75),
    # AMD, Intel
    ("MI250X", 1, "AMD Instinct MI250X", 63.98),
    ("4x MI250", 4, "AMD Instinct MI250", 63.98),
    ("MI210", 1, "AMD Instinct MI210", 63.98),
    ("MI50 32GB", 1, "AMD Instinct MI50 32GB", 31.98),
    ("RX 7900 XT", 1, "AMD Radeon RX 7900 XT", 19.98),
    ("7900XTX", 1, "AMD Radeon RX 7900 XTX", 23.98),
    ("RX 6800 XT", 1, "AMD Radeon RX 6800 XT", 15.98),
    ("RX 9070 XT", 1, "AMD Radeon RX 9070 XT", 15.92),
    ("Radeon PRO W7900", 1, "AMD Radeon PRO W7900", 47.98),
    ("Arc A770 8GB", 1, "Intel Arc A770 8GB", 7.55),
    # Huawei's NPUs as torch_npu reports them (the 910B's 64 GB read 60.96 GiB; the 910B4 has 32 GB)
    ("8x Ascend 910B3", 8, "Huawei Ascend 910B", 60.96), ("Ascend 910B4", 1, "Huawei Ascend 910B4", 30.48),
    ("Huawei Ascend A3 NPU", 1, "Huawei Ascend A3 (910C)", 61.27),
    ("Intel Data Center GPU Max 1550", 1, "Intel Data Center GPU Max 1550", 60.44),
    # Apple (capacity = Metal's recommended working set), Jetson
    ("M1 16GB", 1, "Apple M1 16GB", 10.67),
    ("M1 Max 64GB", 1, "Apple M1 Max 64GB", 48.00),
    ("M2 Max 96GB", 1, "Apple M2 Max 96GB", 72.00),
    ("M3 Pro 36GB", 1, "Apple M3 Pro 36GB", 27.00),
    ("MacBook Pro M4 Max 128GB", 1, "Apple M4 Max 128GB", 96.00),
    ("M4 Pro 48GB", 1, "Apple M4 Pro 48GB", 36.00),
    ("M2", 1, "Apple M2 8GB", 5.33),
    ("Jetson Orin NX 16GB", 1, "NVIDIA Jetson Orin NX 16GB", 15.31),
    ("Orin Nano", 1, "NVIDIA Jetson Orin Nano 8GB", 7.66),
    ("AGX Xavier 32GB", 1, "NVIDIA Jetson AGX Xavier 32GB", 30.62),
    # DGX Spark's GB10 (holdout r84): "GB10" is a chip, not 10 GB, and its number is no count of cards
    ("NVIDIA GB10 (DGX Spark, 121.69 GiB unified memory)", 1, "NVIDIA GB10", 121.69),
    ("2x NVIDIA DGX Spark (GB10 Grace Blackwell, 121 GiB / 119 GiB unified memory)", 2, "NVIDIA GB10", 121.69),
    # a size that is all the cards together (holdout r30: an AWS g4dn.metal's eight T4s)
    ("AWS g4dn.metal, 8x NVIDIA T4 (128 GiB GPU memory total)", 8, "NVIDIA Tesla T4", 14.75),
    ("4x H100 (320 GB)", 4, "NVIDIA H100 SXM 80GB", 79.11),
    # a tier the table lacks between the chip and the size: the stated RAM still counts, per machine
    ("2x Mac Studio M4 Ultra 64GB (Apple Silicon unified memory, Metal)", 2, "Apple M4 64GB", 48.00),
]


def _close(actual_bytes: int, gib: float, tol: float = 0.005) -> bool:
    return abs(actual_bytes - gib * GiB) <= tol * gib * GiB


def test_there_are_at_least_sixty_free_text_cases():
    assert len(FREE_TEXT) >= 60


@pytest.mark.parametrize("text,count,name,gib", FREE_TEXT, ids=[c[0] for c in FREE_TEXT])
def test_free_text(text, count, name, gib):
    spec = parse_card(text)
    assert spec is not None, text
    assert (spec.count, spec.name) == (count, name)
    assert _close(spec.capacity_bytes, gib), f"{spec.capacity_bytes / GiB:.2f} GiB != {gib}"
    assert spec.total_capacity_bytes == count * spec.capacity_bytes
    assert spec.matched and spec.matched in text


@pytest.mark.parametrize("text", ["", "   ", "none", "None", "CPU only", "cpu", "n/a", "asdf qwerty 1234",
                                  "Ascend NPU", "a 10GB card", "1920x1080 monitor", "model: Llama-2-7B", "-",
                                  "GPU 0", "24 GB", "16 GB GPU (15.99 GiB total capacity)"])
def test_negatives(text):
    assert parse_card(text) is None


def test_non_string_is_none():
    assert parse_card(None) is None  # type: ignore[arg-type]
    assert card_from_log_line(None) is None  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- variants


def test_stated_size_picks_the_variant():
    assert parse_card("A100 40GB").variant == "40GB"
    assert parse_card("A100-80G").variant == "80GB"
    assert parse_card("80GB A100").variant == "80GB"
    assert parse_card("A100 40960MiB").variant == "40GB"
    assert parse_card("V100 32GB").variant == "32GB"
    assert parse_card("RTX 4060 Ti 16GB").variant == "16GB"
    assert parse_card("H100 94GB").variant == "NVL 94GB"
    assert parse_card("M2 Max 64GB").variant == "64GB"
    for text in ("A100 40GB", "V100 32GB", "M2 Max 64GB", "H100 NVL"):
        assert parse_card(text).assumed_variant is False, text


def test_no_size_on_a_multi_size_card_is_assumed():
    for text, variant in [("A100", "80GB"), ("V100", "16GB"), ("RTX 4060 Ti", "8GB"), ("M2 Max", "32GB"),
                          ("H100", "SXM 80GB"), ("Jetson AGX Orin", "64GB"), ("MI50", "16GB"), ("Arc A770", "16GB")]:
        spec = parse_card(text)
        assert (spec.variant, spec.assumed_variant) == (variant, True), text
    for text in ("RTX 4090", "T4", "L40S", "H200", "MI300X"):
        assert parse_card(text).assumed_variant is False, text


def test_form_factor_words_pick_among_same_size_variants():
    assert parse_card("H100 SXM5 80GB").variant == "SXM 80GB"
    assert parse_card("H100 PCIe 80GB").variant == "PCIe 80GB"
    assert parse_card("H100 80GB").assumed_variant is False  # same memory either way
    assert parse_card("NVIDIA H100 NVL").name == "NVIDIA H100 NVL 94GB"


def test_an_unknown_stated_size_is_trusted():
    spec = parse_card("A100 w/ 24GB")  # as the reporter wrote it
    assert (spec.capacity_source, spec.memory_gb) == ("stated", 24)
    assert 0.97 * 24 * GiB < spec.capacity_bytes < 24 * GiB
    spec = parse_card("Apple M2 Max 48GB")
    assert spec.unified_memory_bytes == 48 * GiB
    assert spec.recommended_working_set_bytes == spec.capacity_bytes == 36 * GiB


def test_count_forms():
    cases = {"2x A100": 2, "2 x A100": 2, "2×A100": 2, "2*A100": 2, "A100 x2": 2, "A100 x 8": 8, "8xA100": 8,
             "dual A100": 2, "quad RTX 3090": 4, "A100, 4 GPUs": 4, "8 GPUs (H100)": 8, "2 NVIDIA A100": 2,
             "A100": 1, "GPU 3: NVIDIA A100": 1, "H100 PCIe 4.0 x16": 1, "RTX 3090 24GB x2": 2}
    for text, count in cases.items():
        assert parse_card(text).count == count, text


@pytest.mark.parametrize("text,count,card,gib", [
    ("AWS EC2 g5.48xlarge", 8, "a10g", 22.2),
    ("ml.g5.12xlarge (SageMaker)", 4, "a10g", 22.2),
    ("g4dn.xlarge", 1, "t4", 14.75),
    ("p4d.24xlarge", 8, "a100", 39.5),
    ("p4de.24xlarge", 8, "a100", 79.14),
    ("GCP a2-ultragpu-1g", 1, "a100", 79.14),
    ("g2-standard-24", 2, "l4", 22.03),
    ("Azure Standard_NC24ads_A100_v4", 1, "a100", 79.14),
    ("Standard_ND96isr_H100_v5", 8, "h100", 79.11),
])
def test_cloud_instance_types_name_their_gpus(text, count, card, gib):
    spec = parse_card(text)
    assert (spec.count, spec.card_id) == (count, card)
    assert spec.capacity_gib == pytest.approx(gib, abs=0.02)
    assert spec.source.partition(":")[0].lower() in spec.matched.lower()  # the instance it read, with the provider's page


def test_every_instance_names_a_card_variant_of_the_table():
    import json
    from pathlib import Path

    raw = json.loads((Path(__file__).parents[1] / "oomdoctor" / "data" / "gpus.json").read_text(encoding="utf-8"))
    variants = {c["id"]: {v["label"] for v in c["memory_variants"]} for c in raw["cards"]}
    for entry in raw["instances"]:
        assert entry["variant"] in variants[entry["card"]], entry["name"]
        assert entry["count"] >= 1 and entry["source"].startswith("https://")
        assert entry["name"] == entry["name"].lower()


def test_memory_facts():
    h100 = parse_card("H100")
    assert (h100.vendor, h100.compute_capability, h100.fp8, h100.bf16, h100.flash_attention_2) == \
        ("nvidia", "9.0", True, True, True)
    assert "Hopper" in h100.arch
    ada = parse_card("RTX 4090")
    assert (ada.compute_capability, ada.fp8, ada.bf16) == ("8.9", True, True)
    ampere = parse_card("A100")
    assert (ampere.compute_capability, ampere.fp8, ampere.bf16, ampere.flash_attention_2) == ("8.0", False, True, True)
    turing = parse_card("T4")
    assert (turing.compute_capability, turing.fp8, turing.bf16, turing.flash_attention_2) == \
        ("7.5", False, False, False)
    blackwell = parse_card("RTX 5090")
    assert (blackwell.compute_capability, blackwell.fp8) == ("12.0", True)
    assert parse_card("B200").compute_capability == "10.0"
    mi300 = parse_card("MI300X")
    assert (mi300.vendor, mi300.gfx_target, mi300.fp8, mi300.compute_capability) == ("amd", "gfx942", True, None)
    assert parse_card("Arc A770").vendor == "intel"
    m2 = parse_card("M2 Max 32GB")
    assert (m2.vendor, m2.unified_memory, m2.unified_memory_bytes) == ("apple", True, 32 * GiB)
    assert m2.recommended_working_set_bytes == m2.capacity_bytes == 32 * GiB * 2 // 3
    orin = parse_card("Jetson Orin 64GB")
    assert (orin.unified_memory, orin.unified_memory_bytes, orin.compute_capability) == (True, 64 * GiB, "8.7")
    assert orin.recommended_working_set_bytes is None


def test_apple_working_set_matches_llama_cpp_logs():
    """llama.cpp prints recommendedMaxWorkingSetSize in MiB (older builds): these are real figures."""
    seen = {"M1 16GB": 10922.67, "M2 Max 32GB": 21845.34, "M1 Max 32GB": 21845.34, "M1 Max 64GB": 49152.00,
            "M2 Max 96GB": 73728.00}
    for text, mib in seen.items():
        assert abs(parse_card(text).recommended_working_set_bytes / (1 << 20) - mib) < 0.02, text


# ----------------------------------------------------------------------------- log lines

LOG_LINES = [
    ("|   0  NVIDIA A100-SXM4-80GB          On  | 00000000:07:00.0 Off |                    0 |",
     1, "NVIDIA A100 80GB", 79.14),
    ("|   0  Tesla T4            Off  | 00000000:00:04.0 Off |                    0 |", 1, "NVIDIA Tesla T4", 14.75),
    ("|   0  NVIDIA H200                    On  |   00000000:19:00.0 Off |                    0 |",
     1, "NVIDIA H200", 139.50),
    ("llama_model_load_from_file_impl: using device CUDA0 (NVIDIA GeForce RTX 4090) - 23008 MiB free",
     1, "NVIDIA GeForce RTX 4090", 23.65),
    ("ggml_cuda_init: found 1 CUDA devices: Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes",
     1, "NVIDIA GeForce RTX 3090", 23.70),
    ("ggml_cuda_init: found 2 CUDA devices: Device 0: NVIDIA A100 80GB PCIe, compute capability 8.0, VMM: yes",
     2, "NVIDIA A100 80GB", 79.14),
    ("  Device 0: Tesla T4, compute capability 7.5, VMM: yes", 1, "NVIDIA Tesla T4", 14.75),
    ("  Device 0: NVIDIA GeForce GTX 1050 Ti, compute capability 6.1, VMM: yes", 1, "NVIDIA GeForce GTX 1050 Ti", 3.94),
    ("  Device 0: AMD Radeon RX 7900 XTX, gfx1100 (0x1100), VMM: no, Wave Size: 32",
     1, "AMD Radeon RX 7900 XTX", 23.98),
    ("  Device 0: AMD Instinct MI250X, gfx90a:sramecc+:xnack- (0x90a), VMM: no, Wave Size: 64",
     1, "AMD Instinct MI250X", 63.98),
    ("rocBLAS: using gfx90a", 1, "AMD Instinct MI250X", 63.98),
    ("  Name:                    gfx942", 1, "AMD Instinct MI300X", 191.98),
    ("  Marketing Name:          AMD Instinct MI300X", 1, "AMD Instinct MI300X", 191.98),
    ("ggml_metal_init: found device: Apple M2 Max", 1, "Apple M2 Max 32GB", 21.33),
    ("ggml_metal_device_init: GPU name:   Apple M2 Ultra", 1, "Apple M2 Ultra 64GB", 48.00),
    ('time=2025-05-01T10:00:00.000Z level=INFO source=types.go:130 msg="inference compute" id=GPU-1 library=CUDA '
     'compute=8.9 name=CUDA0 description="NVIDIA GeForce RTX 4090" libdirs=ollama,cuda_v12 driver=12.8 '
     'pci_id=01:00.0 type=discrete total="24.0 GiB" available="22.5 GiB"', 1, "NVIDIA GeForce RTX 4090", 23.65),
    ('time=2024-06-01T10:00:00.000Z level=INFO source=types.go:98 msg="inference compute" id=GPU-1 library=cuda '
     'compute=9.0 driver=12.4 name="NVIDIA H100 80GB HBM3" total="79.1 GiB" available="78.6 GiB"',
     1, "NVIDIA H100 SXM 80GB", 79.11),
    ('time=2024-06-01T10:00:00.000Z level=INFO source=types.go:98 msg="inference compute" id=0 library=rocm '
     'variant="" compute=gfx1100 driver=6.3 name=1002:744c total="24.0 GiB" available="23.9 GiB"',
     1, "AMD Radeon RX 7900 XTX", 23.98),
    ("GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-5b3d7c8e-0000-0000-0000-000000000000)",
     1, "NVIDIA GeForce RTX 3090", 23.70),
    ("GPU models and configuration: GPU 0: NVIDIA RTX A2000 12GB", 1, "NVIDIA RTX A2000 12GB", 11.53),
    ("0, NVIDIA H100 NVL, 95830, 578.2", 1, "NVIDIA H100 NVL 94GB", 93.00),
    ("ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (RADV NAVI31) | uma: 0 | fp16: 1 | warp size: 64",
     1, "AMD Radeon RX 7900 XTX", 23.98),
    ("|  0| [level_zero:gpu:0]|                Intel Arc A770 Graphics|  1.3|    512|    1024|   32| 16225M|",
     1, "Intel Arc A770 16GB", 15.11),
]


@pytest.mark.parametrize("line,count,name,gib", LOG_LINES, ids=[f"log{i}" for i in range(len(LOG_LINES))])
def test_log_lines(line, count, name, gib):
    spec = card_from_log_line(line)
    assert spec is not None, line
    assert (spec.count, spec.name) == (count, name)
    assert _close(spec.capacity_bytes, gib)


def test_log_line_extras():
    spec = card_from_log_line(LOG_LINES[15][0])
    assert spec.matched == "NVIDIA GeForce RTX 4090"
    assert spec.log_total_bytes == 24 * GiB
    csv = card_from_log_line("0, NVIDIA H100 NVL, 95830, 578.2")
    assert csv.log_total_bytes == 95830 << 20
    bare = card_from_log_line("rocBLAS: using gfx90a")
    assert bare.assumed_variant is True  # gfx90a is also the MI210 and MI250
    assert card_from_log_line(LOG_LINES[0][0]).matched == "NVIDIA A100-SXM4-80GB"


@pytest.mark.parametrize("line", [
    "", "INFO:     Started server process [1234]",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 14.75 GiB",
    "|   0  GeForce RTX 208...  Off  | 00000000:4B:00.0 Off |                  N/A |",
    "ggml_metal_init: recommendedMaxWorkingSetSize  = 21845.34 MB",
    "llama_kv_cache_init:      CUDA0 KV buffer size =  3200.00 MiB",
    "  Device 0: AMD Radeon Graphics, gfx1151 (0x1151), VMM: no",
])
def test_log_line_negatives(line):
    assert card_from_log_line(line) is None


# ----------------------------------------------------------------------------- capacity_from_name


def test_capacity_from_name():
    assert _close(capacity_from_name("NVIDIA A100-SXM4-80GB"), 79.14)
    assert _close(capacity_from_name("NVIDIA A100-SXM4-40GB"), 39.50)
    assert _close(capacity_from_name("RTX 4070 Super 12GB"), 11.74)
    assert _close(capacity_from_name("NVIDIA GeForce RTX 4090"), 23.65)
    assert _close(capacity_from_name("NVIDIA H100 80GB HBM3"), 79.11)
    assert _close(capacity_from_name("Tesla T4"), 14.75)
    # a name the table does not know: an explicit size is trusted as stated
    assert capacity_from_name("Some Accelerator 48 GB") == 48 * GiB
    assert capacity_from_name("Mystery GPU") is None
    assert capacity_from_name("") is None
    # a figure of what was free is no capacity, whichever way it is written
    assert capacity_from_name("7.7 GiB free") is None
    assert capacity_from_name("Some Accelerator 24 GB, 7.7 GiB free") == 24 * GiB


# ----------------------------------------------------------------------------- the table itself


def _variants():
    for card in gpus.cards():
        for v in card["memory_variants"]:
            yield card, v


def test_every_figure_has_a_source():
    rules = gpus._table().rules
    for card, v in _variants():
        where = f"{card['id']} {v['label']}"
        assert isinstance(v.get("source"), str) and len(v["source"]) > 10, where
        if v.get("derived"):
            assert v.get("rule") in rules, where
        else:
            assert re.search(r"https://github\.com/\S+/(issues|pull)/\d+", v["source"]), where


def test_capacities_are_plausible():
    """Runtime-reported capacity is below the marketing size and above 85% of it; on Apple the
    capacity is Metal's working set, 2/3 to 3/4 of the unified memory."""
    for card, v in _variants():
        where = f"{card['id']} {v['label']}"
        cap, marketing = v["capacity_bytes"], v["memory_gb"] * GiB
        if card["vendor"] == "apple":
            assert v["unified_memory_bytes"] == marketing, where
            assert v["recommended_working_set_bytes"] == cap, where
            assert 0.66 * marketing <= cap <= 0.75 * marketing, where
        else:
            assert 0.85 * marketing < cap < marketing, where
        if card["unified_memory"]:
            assert v.get("unified_memory_bytes") == marketing, where


def test_table_shape():
    cards = gpus.cards()
    ids = [c["id"] for c in cards]
    assert len(ids) == len(set(ids))
    for c in cards:
        assert c["vendor"] in ("nvidia", "amd", "intel", "apple", "huawei"), c["id"]
        assert c["aliases"] and c["memory_variants"], c["id"]
        assert c["default_variant"] in [v["label"] for v in c["memory_variants"]], c["id"]
        assert isinstance(c["fp8"], bool) and isinstance(c["bf16"], bool) and isinstance(c["flash_attention_2"], bool)
        if c["vendor"] == "nvidia":
            assert re.fullmatch(r"\d+\.\d", c["compute_capability"]), c["id"]
            cc = float(c["compute_capability"])
            assert c["bf16"] == (cc >= 8.0), c["id"]
            assert c["fp8"] == (cc in (8.9, 9.0, 10.0, 12.0, 12.1)), c["id"]
    # one alias names one card
    seen: dict = {}
    for c in cards:
        for alias in c["aliases"]:
            words = gpus._words(alias)
            assert words, (c["id"], alias)
            assert seen.setdefault(words, c["id"]) == c["id"], (alias, seen[words], c["id"])
    for target, cid in gpus._table().gfx.items():
        assert cid in ids, target
    # coverage the brief asks for
    for text in ["K80", "P100", "P40", "V100", "T4", "A10", "A10G", "A16", "A30", "A40", "A100", "H100", "H200", "H20",
                 "H800", "A800", "L4", "L20", "L40", "L40S", "B200", "RTX A2000", "RTX A4000", "RTX A5000", "RTX A6000",
                 "RTX 2000 Ada", "RTX 4000 Ada", "RTX 5000 Ada", "RTX 6000 Ada", "RTX PRO 6000", "GTX 1080 Ti",
                 "GTX 1660", "RTX 2080", "RTX 3060", "RTX 3090", "RTX 4070 Ti Super", "RTX 4090", "RTX 5080",
                 "RTX 5090", "RTX 3080 Laptop", "MI50", "MI100", "MI210", "MI250", "MI250X", "MI300X", "MI325X",
                 "RX 6800", "RX 6900 XT", "RX 7900 XT", "RX 7900 XTX", "W7900", "Arc A770", "Arc A750", "Max 1100",
                 "Max 1550", "Orin 32GB", "Orin 64GB", "AGX Xavier", "M1", "M1 Pro", "M1 Max", "M1 Ultra", "M2 Ultra",
                 "M3 Max", "M3 Ultra", "M4", "M4 Pro", "M4 Max"]:
        assert parse_card(text) is not None, text


# ----------------------------------------------------------------------------- cost


def test_table_is_read_lazily():
    code = "import oomdoctor.gpus as g, sys; sys.exit(0 if g._TABLE is None and 'json' not in dir(g) else 1)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


# ----------------------------------------------------------------------------- the labelled corpus

CORPUS = "/work/shared/corpus"


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="shared corpus not present")
def test_corpus_cards_match_their_logged_capacity():
    """Where a labelled case names its card and its log prints PyTorch's total capacity, the table agrees."""
    # sglang-5755: the title says H200 but the log's 79.10 GiB is an 80 GB card (the label says so)
    disagree = {"sglang-5755"}
    checked = 0
    for case in sorted(glob.glob(f"{CORPUS}/*/case.yaml")):
        if os.path.basename(os.path.dirname(case)) in disagree:
            continue
        text = open(case, encoding="utf-8").read()
        m = re.search(r'^gpu: "(.+)"$', text, re.M)
        if not m:
            continue
        log = open(os.path.join(os.path.dirname(case), "server.log"), encoding="utf-8", errors="replace").read()
        cap = re.search(r"total capacity of ([\d.]+) GiB|([\d.]+) GiB total capacity", log)
        spec = parse_card(m.group(1))
        if not cap or spec is None or spec.capacity_source != "table":
            continue
        logged = float(cap.group(1) or cap.group(2))
        assert _close(spec.capacity_bytes, logged), (case, spec.name, logged)
        checked += 1
    assert checked >= 3


def test_largest_discrete_card_bound_holds_every_discrete_card() -> None:
    from oomdoctor.ledger import LARGEST_DISCRETE_GPU_BYTES

    sizes = [v["capacity_bytes"] for c in gpus.cards() if not c["unified_memory"] for v in c["memory_variants"]]
    assert max(sizes) == LARGEST_DISCRETE_GPU_BYTES
