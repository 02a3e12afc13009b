"""The labelled set of bench/bench_dropped.py (issue 48, section 3): translations that
drop a content word, and the same translations whole.

    .venv/bin/python bench/dropped_set.py    # rewrites bench/data/dropped.tsv

Built by deleting words from good translations: for each German sentence of the
project's register dev set and of Multi30k's validation split (both never trained on),
one German content word is chosen whose translation, by the Ding dictionary, occurs
once in the careful English reference; the set holds the reference whole ("kept") and
the reference with that English word deleted, with an article or a possessive right
before it where that is all that is left of the phrase ("dropped", labelled with the
German word). Needs ../shared/data (Ding and Multi30k); the file is committed so the
bench runs without it. Deterministic: the same file on every run.

Columns: label (kept | dropped), the German word dropped (empty when kept), German,
English.
"""

from __future__ import annotations

import lzma
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator_app.core.faithful.dropped import is_content_word  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
DING = SHARED / "ding-de-en-dictionary" / "de-en.pairs.tsv.xz"
SOURCES = (
    ("register-dev", ROOT / "testsets" / "register" / "register-dev.deu-eng.tsv", 170),
    ("multi30k-val", SHARED / "multi30k" / "val.deu-eng.tsv.xz", 170),
)
OUT = Path(__file__).with_name("data") / "dropped.tsv"

ENGLISH_FUNCTION = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "by",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "we",
        "you",
        "he",
        "she",
        "they",
        "i",
        "me",
        "us",
        "him",
        "her",
        "them",
        "my",
        "your",
        "our",
        "their",
        "his",
        "there",
        "here",
        "not",
        "no",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "will",
        "would",
        "can",
        "could",
        "may",
        "might",
        "shall",
        "should",
        "must",
        "up",
        "out",
        "off",
        "over",
        "into",
        "onto",
        "about",
        "so",
        "than",
        "then",
    ]
)
LEAD_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "your",
        "our",
        "their",
        "his",
        "her",
        "its",
        "this",
        "that",
        "these",
        "those",
    ]
)
WORD = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")


def _lines(path: Path) -> list[str]:
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def ding_words() -> dict[str, set[str]]:
    """German single word (lower case) -> its single-word English translations."""
    table: dict[str, set[str]] = {}
    for line in _lines(DING):
        de, _, en = line.partition("\t")
        if " " in de or " " in en or not en or not de.isalpha():
            continue
        en = en.lower()
        if en.isalpha() and en not in ENGLISH_FUNCTION and len(en) > 2:
            table.setdefault(de.lower(), set()).add(en)
    return table


def _forms(english: str) -> set[str]:
    """An English dictionary word and its common inflections."""
    stem = english[:-1] if english.endswith("e") else english
    return {english, english + "s", english + "es", stem + "ed", stem + "ing", english + "d"}


def _german_stems(word: str) -> list[str]:
    """The dictionary forms a German inflected word may have (longest first)."""
    low = word.lower()
    out = [low]
    for ending in ("en", "er", "es", "em", "e", "n", "s"):
        if low.endswith(ending) and len(low) - len(ending) >= 3:
            out.append(low[: -len(ending)])
    return out


def drop_candidates(german: str, english: str, table: dict[str, set[str]]):
    """(German word, English match) pairs where the German content word's dictionary
    translation occurs exactly once in ``english``."""
    en_words = [m for m in WORD.finditer(english)]
    found = []
    for m in WORD.finditer(german):
        word = m.group()
        if not is_content_word(word):
            continue
        translations = next((table[s] for s in _german_stems(word) if s in table), None)
        if not translations:
            continue
        forms = set().union(*(_forms(t) for t in translations))
        hits = [e for e in en_words if e.group().lower() in forms]
        if len(hits) == 1:
            found.append((word, hits[0]))
    return found


def delete_word(english: str, match: re.Match) -> str:
    """``english`` without the matched word, and without an article or possessive left
    alone right before it ("the invoice" goes whole)."""
    start, end = match.span()
    before = english[:start].rstrip()
    last = re.search(r"([^\W\d_]+)$", before)
    if last and last.group(1).lower() in LEAD_WORDS:
        before = before[: last.start()].rstrip()
    after = english[end:].lstrip(" ")
    joined = (before + (" " if after[:1].isalnum() else "") + after).strip()
    joined = re.sub(r"\s+([,.;:!?])", r"\1", joined)
    return joined[:1].upper() + joined[1:] if joined else joined


def build(seed: int = 48) -> list[tuple[str, str, str, str]]:
    table = ding_words()
    rng = random.Random(seed)
    rows = []
    for _name, path, wanted in SOURCES:
        pairs = [line.split("\t")[:2] for line in _lines(path)]
        rng.shuffle(pairs)
        taken = 0
        for german, english in pairs:
            options = drop_candidates(german, english, table)
            if not options or taken >= wanted:
                continue
            word, match = rng.choice(options)
            rows.append(("kept", "", german, english))
            rows.append(("dropped", word, german, delete_word(english, match)))
            taken += 1
    return rows


def main() -> None:
    rows = build()
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text("".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    print(f"wrote {OUT} ({len(rows)} pairs, {sum(r[0] == 'dropped' for r in rows)} dropped)")


if __name__ == "__main__":
    main()
