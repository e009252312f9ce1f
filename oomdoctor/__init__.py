"""oomdoctor: which memory account broke an LLM inference server, and the exact fix."""

__version__ = "0.1.0"
