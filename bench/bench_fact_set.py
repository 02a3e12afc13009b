"""Numbers, prices, times and dates on sentences nobody here wrote (issue 88 §3, the
held-out half drawn from corpora): how many the app's English keeps, and how many of the
rest it marks.

    .venv/bin/python bench/bench_fact_set.py [--per-set 40] [--json F] [--show N] [--dev]
    .venv/bin/python bench/bench_fact_set.py --set testsets/facts/facts-test.deu-eng.tsv [--json F]

The sentences are drawn by a search for facts, not read: the first ``--per-set`` pairs
of each held-out test set below whose German holds a number, price, time or date as the
fact check reads it (core/faithful/fact_check.py). A fact counts where the reference
English says it, as a reader of this bench's own reads English (text2num's English
reader for numbers in words, one pattern per kind: "2:30 p.m.", "24 December", "on
Saturdays"), so that a reference that renders a fact otherwise does not count against
the app; it is kept where the app's English says it the same way, marked where the app
marks it (its tooltip names it); beside them, the references the fact check marks
(its false alarms). Each sentence is translated alone, as the window asks,
with the app's default search and every post-editing step. ``--dev`` draws from the
dev sets instead (newstest2013, IWSLT validation, BConTrasT and MLQE-PE dev): the sets
to look at while a reader is written or mended, the test sets staying unread.

``--set FILE``: the half written by hand (testsets/facts/README.md): German and reference,
and the facts written beside them as keys ("n420 t7:30|t19:30 d3.5"), so that a fact the
app's German reader does not find still counts: lost without a mark where the English
does not say it (counted as "not read" too). A fact counts where its reference says it,
as for the drawn half.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data"

from translator_app.core import Translator, bundled_model_dir  # noqa: E402
from translator_app.core.data.corpus import DataError, read_pairs  # noqa: E402
from translator_app.core.faithful.fact_check import all_facts, missing_facts  # noqa: E402
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from english_said import (  # noqa: E402
    HELD_OUT_SETS,
    numbers_said,
    says_clock,
    says_date,
    says_month,
    says_weekday,
)

SETS = HELD_OUT_SETS  # test sets only: never trained on
DEV_SETS = (  # dev sets: never trained on either, read while mending a reader
    "wmt-news-deen/newstest2013.deu-eng.tsv.xz",
    "iwslt2017-deen/validation.deu-eng.tsv.xz",
    "bcontrast-chat-ende/dev.deu-eng.tsv.xz",
    "mlqe-pe-ende/dev.postedited.deu-eng.tsv.xz",
)


def says(key: str, english: str) -> bool | None:
    """Whether ``english`` says the fact of the fact check's ``key`` ("n1249.9",
    "t14:30", "d24.12", "w5", "M12"); None where the key is of a kind this bench does not
    read (units, limits, negation, counted nouns, codes)."""
    if m := re.fullmatch(r"n(\d+(?:\.\d+)?)", key):
        return float(m.group(1)) in numbers_said(english)
    if m := re.fullmatch(r"t(\d+):(\d\d)", key):
        return says_clock(int(m.group(1)), m.group(2), english)
    if m := re.fullmatch(r"d(\d+)\.(\d+)", key):
        return says_date(int(m.group(1)), int(m.group(2)), english)
    if m := re.fullmatch(r"w(\d)", key):
        return says_weekday(int(m.group(1)), english)
    if m := re.fullmatch(r"M(\d+)", key):
        return says_month(int(m.group(1)), english)
    return None


def read_facts(german: str) -> list:
    """The facts of ``german`` this bench reads (numbers, prices, times, dates)."""
    return [f for f in all_facts(german) if any(says(k, "") is not None for k in f.keys)]


def sentences(per_set: int, sets=SETS) -> list[tuple[str, str, str]]:
    """(set, German, reference) of the first ``per_set`` pairs of each of ``sets`` whose
    German holds a fact this bench reads and whose reference says at least one of them."""
    found = []
    for name in sets:
        some = []
        for _, (de, en) in read_pairs(DATA / name):
            facts = read_facts(de)
            if facts and any(any(says(k, en) for k in f.keys) for f in facts):
                some.append((name, de, en))
            if len(some) == per_set:
                break
        found += some
    return found


def hand_set(path: Path) -> list[tuple[str, str, str, list[frozenset[str]]]]:
    """(file, German, reference, facts) of each pair of a hand-written set, its facts read
    from the ``.keys.txt`` beside it (a line per pair, a fact per word, its alternative
    keys joined by "|"). A line that does not fit is an error naming it."""
    keys_file = path.with_name(path.name.replace(".deu-eng.tsv", ".keys.txt"))
    try:
        pairs = list(read_pairs(path))
        lines = keys_file.read_text(encoding="utf-8").splitlines()
    except (DataError, OSError, UnicodeDecodeError) as e:
        raise SystemExit(f"error: {e}") from None
    if len(lines) != len(pairs):
        raise SystemExit(f"{keys_file}: {len(lines)} lines for the {len(pairs)} pairs of {path}")
    rows = []
    for n, ((_, (de, en)), line) in enumerate(zip(pairs, lines, strict=True), 1):
        facts = [frozenset(alt.split("|")) for alt in line.split()]
        bad = [k for f in facts for k in f if says(k, "") is None]
        if not facts or bad:
            what = f"{bad[0]!r} is not a key this bench reads" if bad else "no fact keys"
            raise SystemExit(f"{keys_file}, line {n}: {what}")
        rows.append((path.name, de, en, facts))
    return rows


def drawn_set(per_set: int, sets) -> list[tuple[str, str, str, list[frozenset[str]]]]:
    """The drawn half: (set, German, reference, facts as the app's German reader reads them)."""
    return [
        (name, de, en, [f.keys for f in read_facts(de)])
        for name, de, en in sentences(per_set, sets)
    ]


def tally(data, done) -> tuple[int, int, int, int, list, list]:
    """The facts of ``data`` (rows of :func:`hand_set` or :func:`drawn_set`) that their
    references say, and of those how many ``done`` (the app's translations) keeps,
    marks, and did not read in the German; with (German, fact, English, reference) of
    each lost without a mark, and (translation, mark, keys, reference) of each marked."""
    counted = kept = marked = unread = 0
    silent, marks = [], []
    for (_, de, ref, facts), t in zip(data, done, strict=True):
        read = {k for f in all_facts(de) for k in f.keys}
        for keys in facts:
            if not any(says(k, ref) for k in keys):
                continue  # the reference renders it otherwise: not counted
            counted += 1
            unread += not keys & read
            if any(says(k, t.text) for k in keys):
                kept += 1
            elif mark := next((g for g in t.issues if keys & g.keys), None):
                marked += 1
                marks.append((t, mark, keys, ref))
            else:
                silent.append((de, "|".join(sorted(keys)), t.text, ref))
    return counted, kept, marked, unread, silent, marks


def fixes_offered(translator, marks) -> tuple[int, int, tuple[int, float], list]:
    """How many of ``marks`` ((translation, its mark of a lost fact, the fact's keys,
    the reference)) offer a fix as the window's word menu does (translator.fact_fix: the
    sentence decoded with the fact's English forced in), how many of those fixes say
    the fact, and how many are closer to the reference than the English shown (sentence
    chrF, sacrebleu) with the fixes' mean gain in it; with (translation, mark, the fix's English or None) of the fixes
    that do not say it."""
    import sacrebleu

    offered = fixed = closer = 0
    unfixed, gains = [], []
    for t, mark, keys, ref in marks:
        fix = translator.fact_fix(t, mark)
        offered += fix is not None
        says_it = fix is not None and any(says(k, fix.text) for k in keys)
        fixed += says_it
        if fix is not None:
            chrf = [sacrebleu.sentence_chrf(x, [ref]).score for x in (fix.text, t.text)]
            closer += chrf[0] > chrf[1]
            gains.append(chrf[0] - chrf[1])
        if not says_it:
            unfixed.append((t, mark, fix.text if fix is not None else None))
    gain = round(sum(gains) / len(gains), 1) if gains else 0.0
    return offered, fixed, (closer, gain), unfixed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-set", type=int, default=40)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--show", type=int, default=0, help="print N facts lost without a mark")
    ap.add_argument("--dev", action="store_true", help="draw from the dev sets instead")
    ap.add_argument("--set", type=Path, default=None, help="a hand-written set (see above)")
    ap.add_argument(
        "--show-alarms", type=int, default=0, help="print N references the fact check marks"
    )
    args = ap.parse_args(argv)
    sets = DEV_SETS if args.dev else SETS
    data = hand_set(args.set) if args.set else drawn_set(args.per_set, sets)
    sets = sorted({name for name, *_ in data}) if args.set else sets
    translator = Translator.load(bundled_model_dir(), device="cpu")
    translator.translate(["Guten Morgen."])
    start = time.perf_counter()
    done = [translator.translate([de])[0] for _, de, _, _ in data]
    seconds = time.perf_counter() - start
    counted, kept, marked, unread, silent, marks = tally(data, done)
    offered, fixed, closer, unfixed = fixes_offered(translator, marks)
    report = {
        "command": "bench/bench_fact_set.py " + " ".join(argv or sys.argv[1:]),
        "cpu": describe_machine(),
        "sentences": len(data),
        "sets": {name: sum(row[0] == name for row in data) for name in sets},
        "facts": counted,
        "kept": kept,
        "marked": marked,
        "not_read": unread,  # facts the app's German reader does not find (hand set only)
        "kept_percent": round(100 * kept / max(counted, 1), 1),
        "kept_or_marked_percent": round(100 * (kept + marked) / max(counted, 1), 1),
        # of the marked facts: those whose mark offers a fix (the word menu's forced
        # decode, core/api/followups.fact_fix), and those whose fix says the fact
        "marks_offering_a_fix": offered,
        "fixes_saying_the_fact": fixed,
        # of those: fixes closer to the reference than the English shown (sentence chrF)
        "fixes_closer_to_the_reference": closer[0],
        "fix_chrf_gain": closer[1],  # the fixes' mean sentence chrF less the shown's
        "seconds": round(seconds, 1),
        # the fact check's false alarms: references it marks
        "references_marked": sum(bool(missing_facts(de, ref)) for _, de, ref, _ in data),
    }
    print(f"{report['cpu']}; {len(data)} sentences: {report['sets']}")
    print(
        f"{counted} facts the references say: {kept} kept ({report['kept_percent']} %), "
        f"{marked} more marked ({report['kept_or_marked_percent']} % kept or marked), "
        f"{len(silent)} lost without a mark ({unread} not read in the German); {seconds:.1f} s; the fact check marks "
        f"{report['references_marked']} of the {len(data)} references (false alarms)"
    )
    print(
        f"of the {marked} marked: {offered} offer a fix in the word menu, "
        f"{fixed} of those fixes say the fact, {closer[0]} are closer to the reference "
        f"than the English shown (sentence chrF, {closer[1]:+.1f} on average)"
    )
    for t, mark, fix in unfixed[: args.show]:
        print(f"\n{t.source}\n  marked: {mark.text!r}\n  app:  {t.text}\n  fix:  {fix}")
    for de, fact, en, ref in silent[: args.show]:
        print(f"\n{de}\n  fact: {fact}\n  app:  {en}\n  ref:  {ref}")
    alarms = [(de, ref, missing_facts(de, ref)) for _, de, ref, _ in data]
    for de, ref, facts in [a for a in alarms if a[2]][: args.show_alarms]:
        said = ", ".join(f"{f.kind} {f.text!r}" for f in facts)
        print(f"\n{de}\n  ref:  {ref}\n  marked: {said}")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
