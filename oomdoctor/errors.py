"""Error types. Library code raises these; only the CLI prints them and exits."""

from __future__ import annotations

from dataclasses import dataclass

from oomdoctor.status import ExitStatus


@dataclass(frozen=True)
class Location:
    path: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line is not None else self.path


class OomDoctorError(Exception):
    """Base error: a one-line message, an optional source location and an exit status."""

    status: ExitStatus = ExitStatus.USAGE

    def __init__(self, message: str, source: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source

    def __str__(self) -> str:
        return f"{self.message} in {self.source}" if self.source else self.message


class InputError(OomDoctorError):
    """A log, config or snapshot the user gave cannot be read."""

    status = ExitStatus.USAGE


class UsageError(OomDoctorError):
    status = ExitStatus.USAGE


class RuleError(OomDoctorError):
    """A rule file is broken."""

    status = ExitStatus.RULE_ERROR


class ProbeError(OomDoctorError):
    status = ExitStatus.USAGE


class RerunError(OomDoctorError):
    status = ExitStatus.USAGE
