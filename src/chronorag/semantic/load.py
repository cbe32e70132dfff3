"""Reading semantic-layer files (.yaml/.yml/.json) with the file line of every entry.

A file is a layer when its top level is a mapping with at least one of the keys
``tables``, ``metrics``, ``terms``, ``joins``, ``examples``, ``rules``. Lines come from the
YAML node tree; JSON is parsed as YAML for its lines when PyYAML can read it, otherwise
errors name a JSON path (``metrics[2]``) at line 0.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from os import PathLike
from pathlib import Path
from typing import Any

import yaml

from chronorag.errors import FieldError, ValidationError
from chronorag.semantic.model import SECTIONS, Asset
from chronorag.semantic.validate import Entry, validate_layer

__all__ = ["LAYER_SUFFIXES", "find_layer_files", "is_layer_file", "load_layers"]

LAYER_SUFFIXES = (".yaml", ".yml", ".json")


class _Loader(yaml.SafeLoader):
    """Safe loader that leaves dates as strings (so the date parser reports them exactly)
    and reads only true/false as booleans: YAML 1.1 would turn the join key ``on`` (and
    yes/no/off) into a boolean."""


_DROP = {"tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool"}
_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag not in _DROP]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|"
                                                                   r"False|FALSE)$"), list("tTfF"))


_Lines = dict[tuple[str, int], tuple[int, dict[str, int]]]
"""(section, index) -> (line of the entry, {field: line})."""


@dataclass(frozen=True)
class _Parsed:
    data: Any
    lines: Mapping[tuple[str, int], tuple[int, dict[str, int]]] = field(default_factory=dict)
    error: FieldError | None = None


def is_layer_file(path: Path) -> bool:
    """True for a .yaml/.yml/.json file whose top level has a semantic-layer key."""
    if path.suffix.lower() not in LAYER_SUFFIXES or not path.is_file():
        return False
    try:
        parsed = _parse(path.read_text(encoding="utf-8-sig"), str(path), path.suffix.lower())
    except (OSError, UnicodeDecodeError):
        return False
    return isinstance(parsed.data, dict) and any(k in SECTIONS for k in parsed.data)


def find_layer_files(paths: Sequence[str | PathLike[str]]) -> Iterator[Path]:
    """Layer files among ``paths``: named files by suffix, folders searched recursively
    (hidden parts skipped) for files that are layers by content."""
    for given in paths:
        path = Path(given)
        if path.is_file() and path.suffix.lower() in LAYER_SUFFIXES:
            yield path
        elif path.is_dir():
            for child in sorted(path.rglob("*")):
                hidden = any(p.startswith(".") for p in child.relative_to(path).parts)
                if not hidden and is_layer_file(child):
                    yield child


def load_layers(paths: Sequence[str | PathLike[str]], *, tz: tzinfo = UTC,
                known: Mapping[str, frozenset[str]] | None = None) -> list[Asset]:
    """Read and validate every layer file; all assets or ``ValidationError`` (every problem).

    ``known`` maps a kind to ids already stored, so a file may refer to tables or metrics
    ingested earlier.
    """
    errors: list[FieldError] = []
    entries: list[Entry] = []
    for path in paths:
        shown = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            errors.append(FieldError(shown, 0, "path", f"cannot be read as UTF-8 ({exc})"))
            continue
        parsed = _parse(text, shown, Path(path).suffix.lower())
        if parsed.error is not None:
            errors.append(parsed.error)
            continue
        file_entries, file_errors = _entries(parsed, shown)
        entries += file_entries
        errors += file_errors
    assets, entry_errors = validate_layer(entries, tz=tz, known=known or {})
    errors += entry_errors
    if errors:
        raise ValidationError(errors)
    return assets


def _parse(text: str, shown: str, suffix: str) -> _Parsed:
    if suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            return _Parsed(None, error=FieldError(
                shown, exc.lineno, "json", f"not valid JSON ({exc.msg} at column {exc.colno})"))
        return _Parsed(data, _yaml_lines(text) or {})
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = 1 + (mark.line if mark is not None else 0)
        return _Parsed(None, error=FieldError(shown, line, "yaml",
                                              f"not valid YAML ({exc.problem})"))
    except yaml.YAMLError as exc:
        return _Parsed(None, error=FieldError(shown, 1, "yaml", f"not valid YAML ({exc})"))
    return _Parsed(data, _yaml_lines(text) or {})


def _yaml_lines(text: str) -> _Lines | None:
    """1-based lines of every section entry and of every field in it, from the node tree."""
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError:
        return None
    lines: _Lines = {}
    if not isinstance(root, yaml.MappingNode):
        return lines
    for key_node, section in root.value:
        if not isinstance(section, yaml.SequenceNode):
            continue
        for i, item in enumerate(section.value):
            fields: dict[str, int] = {}
            for k, v in item.value if isinstance(item, yaml.MappingNode) else ():
                fields[str(k.value)] = k.start_mark.line + 1
                if isinstance(v, yaml.SequenceNode):  # columns[3] of a table
                    fields.update({f"{k.value}[{j}]": n.start_mark.line + 1
                                   for j, n in enumerate(v.value)})
            lines[(str(key_node.value), i)] = (item.start_mark.line + 1, fields)
    return lines


def _entries(parsed: _Parsed, shown: str) -> tuple[list[Entry], list[FieldError]]:
    data = parsed.data
    if not isinstance(data, dict) or not any(k in SECTIONS for k in data):
        keys = ", ".join(SECTIONS)
        return [], [FieldError(shown, 1, "layer",
                               f"is not a semantic layer: the top level needs one of {keys}")]
    entries: list[Entry] = []
    errors: list[FieldError] = []
    for section, value in data.items():
        if section not in SECTIONS:
            errors.append(FieldError(shown, 1, str(section),
                                     f"unknown section; use {', '.join(SECTIONS)}"))
            continue
        if not isinstance(value, list):
            errors.append(FieldError(shown, 1, section, "must be a list of entries"))
            continue
        for i, item in enumerate(value):
            line, fields = parsed.lines.get((section, i), (0, {}))
            entries.append(Entry(shown, line, SECTIONS[section], i, item, fields))
    return entries, errors
