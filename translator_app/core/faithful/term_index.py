"""Finding a glossary's terms in a sentence at a cost that does not grow with the product
of terms and text (issue 64 §6): 10,000 terms made of long runs of one short word ("a a a
… x0") took 25 s for 5 paragraphs when every term's pattern scanned every sentence.

The terms' words, reduced to a key that every inflected form of the word shares
(case-folded, umlauts as their base vowel, a German ending removed), form a trie. From
each word of the text the trie is walked along the following words; only the terms whose
words all match by key are then checked with their exact pattern, at that one position.
A walk is at most as deep as the longest term (MAX_TERM_WORDS).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from translator_app.core.language.words import german_words

# The endings a term's word may take (german-words.tsv, term-ending), longest first.
ENDINGS = tuple(sorted(german_words("term-ending"), key=len, reverse=True))
MAX_TERM_WORDS = 24
_UMLAUT = str.maketrans({"ä": "a", "ö": "o", "ü": "u"})
_TOKEN = re.compile(r"\S+")
_EDGE = re.compile(r"^[^\w-]+|[^\w-]+$")
_LEAD = re.compile(r"^[^\w-]*")


def word_key(word: str) -> str:
    """What all written forms of a German word share: „Verträge“ (composed or not),
    „Vertrag“ and „VERTRAGES“ all give "vertrag" (a few unrelated words share keys too; the exact
    pattern decides)."""
    return _EDGE.sub("", unicodedata.normalize("NFC", word)).casefold().translate(_UMLAUT)


def token_keys(token: str) -> set[str]:
    """The keys a token of the text may stand for: as written, and without each ending
    it has."""
    key = word_key(token)
    keys = {key}
    for ending in ENDINGS:
        if key.endswith(ending) and len(key) > len(ending):
            keys.add(key[: -len(ending)])
    return keys


@dataclass
class _Node:
    children: dict[str, _Node] = field(default_factory=dict)
    terms: list[int] = field(default_factory=list)  # terms whose last word ends here


class TermIndex:
    """A trie over the terms' word keys; :meth:`candidates` lists (term number, start)."""

    def __init__(self, sources: Sequence[str]) -> None:
        self.root = _Node()
        for number, source in enumerate(sources):
            node = self.root
            for word in source.split()[:MAX_TERM_WORDS]:
                node = node.children.setdefault(word_key(word), _Node())
            node.terms.append(number)

    def candidates(self, text: str) -> list[tuple[int, int]]:
        """(term number, character offset) of every place where a term's words may begin
        a match, in order of position."""
        tokens = [
            (m.start() + _LEAD.match(m.group()).end(), token_keys(m.group()))
            for m in _TOKEN.finditer(text)
        ]
        found = []
        for i, (start, _) in enumerate(tokens):
            frontier = [self.root]
            for _, keys in tokens[i : i + MAX_TERM_WORDS]:
                frontier = [n.children[k] for n in frontier for k in keys if k in n.children]
                if not frontier:
                    break
                found += [(t, start) for n in frontier for t in n.terms]
        return found
