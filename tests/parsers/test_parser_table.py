"""The table checker itself: it must fail on a wrong, missing or extra fact."""

from __future__ import annotations

import pytest
from parser_table import ANY, MiB, case, check

LINE = ("ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1766.75 MiB on device 0: cudaMalloc failed: "
        "out of memory\n")
RIGHT = [("oom.kind", "ggml_alloc_failed", 1), ("oom.requested_bytes", MiB(1766.75), 1), ("oom.device", "0", 1),
         ("oom.buffer_device", "GPU", 1)]


def test_right_facts_pass():
    check(case("right", LINE, RIGHT))


@pytest.mark.parametrize("facts", [
    RIGHT[:-1],  # one fact not expected: "incorrect"
    RIGHT + [("oom.buffer", "compute", 1)],  # one fact not read: "missed"
    [*RIGHT[:1], ("oom.requested_bytes", MiB(1766.75) + 2, 1), *RIGHT[2:]],  # off by more than a rounding
    [*RIGHT[:2], ("oom.device", 0, 1), *RIGHT[3:]],  # an int where the parser reads text
    [*RIGHT[:3], ("oom.buffer_device", "GPU", 2)],  # wrong line
], ids=["extra", "missing", "value", "type", "line"])
def test_wrong_facts_fail(facts):
    with pytest.raises(AssertionError):
        check(case("wrong", LINE, facts))


def test_bytes_may_differ_by_one_and_lines_may_be_any():
    check(case("tolerance", LINE, [*RIGHT[:1], ("oom.requested_bytes", MiB(1766.75) + 1, ANY), *RIGHT[2:]]))


def test_bool_is_not_int():
    with pytest.raises(AssertionError):
        check(case("bool", "llama_new_context_with_model: flash_attn = 0\n", [("knob.flash_attention", 0, 1)]))
    check(case("bool", "llama_new_context_with_model: flash_attn = 0\n", [("knob.flash_attention", False, 1)]))
