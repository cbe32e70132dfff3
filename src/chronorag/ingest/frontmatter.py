"""YAML front matter of Markdown and text files, with the file line of every field."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

__all__ = ["FrontMatter", "split_front_matter"]

_FENCE = re.compile(r"^---[ \t]*\r?$")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$")


class _Loader(yaml.SafeLoader):
    """Safe loader that leaves dates as strings.

    PyYAML would turn ``2021-05-06`` into a ``date`` (losing nothing) but ``2026-13-45``
    into a crash of the whole front matter; keeping the text lets the date parser report
    the exact field and keep the precision the user wrote.
    """


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@dataclass(frozen=True)
class FrontMatter:
    """The parts of a text file: its fields, their lines, the body and where it starts."""

    fields: Mapping[str, Any] = field(default_factory=dict)
    field_lines: Mapping[str, int] = field(default_factory=dict)
    body: str = ""
    body_line: int = 1
    error: str | None = None
    error_line: int = 0


def split_front_matter(text: str) -> FrontMatter:
    """Split ``text`` into YAML front matter (between leading ``---`` lines) and body.

    Without a leading ``---`` line the whole text is the body. Line numbers are 1-based
    lines of the file.
    """
    lines = text.split("\n")
    if not lines or not _FENCE.match(lines[0]):
        return FrontMatter(body=text)
    close = next((i for i in range(1, len(lines)) if _CLOSE.match(lines[i])), None)
    if close is None:
        return FrontMatter(error="starts with '---' on line 1 but has no closing '---' line",
                           error_line=1)
    yaml_text = "\n".join(lines[1:close])
    body = "\n".join(lines[close + 1:])
    parsed = _parse_yaml(yaml_text)
    if isinstance(parsed, FrontMatter):
        return parsed
    fields, field_lines = parsed
    return FrontMatter(fields, field_lines, body, close + 2)


def _parse_yaml(yaml_text: str) -> FrontMatter | tuple[dict[str, Any], dict[str, int]]:
    """Fields and their file lines, or a ``FrontMatter`` carrying the error."""
    loader = _Loader(yaml_text)
    try:
        node = loader.get_single_node()
        if node is None:
            return {}, {}
        if not isinstance(node, yaml.MappingNode):
            return FrontMatter(error="must be a mapping of field: value lines", error_line=2)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        # The mark is 0-based inside the YAML block, which starts on file line 2.
        mark = exc.problem_mark or exc.context_mark
        line = 2 + (mark.line if mark is not None else 0)
        return FrontMatter(error=f"is not valid YAML ({exc.problem})", error_line=line)
    except yaml.YAMLError as exc:
        return FrontMatter(error=f"is not valid YAML ({exc})", error_line=2)
    finally:
        loader.dispose()
    lines = {str(key.value): 2 + key.start_mark.line for key, _ in node.value}
    return {str(k): v for k, v in data.items()}, lines
