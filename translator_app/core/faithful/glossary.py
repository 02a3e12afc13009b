"""The user's glossary: German terms and the English each must become (issue 30).

A glossary is a TSV file of ``German<TAB>English`` lines (``#`` starts a comment). The
translator finds each German term in a sentence, inflected forms included (Zauberpfanne,
Zauberpfannen; Vertrag, Verträge, Vertrages), annotates it with its English
(core/faithful/terms.py) for a model trained on such annotations, and reports which terms the
English then contains.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from translator_app.core.data.corpus import DataError
from translator_app.core.faithful.term_index import MAX_TERM_WORDS, TermIndex
from translator_app.core.faithful.terms import MARKERS, TERM_END, TERM_MEANS, TERM_START
from translator_app.core.language.english import (
    find_target,
    target_matches,
)
from translator_app.core.language.words import (
    alternation,
    column_titles,
    german_function_words,
    german_words,
)
from translator_app.core.platform.paths import write_atomic
from translator_app.core.values import TermUse

# German endings of inflected and plural forms (Pfanne -> Pfannen, Topf -> Topfes).
_ENDINGS = f"(?:{alternation(german_words('term-ending'))})?"
MAX_TERMS = 10_000
MAX_TERM_CHARS = 200


@dataclass(frozen=True)
class Term:
    """A German term and the English it must become; ``kind`` where it comes from: the
    user's glossary, a fine-tune's taught terms, or the dictionary, for a word the model
    copied (values.TERM_KINDS)."""

    source: str  # German
    target: str  # English
    kind: str = "user"

    @property
    def dictionary(self) -> bool:
        return self.kind == "dictionary"


_UMLAUTS = {
    "a": "(?:a|ä|a\u0308)",
    "o": "(?:o|ö|o\u0308)",
    "u": "(?:u|ü|u\u0308)",
    "au": "(?:au|äu|a\u0308u)",
}


# Endings of a German plural (Helm -> Helme, Schein -> Scheine, Bad -> Bäder, Angebot ->
# Angebote, Helmen in the dative): not -s/-es, which are mostly a genitive singular.
_PLURAL_ENDINGS = frozenset(german_words("plural-ending"))
_SINGULAR_ARTICLES = frozenset(german_words("singular-determiner"))
# Determiners that stand before a masculine or neuter noun only in the plural („die
# Winterreifen“, „keine Dübel“, „meine Messer“): such a noun, whose plural is its singular,
# is counted many by them alone.
_PLURAL_DETERMINERS = frozenset(german_words("plural-determiner"))


def determined_plural(before: Sequence[str], gender: str) -> bool:
    """Whether a noun of ``gender`` ("m", "f", "n") is plural by its determiner, the
    last of the words ``before`` it that is no adjective's weak ending in -en („die
    neuen Winterreifen“): „die“ and its kin stand before a masculine or neuter noun only
    in the plural (a feminine noun's plural shows in its ending: :func:`is_plural`)."""
    if gender not in ("m", "n"):
        return False
    for word in reversed(before):
        if word[:1].islower() and word.endswith("en") and word not in _PLURAL_DETERMINERS:
            continue  # „neuen“, „alten“: an adjective between
        return word.casefold() in _PLURAL_DETERMINERS
    return False


def is_plural(term: str, written: str, before: str = "") -> bool:
    """Whether ``written`` (the German as the text has it) is the plural of ``term`` (as
    the glossary gives it, singular): a plural ending on its last word, or an umlaut
    the term does not have („Fahrradhelmen“, „Lieferscheine“, „Verträge“; issue 61 §3),
    unless the word ``before`` it is a singular article („dem Kunden“)."""
    if before.casefold() in _SINGULAR_ARTICLES:
        return False
    base, form = (
        term.split()[-1].casefold(),
        unicodedata.normalize("NFC", written).split()[-1].casefold(),
    )
    if form == base or not form.startswith(base[:2]):
        return False
    umlauted = sum(c in "äöü" for c in form) > sum(c in "äöü" for c in base)
    ending = form[len(base) :] if form.startswith(base) else ""
    return umlauted or ending in _PLURAL_ENDINGS


# Prepositions fused with the definite article: before a term the model dropped the
# article („ins Schwimmbad“ -> "to swimming pool"; issue 61 §3); asked for "the swimming
# pool" it writes "to the swimming pool" (a doubled "the" is undone in the tokenizer's
# decode).
FUSED_ARTICLES = german_function_words("fused")


def _written(text: str) -> str:
    """``text`` as a pattern that also matches its letters decomposed (NFD: „ü“ as u and
    a combining diaeresis, as macOS and some PDFs write it; issue 64 §3)."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        nfd = unicodedata.normalize("NFD", ch)
        out.append(f"(?:{re.escape(ch)}|{re.escape(nfd)})" if nfd != ch else re.escape(ch))
    return "".join(out)


def _word_pattern(word: str) -> str:
    """A German word with its endings, and its plural's umlaut on the last stem vowel
    (Vertrag -> Verträge, Topf -> Töpfe, Haus -> Häuser)."""
    vowels = list(re.finditer(r"au|[aou]", word))
    if not vowels:
        return _written(word) + _ENDINGS
    m = vowels[-1]
    head, vowel, tail = word[: m.start()], m.group(), word[m.end() :]
    return _written(head) + _UMLAUTS[vowel] + _written(tail) + _ENDINGS


def _pattern(term: str) -> re.Pattern:
    body = r"\s+".join(_word_pattern(w) for w in term.split())
    return re.compile(rf"(?<![\w-]){body}(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True)
class Glossary:
    terms: tuple[Term, ...] = ()

    def __post_init__(self) -> None:
        # Longest German first, so "Zauberpfanne Deluxe" wins over "Zauberpfanne".
        ordered = tuple(sorted(self.terms, key=lambda t: -len(t.source)))
        object.__setattr__(self, "terms", ordered)
        # Compiled when the index first names a term (10,000 long terms took seconds to
        # compile up front); filling the list is idempotent, so threads may share it.
        object.__setattr__(self, "_patterns", [None] * len(ordered))
        object.__setattr__(self, "_index", TermIndex([t.source for t in ordered]))

    def __bool__(self) -> bool:
        return bool(self.terms)

    def find(self, text: str) -> list[TermUse]:
        """The terms in ``text``, left to right, without overlaps (a longer German term
        wins). Only the terms the index names at a position are matched there."""
        hits = []
        for number, start in self._index.candidates(text):
            m = self._pattern(number).match(text, start)
            if m:
                hits.append((number, m.start(), m.end(), m.group()))
        taken: list[tuple[int, int]] = []
        found = []
        for number, start, end, written in sorted(hits):
            if any(start < e and s < end for s, e in taken):
                continue
            taken.append((start, end))
            term = self.terms[number]
            before = text[:start].split()[-1:] or [""]
            plural = is_plural(term.source, written, before[0])
            definite = before[0].casefold() in FUSED_ARTICLES
            found.append(
                TermUse(
                    start,
                    end,
                    written,
                    term.target,
                    plural=plural,
                    definite=definite,
                    kind=term.kind,
                )
            )
        return sorted(found, key=lambda u: u.start)

    def _pattern(self, number: int) -> re.Pattern:
        pattern = self._patterns[number]
        if pattern is None:
            pattern = self._patterns[number] = _pattern(self.terms[number].source)
        return pattern

    def key(self) -> tuple[tuple[str, str], ...]:
        """A hashable value that changes whenever the glossary does (for caches)."""
        return tuple((t.source, t.target) for t in self.terms)


def merged(base: Glossary, over: Glossary | None) -> Glossary:
    """``base`` (a model's taught terms) with ``over`` (the user's glossary) on top: where
    both have a German term, the user's English wins."""
    if not over:
        return base
    if not base:
        return over
    mine = {t.source.casefold() for t in over.terms}
    return Glossary(over.terms + tuple(t for t in base.terms if t.source.casefold() not in mine))


def annotate(text: str, uses: list[TermUse]) -> tuple[str, list[tuple[int, int, int, int]]]:
    """``text`` with each use annotated (core/faithful/terms.py), and the regions the annotation
    inserted, as (annotated start, annotated end, term start, term end in ``text``)."""
    out, inserted, pos, length = [], [], 0, 0
    for u in uses:
        head = f"{TERM_START} "
        tail = f" {TERM_MEANS} {u.english} {TERM_END}"
        before = text[pos : u.start]
        length += len(before)
        inserted.append((length, length + len(head), u.start, u.end))
        length += len(head) + (u.end - u.start)
        inserted.append((length, length + len(tail), u.start, u.end))
        length += len(tail)
        out += [before, head, text[u.start : u.end], tail]
        pos = u.end
    out.append(text[pos:])
    return "".join(out), inserted


def map_spans(spans, inserted, source_len: int):
    """Piece spans in the annotated text -> spans in the source: a piece inside an
    inserted region (a marker, the English asked for) gets its term's span."""
    if not inserted:
        return spans

    def to_source(pos: int, is_end: bool) -> int:
        shift = 0
        for a, b, s, e in inserted:
            if pos < a:
                break
            if pos < b or (is_end and pos == b):
                return e if is_end else s
            shift += b - a
        return min(max(pos - shift, 0), source_len)

    return tuple((to_source(b, False), to_source(e, True)) for b, e in spans)


def repeated_terms(uses: Sequence[TermUse], english: str) -> int:
    """How many times ``english`` writes a term's English more often than the German
    holds the term („weil die Lieferscheine fehlten“ with Lieferschein -> delivery note:
    "We couldn't delivery notes because the delivery notes did.", the annotation's
    English written where „liefern“ stood too)."""
    asked = Counter(u.target.casefold() for u in uses)
    return sum(
        max(0, len(list(target_matches(target, english))) - n) for target, n in asked.items()
    )


def check_uses(uses: list[TermUse], english: str) -> tuple[TermUse, ...]:
    """``uses`` with ``kept`` set where the English contains the term's English."""
    return tuple(
        replace(u, kept=any(find_target(t, english) for t in {u.target, u.english})) for u in uses
    )


# ------------------------------------------------------------------------ files


def is_header(german: str, english: str) -> bool:
    """Whether a first row is the columns' titles („Deutsch“, "English"), not a term."""
    titles = column_titles()
    return german.strip().casefold() in titles and english.strip().casefold() in titles


# Quotation marks a term may be written in, opening and closing: German („…“, ‚…‘,
# »…«), English (“…”, ‘…’) and French («…»). Kept, the term was never found.
_QUOTES = {"„": "“”", "‚": "‘’", "»": "«", "«": "»", "“": "”", "‘": "’"}


def _unquoted(field: str) -> str:
    """A field as a spreadsheet's CSV/TSV export quotes it ("Zauberpfanne", with "" for a
    quote inside), or in a language's quotation marks („Spülmaschine“, “dish washer”),
    without its quotes: kept, the term was never found (issue 65 §5, issue 86 §4). A
    quotation inside the term („Die „Zeit“ lesen“ aside) stays."""
    if len(field) >= 2 and field[0] == field[-1] == '"':
        return field[1:-1].replace('""', '"').strip()
    inner = field[1:-1]
    paired = len(field) >= 2 and field[-1] in _QUOTES.get(field[0], "")
    if paired and not any(q in inner for q in (field[0], field[-1])):  # one, whole
        return inner.strip()
    return field


def parse_glossary(text: str, where: str | Path = "glossary") -> Glossary:
    """A glossary from TSV text; a bad line is a :class:`DataError` naming it. A first
    row of column titles („Deutsch<TAB>Englisch“) is skipped."""
    terms, seen = [], {}
    first = True
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t")
        if first and len(parts) == 2 and is_header(*parts):
            first = False
            continue
        first = False
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            raise DataError(where, number, "needs a German term, a tab and its English")
        de, en = _unquoted(parts[0].strip()), _unquoted(parts[1].strip())
        if max(len(de), len(en)) > MAX_TERM_CHARS:
            raise DataError(where, number, f"a term is longer than {MAX_TERM_CHARS} characters")
        if len(de.split()) > MAX_TERM_WORDS:
            raise DataError(where, number, f"a German term of more than {MAX_TERM_WORDS} words")
        if any(m in de or m in en for m in MARKERS):
            raise DataError(where, number, "a term holds a marker the model reserves")
        if "\x00" in line:
            raise DataError(where, number, "holds a NUL byte (binary data, not a term)")
        if de.casefold() in seen:
            raise DataError(
                where, number, f"{de!r} is already on line {seen[de.casefold()]}; keep one"
            )
        seen[de.casefold()] = number
        terms.append(Term(de, en))
        if len(terms) > MAX_TERMS:
            raise DataError(where, number, f"more than {MAX_TERMS} terms")
    return Glossary(tuple(terms))


def read_glossary(path: str | Path) -> Glossary:
    path = Path(path)
    if path.exists() and not path.is_file():
        # A FIFO or a device would be read forever (issue 64 §6).
        raise DataError(path, None, "is not a regular file (a folder, pipe or device)")
    limit = MAX_TERMS * 2 * (MAX_TERM_CHARS + 2) * 4
    try:
        # Bounded: a huge file is refused after reading one byte past the limit, not
        # read whole first (stat alone can be fooled by a growing file or a device).
        with open(path, "rb") as f:
            raw = f.read(limit + 1)
    except OSError as e:
        raise DataError(path, None, f"cannot be read ({e.strerror or e})") from None
    if len(raw) > limit:
        raise DataError(
            path, None, f"is larger than {limit // (1024 * 1024)} MB: too large for a glossary"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DataError(path, None, f"is not UTF-8 text (byte {e.start})") from None
    return parse_glossary(text, path)


def glossary_text(glossary: Glossary) -> str:
    rows = sorted(glossary.terms, key=lambda t: t.source.casefold())
    return "".join(f"{t.source}\t{t.target}\n" for t in rows)


def write_glossary(path: str | Path, glossary: Glossary) -> None:
    write_atomic(Path(path), glossary_text(glossary))
