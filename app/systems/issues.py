"""Issues: what engines report instead of raising (api-v1.md, "Validation issues")."""

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Severity = Literal["error", "warning"]


class Issue(BaseModel):
    """A problem found in a unit or a roster; `error` makes it invalid, `warning` does not."""

    model_config = ConfigDict(frozen=True)

    severity: Severity
    code: str = Field(description="Stable snake_case identifier of the problem.")
    message: str = Field(description="Human text, in French.")
    path: str = Field(
        "", description="Where in the request the problem is, e.g. entries[2].items[1]."
    )


def error(code: str, message: str, path: str = "") -> Issue:
    return Issue(severity="error", code=code, message=message, path=path)


def warning(code: str, message: str, path: str = "") -> Issue:
    return Issue(severity="warning", code=code, message=message, path=path)


def join_path(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if not path:
        return prefix
    return f"{prefix}{path}" if path.startswith("[") else f"{prefix}.{path}"


def prefixed(issues: Sequence[Issue], prefix: str) -> list[Issue]:
    """The same issues, with their paths placed under `prefix`."""
    return [issue.model_copy(update={"path": join_path(prefix, issue.path)}) for issue in issues]


def is_valid(issues: Sequence[Issue]) -> bool:
    return not any(issue.severity == "error" for issue in issues)
