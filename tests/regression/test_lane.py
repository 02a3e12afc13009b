"""The regression lane (tests/regression/regression_lane.py): the bundled model's English
on each case, against what was recorded for these weights and this CPU kind. A changed
English fails only on a recorded kind; on another it is reported as a warning (int8
rounds otherwise there, and a word may differ), never failed."""

from __future__ import annotations

import warnings

import pytest
from regression_lane import (
    compare,
    lane_kind,
    load_translator,
    read_cases,
    recordings,
    translate_case,
)

CASES = read_cases()


class LaneDifference(UserWarning):
    """The English of a case differs from a recording of another CPU kind."""


@pytest.fixture(scope="module")
def lane():
    translator, key = load_translator()
    return translator, recordings().get(key, {}), lane_kind()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_bundled_models_english_is_as_recorded(lane, case):
    translator, kinds, kind = lane
    english = translate_case(translator, case)
    misses = case.misses(english)
    if kind in kinds:
        diffs = compare(kinds[kind]["english"].get(case.id, {}), english)
        hint = "if meant: .venv/bin/python tests/regression/regression_lane.py --update"
        assert not diffs, f"{case.id} on {kind}: " + "; ".join(diffs) + f" ({hint})"
        assert not misses, f"{case.id} no longer shows {case.shows!r}: " + "; ".join(misses)
        return
    others = {k: v["english"].get(case.id, {}) for k, v in kinds.items()}
    diffs = [f"{k}: {'; '.join(d)}" for k, e in others.items() if (d := compare(e, english))]
    if diffs or misses:
        warnings.warn(
            LaneDifference(f"{case.id} on {kind} (not recorded): " + " | ".join(diffs + misses)),
            stacklevel=1,
        )


def test_every_case_is_recorded_for_the_kinds_kept():
    """A case added to cases.toml is recorded (``--update``) with the others."""
    ids = {c.id for c in CASES}
    for weights in recordings().values():
        for kind, rec in weights.items():
            assert set(rec["english"]) == ids, f"{kind}: run regression_lane.py --update"
