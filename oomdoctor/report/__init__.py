"""Output formats. `OutputFormat` is both the --format choice and the renderer factory."""

from __future__ import annotations

from enum import Enum

from oomdoctor.report.base import Renderer


class OutputFormat(str, Enum):
    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"

    def to_renderer(self, color: bool = False, width: int = 80, verbose: bool = False) -> Renderer:
        if self is OutputFormat.JSON:
            from oomdoctor.report.json import JsonRenderer

            return JsonRenderer()
        if self is OutputFormat.MARKDOWN:
            from oomdoctor.report.markdown import MarkdownRenderer

            return MarkdownRenderer()
        from oomdoctor.report.text import TextRenderer

        return TextRenderer(color=color, width=width, verbose=verbose)
