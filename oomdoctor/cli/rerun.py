"""Placeholder: this command is registered by its own module once it lands."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    return None
