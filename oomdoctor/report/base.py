"""The renderer interface: a pure function from a Report to a string."""

from __future__ import annotations

from typing import Protocol

from oomdoctor.model import Report


class Renderer(Protocol):
    def render(self, report: Report) -> str: ...
