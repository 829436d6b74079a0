"""Setting names that are no setting: a misspelt EVONOTE_ variable, or a key of a section
given as JSON that no field has, named with the nearest known name. pydantic-settings ignores
both without a word, and the operator's setting then silently never applies."""

from __future__ import annotations

import difflib
import json
import typing
from collections.abc import Mapping

from pydantic import BaseModel

PREFIX = "EVONOTE_"
# EVONOTE_ variables that are no setting and read by others: deploy/vllm/serve.sh's (they
# share the operator's env file) and the test suite's opt-ins.
OTHERS = ("EVONOTE_VLLM_", "EVONOTE_TEST_")


def _section(annotation: object) -> type[BaseModel] | None:
    return (
        annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None
    )


def known_names(model: type[BaseModel], prefix: str = PREFIX) -> tuple[set[str], set[str]]:
    """(every variable a field reads, the variables whose fields are maps: their keys are
    free, `EVONOTE_LLM__MAX_TOKENS_BY_CALL__AGENTTURN`)."""
    names: set[str] = set()
    maps: set[str] = set()
    for name, field in model.model_fields.items():
        variable = f"{prefix}{name.upper()}"
        names.add(variable)
        section = _section(field.annotation)
        if section is not None:
            inner, inner_maps = known_names(section, variable + "__")
            names |= inner
            maps |= inner_maps
        elif typing.get_origin(field.annotation) is dict:
            maps.add(variable)
    return names, maps


def nearest(name: str, candidates: set[str]) -> str:
    """' (did you mean X?)' for the closest candidate, or '' when none is close."""
    close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.75)
    return f" (did you mean {close[0]}?)" if close else ""


def unknown_variables(model: type[BaseModel], environ: Mapping[str, str]) -> list[str]:
    """One line per EVONOTE_ variable no setting reads."""
    names, maps = known_names(model)
    problems = []
    for variable in sorted(environ):
        upper = variable.upper()
        if not upper.startswith(PREFIX) or upper in names or upper.startswith(OTHERS):
            continue
        if any(upper.startswith(m + "__") for m in maps):
            continue
        problems.append(f"{variable} is not a setting{nearest(upper, names)}")
    return problems


def unknown_keys(model: type[BaseModel], environ: Mapping[str, str]) -> list[str]:
    """One line per key of a section given as JSON (`EVONOTE_LLM='{"base_url": …}'`) that the
    section has no field for."""
    problems: list[str] = []
    for variable, value in sorted(environ.items()):
        section = _section_of(model, variable.upper())
        if section is None:
            continue
        try:
            given = json.loads(value)
        except ValueError:
            continue  # settings.py names a JSON value that is no JSON
        problems += _keys(section, given, variable.upper())
    return problems


def _section_of(model: type[BaseModel], variable: str) -> type[BaseModel] | None:
    if not variable.startswith(PREFIX):
        return None
    current: type[BaseModel] | None = model
    for part in variable.removeprefix(PREFIX).split("__"):
        if current is None:
            return None
        field = next((f for n, f in current.model_fields.items() if n.upper() == part), None)
        if field is None:
            return None
        current = _section(field.annotation)
    return current


def _keys(section: type[BaseModel], given: object, where: str) -> list[str]:
    if not isinstance(given, dict):
        return []
    fields = {name.lower(): field for name, field in section.model_fields.items()}
    problems = []
    for key, value in given.items():
        field = fields.get(str(key).lower())
        if field is None:
            close = difflib.get_close_matches(str(key).lower(), sorted(fields), n=1, cutoff=0.75)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(f"{where}: {key!r} is not a setting of this section{hint}")
            continue
        inner = _section(field.annotation)
        if inner is not None:
            problems += _keys(inner, value, f"{where}__{str(key).upper()}")
    return problems
