"""One way to turn a parsed mapping (JSON, TOML) into a config dataclass, with validation.

Used for the model config, the trainer's [data] and [train] tables, a bundle's search
defaults and the app's settings. Field types come from the dataclass annotations: int,
float (an int is accepted), bool, str, tuples or lists of strings (a single string is
accepted as a one-item list) and tuples of ints.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_SCALARS = {"int": int, "float": (int, float), "bool": bool, "str": str}
_STRING_LISTS = {"tuple[str, ...]": tuple, "list[str]": list}
_INT_TUPLE = "tuple[int, ...]"


class FieldError(ValueError):
    """A value that does not fit its field; the message names the field."""


def convert(type_name: str, value: Any, name: str) -> Any:
    """``value`` as a value of the field ``name`` annotated ``type_name`` (``X | None``:
    null or an X)."""
    if type_name.endswith(" | None"):
        return None if value is None else convert(type_name[: -len(" | None")], value, name)
    if type_name in _STRING_LISTS:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)) or not all(isinstance(v, str) for v in items):
            raise FieldError(f"{name} must be a list of strings, got {value!r}")
        return _STRING_LISTS[type_name](items)
    if type_name == _INT_TUPLE:
        ok = isinstance(value, (list, tuple)) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        )
        if not ok:
            raise FieldError(f"{name} must be a list of whole numbers, got {value!r}")
        return tuple(value)
    expected = _SCALARS.get(type_name)
    if expected is None:
        raise TypeError(f"{name}: unsupported field type {type_name}")
    # bool is an int in Python; neither stands in for the other here.
    if isinstance(value, bool) != (type_name == "bool") or not isinstance(value, expected):
        raise FieldError(f"{name} must be {type_name}, got {value!r}")
    return float(value) if type_name == "float" else value


def from_dict(
    cls: type[T],
    data: Any,
    what: str,
    *,
    unknown: str = "error",
    invalid: str = "error",
    error: type[Exception] = FieldError,
    skip: tuple[str, ...] = (),
) -> T:
    """An instance of the dataclass ``cls`` from the mapping ``data`` (``what`` names it
    in messages). ``unknown`` keys: "error" or "ignore" (a file of a newer version);
    ``invalid`` values: "error" or "default" (keep the field's default, and only the
    strings of a list of strings: user settings must never stop the app). ``skip``: fields never read from ``data``. Errors are
    raised as ``error``."""
    if not isinstance(data, dict):
        raise error(f"{what} must be a mapping, got {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.name not in skip}
    extra = sorted(set(data) - set(fields))
    if extra and unknown == "error":
        raise error(
            f"unknown key(s) in {what}: {', '.join(extra)}; valid keys are: {', '.join(fields)}"
        )
    values = {}
    for name, f in fields.items():
        if name not in data:
            continue
        value = data[name]
        if invalid == "default" and str(f.type) in _STRING_LISTS and isinstance(value, list):
            value = [v for v in value if isinstance(v, str)]  # keep what is usable
        try:
            values[name] = convert(str(f.type), value, name)
        except FieldError as e:
            if invalid == "error":
                raise error(f"{what}: {e}") from None
    return cls(**values)
