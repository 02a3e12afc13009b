"""The regression lane: the bundled model's English on chosen sentences, recorded per
weights and per CPU kind (how CTranslate2 computes int8 here, hardware.int8_kind, and
the CPU's vendor, whose caches set how oneDNN blocks its float GEMMs).

Unit tests drive each post-editing step with constructed candidates or a scripted
decoder, so they hold on every CPU. What the real model writes is kept here instead:
``cases.toml`` says what each sentence shows, ``recorded.json`` holds the English the
app wrote for it, keyed by the bundle's weights key and the int8 kind that wrote it.
tests/regression/test_lane.py compares: on a kind that was recorded with these weights
a changed English fails (regenerate it if the change is meant); on any other kind it is
reported, never failed, since a word may differ where int8 rounds otherwise.

    .venv/bin/python tests/regression/regression_lane.py            # report the differences
    .venv/bin/python tests/regression/regression_lane.py --update   # record this kind anew

``--update`` records this machine's kind and drops the other kinds' recordings of these
weights, which the change being recorded may have made stale; ``--add`` keeps them (to
record a second CPU kind when nothing else changed).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CASES = HERE / "cases.toml"
RECORDED = HERE / "recorded.json"
BUNDLE = ROOT / "resources" / "model"
# What the suite runs under (tests/conftest.py), so that the command and the tests
# compare one kind: oneDNN on every vendor, capped at AVX2.
SUITE_ENV = {"ONEDNN_MAX_CPU_ISA": "AVX2", "CT2_USE_MKL": "0"}


@dataclass(frozen=True)
class Case:
    """One German sentence, the runs it is translated with (name -> options: fields of
    SearchOptions, ``dictionary_words``, ``dictionary`` false for the model without the
    dictionary, ``glossary`` as TSV lines) and what its English shows: ``expect`` maps
    "RUN says" / "RUN lacks" / "RUN nbest says" (a candidate after the best) to words."""

    id: str
    german: str
    shows: str
    runs: dict
    expect: dict

    def misses(self, english: dict) -> list[str]:
        """What of ``expect`` the English of the runs (run -> {"text", "nbest"}) does
        not hold, in words (letter case aside); [] where all does."""
        out = []
        for key, words in self.expect.items():
            run, _, test = key.partition(" ")
            got = english.get(run, {})
            text, others = got.get("text", ""), [c.lower() for c in got.get("nbest", [])[1:]]
            for word in words:
                if test == "says" and word.lower() not in text.lower():
                    out.append(f"{run}: {word!r} not in {text!r}")
                elif test == "lacks" and word.lower() in text.lower():
                    out.append(f"{run}: {word!r} in {text!r}")
                elif test == "nbest says" and not any(word.lower() in c for c in others):
                    out.append(f"{run}: no candidate after the best says {word!r}")
        return out


def read_cases(path: Path = CASES) -> list[Case]:
    """The cases of ``path`` (TOML: [[case]] tables with id, german, shows, runs, expect)."""
    raw = tomllib.loads(path.read_text("utf-8"))
    cases = [
        Case(c["id"], c["german"], c["shows"], c.get("runs", {"app": {}}), c.get("expect", {}))
        for c in raw["case"]
    ]
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: case ids repeat")
    for c in cases:
        for key in c.expect:
            run, _, test = key.partition(" ")
            if run not in c.runs or test not in ("says", "lacks", "nbest says"):
                raise ValueError(f"{path}: case {c.id}: {key!r} names no run and test")
    return cases


def lane_kind() -> str:
    """This machine's CPU kind as the lane keys it: "oneDNN AVX2, AuthenticAMD"."""
    from translator_app.core.platform.hardware import cpu_vendor, int8_kind

    return f"{int8_kind()}, {cpu_vendor() or 'unknown vendor'}"


def load_translator():
    """The bundled model as the app loads it on the CPU, and its weights key."""
    from translator_app.core import Translator
    from translator_app.core.engine.bundle import load_bundle

    bundle = load_bundle(BUNDLE, "cpu", None, True)
    return Translator.from_bundle(bundle), bundle.weights_key


def translate_case(translator, case: Case) -> dict:
    """Each run of ``case`` -> {"text": its English, "nbest": its candidates' English}."""
    from translator_app.core.faithful.glossary import parse_glossary

    out = {}
    for run, options in case.runs.items():
        options = dict(options)
        dictionary = translator.dictionary
        if not options.pop("dictionary", True):
            translator.dictionary = None
        glossary = options.pop("glossary", None)
        if glossary is not None:
            options["glossary"] = parse_glossary("\n".join(glossary), f"{case.id}.{run}")
        try:
            (t,) = translator.translate([case.german], **options)
        finally:
            translator.dictionary = dictionary
        out[run] = {"text": t.text, "nbest": [c.text for c in t.nbest]}
    return out


def recordings(path: Path = RECORDED) -> dict:
    """weights key -> int8 kind -> {"english": case id -> runs, "cpu", "recorded"}."""
    return json.loads(path.read_text("utf-8")) if path.exists() else {}


def compare(expected: dict, got: dict) -> list[str]:
    """The runs whose English differs, in words: [] where none does."""
    out = []
    for run in sorted(set(expected) | set(got)):
        a, b = expected.get(run, {}).get("text"), got.get(run, {}).get("text")
        if a != b:
            out.append(f"{run}: recorded {a!r}, now {b!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="record this CPU kind anew")
    parser.add_argument(
        "--add", action="store_true", help="with --update: keep the other kinds' recordings"
    )
    args = parser.parse_args(argv)
    for name, value in SUITE_ENV.items():
        os.environ.setdefault(name, value)
    from translator_app.core.platform.hardware import cpu_name

    translator, key = load_translator()
    kind = lane_kind()
    cases = read_cases()
    english = {case.id: translate_case(translator, case) for case in cases}
    stored = recordings()
    mine = stored.get(key, {}).get(kind)
    problems = 0
    for case in cases:
        for miss in case.misses(english[case.id]):
            problems += 1
            print(f"{case.id}: no longer shows what it is for ({case.shows}): {miss}")
        # against this kind's recording, or else each other kind's, reported only
        others = [(kind, mine)] if mine is not None else list(stored.get(key, {}).items())
        for other, rec in others:
            for diff in compare(rec["english"].get(case.id, {}), english[case.id]):
                problems += 1
                print(f"{case.id}: {diff}" + ("" if other == kind else f" (on {other})"))
    if args.update:
        kinds = stored.get(key, {}) if args.add else {}
        kinds[kind] = {
            "cpu": cpu_name(),
            "recorded": datetime.date.today().isoformat(),
            "english": english,
        }
        RECORDED.write_text(
            json.dumps({key: kinds}, ensure_ascii=False, indent=1, sort_keys=True) + "\n", "utf-8"
        )
        print(f"recorded {len(cases)} cases for {kind} ({cpu_name()}) in {RECORDED.name}")
        return 0
    where = "recorded" if mine is not None else "not recorded (differences are reported only)"
    print(f"{len(cases)} cases on {kind} ({cpu_name()}), {where}: {problems} difference(s)")
    return 1 if problems and mine is not None else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
