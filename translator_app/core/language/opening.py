"""Whether a place is open or closed, read by the German verb bracket: text -> states.

German says a shop's state with a finite verb early and its particle or participle at the
clause's end: „Die Apotheke hat heute zu.“ (closed), „hat samstags bis 14 Uhr geöffnet“,
„Der Laden hat sonntags auf.“, „Das Fenster ist zu.“. English says it with "closed",
"shut", "open". The state is a fact: an English that says neither ("The pharmacy is to be
today.") or the other has lost it.

Read as grammar, not as a list of sentences:
- a finite form of haben, sein or bleiben (not werden: „wird geschlossen“ is also a
  contract concluded), then the middle field inside one clause, then „zu“ (haben, sein),
  „auf“ (haben only: „Er ist noch auf“ is awake) or „geschlossen“ or „geöffnet“ at the
  clause's end (a punctuation mark
  or the text's end follows: „hat nichts zu verlieren“ is not a state);
- the middle field holds no object: a determiner there („hat einen Hut auf“: wears a hat)
  only after a preposition („über die Feiertage“). „offen“ is left out: „Die Rechnung ist
  noch offen“ is unpaid.

>>> german_states("Die Apotheke hat heute zu.")
[(23, 25, 'closed')]
>>> sorted(english_states("The pharmacy is closed today, the bakery isn't open."))
['closed']
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

from translator_app.core.language.words import (
    frequencies,
    german_function_words,
    relative_days,
    weekdays,
)

_FINITE = {
    "haben": "hat|haben|habe|hast|habt|hatte|hatten|hattest",
    "sein": "ist|sind|bin|bist|seid|war|waren|warst|sei|bleibt|bleiben|bleibe|blieb|blieben",
}
_SEIN = frozenset(_FINITE["sein"].split("|"))
_PARTICLES = {"zu": "closed", "auf": "open", "geschlossen": "closed", "geöffnet": "open"}
_CLAUSE_END = r"(?=\s*(?:\.(?!\.)|[!?;,:)\]»“\"]|$))"  # not „Sie sind zu...“
# Words that end a middle field: a conjunction starts another clause.
_NEW_CLAUSE = r"(?:und|oder|aber|denn|weil|dass|wenn|als|ob|sondern)"


@cache
def _german() -> re.Pattern:
    verbs = "|".join(_FINITE.values())
    return re.compile(
        rf"(?<![\w-])(?P<verb>{verbs})(?![\w-])"
        r"(?P<middle>(?:\s+[^\s.!?;:,„“\"»«]+){0,6}?)"
        rf"\s+(?P<particle>{'|'.join(_PARTICLES)}){_CLAUSE_END}",
        re.IGNORECASE,
    )


@cache
def _determiners() -> frozenset[str]:
    return german_function_words("article", "possessive", "demonstrative")


@cache
def _before_zu() -> frozenset[str]:
    """Lower-case words that may stand before a state's „zu“ after sein: particles („noch
    zu“), days said from today („heute zu“), how often („sonntags zu“), „leider“."""
    said = {de.lower() for de, _ in relative_days() + frequencies()}
    days = {f"{de.lower()}s" for de, _ in weekdays()}
    return german_function_words("particle") | said | days | {"leider", "wieder", "bereits"}


@cache
def _pronouns() -> frozenset[str]:
    return german_function_words("pronoun")


@cache
def _prepositions() -> frozenset[str]:
    return german_function_words("preposition", "fused")


def _has_object(middle: list[str]) -> bool:
    """Whether the middle field holds a noun phrase no preposition governs (an object, or
    a subject after the verb): a determiner or a noun (a capitalised word) that does not
    follow a preposition, or the determiner, adjective or number after one. „hat einen
    Hut auf“, „hatten Kopfhörer auf“: yes; „hat am Sonntag zu“, „ist über die Feiertage
    geschlossen“, „hat bis 14 Uhr geöffnet“: no."""
    governed = False
    for word in middle:
        low = word.lower()
        if low in _prepositions():
            governed = True
        elif low in _determiners() or word[:1].isupper():
            if not governed:
                return True
            governed = low in _determiners()  # a noun ends the phrase, an article goes on
    return False


def german_states(text: str) -> list[tuple[int, int, str]]:
    """(start, end, "open" or "closed") of each state the German says, the span of its
    particle or participle (a fact inside the bracket, „dienstagvormittags“, stays a fact of
    its own): „Die Apotheke hat heute zu.“ -> [(23, 25, "closed")]."""
    out = []
    for m in _german().finditer(text):
        particle = m["particle"].lower()
        verb = m["verb"].lower()
        middle = m["middle"].split()
        if _has_object(middle) or any(w.lower() in _pronouns() for w in middle):
            continue  # „hast du … geschlossen“: a person's deal; „Hatten wir was auf?“
        if any(re.fullmatch(_NEW_CLAUSE, w, re.IGNORECASE) for w in middle):
            continue
        if particle == "zu" and verb in _SEIN and middle:
            last = middle[-1]
            if last[:1].islower() and not last.isdigit() and last.lower() not in _before_zu():
                continue  # „ist parallel zu“: an adjective's „zu“, not a door's
        if particle == "auf" and verb in _SEIN:
            continue  # „Er ist noch auf“, „bleibt auf“: awake; a door is „offen“ or „geöffnet“
        state = _PARTICLES[particle]
        if any(w.lower() in ("nicht", "nie", "niemals") for w in middle):
            state = "closed" if state == "open" else "open"  # „hat nicht geöffnet“: closed
        out.append((m.start("particle"), m.end("particle"), state))
    return out


_EN_NOT = re.compile(r"(?:\bnot|n['’]t|\bnever)\s+(?:\w+\s+)?$", re.IGNORECASE)
_EN_STATE = re.compile(r"\b(?:(closed|shut|closes|locked)|(open(?:s|ed)?))\b", re.IGNORECASE)


def english_states(text: str) -> Counter:
    """How often an English text says "closed" (closed, shut, locked, not open) and
    "open" (open, opens, not closed)."""
    out: Counter = Counter()
    for m in _EN_STATE.finditer(text):
        state = "closed" if m.group(1) else "open"
        if _EN_NOT.search(text, 0, m.start()):
            state = "open" if state == "closed" else "closed"
        out[state] += 1
    return out
