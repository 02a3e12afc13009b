"""Ding dictionary entries as natural German/English training pairs (issue 46).

The Ding file (``de-en.ding-1.9.txt.xz``) holds one entry a line::

    Grüße {pl} (in Schlussformeln) | mit freundlichen Grüßen /MfG/ [adm.] :: regards | Yours sincerely [Br.]; Sincerely yours [Am.]

``|`` separates sub-entries (the same count on both sides, in order), ``;`` synonyms. A
sub-entry becomes a pair when it reads as text a person writes:

- grammar and register marks go: ``{f}``, ``{pl}``, ``{vt}``, ``[Br.]``, ``[ugs.]``,
  ``<spelling variants>``, ``/abbreviations/`` and ``(explanations)``;
- placeholders of dictionary form (jdn./etw./sb./sth. …) make it no sentence: dropped;
- ``cheque/check`` keeps its first alternative; a spaced `` / `` (whole alternatives) is
  dropped;
- a German infinitive phrase's English loses its leading "to " ("einen Scheck ausstellen"
  is written as a request or a heading far more often than as "to issue a cheque");
- entries from specialist fields (birds, chemistry, engineering …) are left out: the
  register the app needs is letters, forms and shops, not a taxonomy.

Phrases and sentences (``min_words`` German words or more) are kept whole; single words
only when they are long nouns (compounds such as "Bürostuhl"), which is what they serve.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

# Subject tags of fields whose vocabulary an everyday user does not write. Untagged
# entries and the register of letters, forms, offices and shops ([adm.], [econ.], [fin.],
# [comp.], [school], [transp.], [ugs.] …) stay.
SPECIALIST_TAGS = frozenset(
    [
        "ornith.",
        "zool.",
        "bot.",
        "chem.",
        "biochem.",
        "biol.",
        "geol.",
        "min.",
        "astron.",
        "anat.",
        "med.",
        "pharm.",
        "techn.",
        "electr.",
        "mach.",
        "constr.",
        "phys.",
        "math.",
        "statist.",
        "aviat.",
        "naut.",
        "mil.",
        "agr.",
        "mining.",
        "textil.",
        "photo.",
        "print.",
        "telco.",
        "geogr.",
        "hist.",
        "relig.",
        "ling.",
        "lit.",
        "mus.",
        "archaeo.",
        "meteo.",
        "ecol.",
        "envir.",
        "hunting.",
        "fishery.",
        "art.",
        "arch.",
        "psych.",
        "philos.",
        "micro.",
        "gen.",
        "palaeo.",
        "myc.",
        "ichth.",
        "entomol.",
        "herald.",
        "pej.",
        "vulg.",
        "slang.",
        "obs.",
        "archaic",
        "poet.",
        "veraltet",
        "selten",
        "rare",
    ]
)
_GERMAN_PLACEHOLDERS = re.compile(r"\b(?:jd[nmsr]?|etw|jds)\.")
_ENGLISH_PLACEHOLDERS = re.compile(r"\b(?:sb|sth|sb's|sth's)\b\.?|\bone's\b|\boneself\b")
_MARKS = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]|<[^<>]*>")
_PARENS = re.compile(r"\([^()]*\)")
_ABBREV = re.compile(r"(?:^|\s)/[^/\s][^/]*?/(?=\s|$|[.,;!?])")
# "cheque/check": the first of two whole words; "Strichkode/Strichcode-Leser" is left
# with its slash (the hyphenated part belongs to both) and so dropped.
_WORD_ALTERNATIVE = re.compile(r"\b([\w'’]+)/[\w'’]+\b(?!-)")
_TAG = re.compile(r"\[([^\[\]]+)\]")
_SPACES = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")


def _tags(text: str) -> set[str]:
    return {t.strip() for m in _TAG.finditer(text) for t in m.group(1).split(";")}


def clean_side(text: str) -> str:
    """One synonym without marks, abbreviations or explanations, spaces normalised."""
    text = _MARKS.sub(" ", text)
    while True:  # nested parentheses: innermost first
        stripped = _PARENS.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    text = _ABBREV.sub(" ", text)
    text = _WORD_ALTERNATIVE.sub(r"\1", text)
    text = _SPACES.sub(" ", text).strip()
    return re.sub(r"\s+([,.;:!?])", r"\1", text)


def _usable(de: str, en: str) -> bool:
    if not de or not en or "/" in de or "/" in en or "(" in de + en or ")" in de + en:
        return False
    if _GERMAN_PLACEHOLDERS.search(de) or _ENGLISH_PLACEHOLDERS.search(en):
        return False
    if "~" in de + en or "…" in de + en or "..." in de + en:
        return False
    return bool(_LETTER.search(de) and _LETTER.search(en))


def _english_for(de: str, en: str) -> str:
    """An infinitive phrase's English without "to ": "issue a blank cheque"."""
    if en.startswith("to ") and de[:1].islower() and de.split()[-1].islower():
        return en[3:]
    return en


def _is_participle(de: str, en: str) -> bool:
    """A verb entry's participle sub-entry ("braun machend", "embrowning"): no text."""
    words = de.split()
    return len(words) <= 3 and words[-1].endswith("end") and en.split()[-1].endswith("ing")


def _is_compound_noun(raw_sub_entry: str, de: str) -> bool:
    noun = any(mark in raw_sub_entry for mark in ("{f}", "{m}", "{n}", "{pl}"))
    return noun and " " not in de and de[:1].isupper() and len(de) >= 9


def _synonyms(sub_entry: str) -> list[str]:
    """The cleaned synonyms of a sub-entry (marks and parentheses, which may hold a ";"
    themselves, removed first)."""
    return [s.strip() for s in clean_side(sub_entry).split(";") if s.strip()]


def entry_pairs(line: str, min_words: int = 2) -> Iterator[tuple[str, str]]:
    """The pairs one Ding line gives (none for comments, specialist or placeholder entries)."""
    if line.startswith("#") or " :: " not in line:
        return
    de_side, en_side = line.rstrip("\n").split(" :: ", 1)
    if _tags(de_side + en_side) & SPECIALIST_TAGS:
        return
    de_subs, en_subs = de_side.split(" | "), en_side.split(" | ")
    if len(de_subs) != len(en_subs):
        return
    for de_sub, en_sub in zip(de_subs, en_subs, strict=True):
        de_syns, en_syns = _synonyms(de_sub), _synonyms(en_sub)
        if not de_syns or not en_syns:
            continue
        # Positional pairing where both sides list as many synonyms; else each German
        # synonym with the first (most common) English one.
        positional = len(de_syns) == len(en_syns)
        for i, de in enumerate(de_syns):
            en = en_syns[i] if positional else en_syns[0]
            if not _usable(de, en) or _is_participle(de, en):
                continue
            if len(de.split()) >= min_words or _is_compound_noun(de_sub, de):
                yield de, _english_for(de, en)


def ding_pairs(lines: Iterable[str], min_words: int = 2) -> Iterator[tuple[str, str]]:
    """Every pair of every line, each distinct pair once, in file order."""
    seen: set[tuple[str, str]] = set()
    for line in lines:
        for pair in entry_pairs(line, min_words):
            if pair not in seen:
                seen.add(pair)
                yield pair
