"""What was loaded: an architecture plus, for a GGUF file, what the file itself says."""

from __future__ import annotations

from dataclasses import dataclass

from oomdoctor.memory.arch import ModelArch


@dataclass(frozen=True)
class GgufInfo:
    path: str
    file_type: str | None  # Q4_K_M, Q8_0, ... (general.file_type)
    tensor_bytes: int  # sum of every tensor's bytes: llama.cpp's "model size"
    params: int
    has_mla_tensors: bool  # converted with split attn_k_b / attn_v_b (llama.cpp MLA)
    type_bytes: tuple[tuple[str, int], ...] = ()  # bytes per ggml type, largest first

    @property
    def bits_per_weight(self) -> float:
        return self.tensor_bytes * 8 / self.params if self.params else 0.0


@dataclass(frozen=True)
class ModelSource:
    arch: ModelArch
    origin: str  # the path or model id it was read from
    gguf: GgufInfo | None = None
