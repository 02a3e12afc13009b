"""The passes a translation may take to keep its facts (issue 30): which sentences are
decoded again, and how (annotated, or with placeholders for lost names and places).

``decode(texts, prefixes, protect)`` is the translator's one decode of a list of
sentences (``protect``: with the facts annotated); these functions decide what to decode
again and which result to keep, using the counts of faithful_choice.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from translator_app.core.engine.faithful_choice import facts_lost, n_lost, prefer_faithful
from translator_app.core.engine.translation import Translation
from translator_app.core.faithful.glossary import Glossary, check_uses
from translator_app.core.faithful.placeholders import restore_candidate, restore_source, substitute
from translator_app.core.faithful.protect import entity_uses, is_place, merge_uses

Decode = Callable[[list[str], Sequence[Sequence[int]] | None, bool], list[Translation]]

# Decodes with placeholders at most, for a sentence that lost a name or place (each one
# more decode of that sentence only).
PLACEHOLDER_TRIES = 2


def some_of(prefixes, indices: list[int]):
    return [prefixes[i] for i in indices] if prefixes else None


def retry_lost_facts(
    texts: list[str], prefixes, decode: Decode, annotate_first: bool
) -> list[Translation]:
    """ "retry": decode plain, and where that loses or doubles a number, time or date, a
    name, a place or a currency (core/faithful/protect.py), decode those sentences with
    the facts annotated too and keep whichever loses fewer: the annotations cost fluency
    where the plain decode is already faithful (newstest2014: "A 37-year-old Pkw-old
    Pkw-old" for „ein 37-jähriger Pkw-Fahrer“). "always" (``annotate_first``): the other
    way round („kostet 30 Euro“ annotated gave "costs 30€30")."""
    out = decode(texts, prefixes, annotate_first)
    lost = [facts_lost(t) for t in out]
    retry = [i for i, (n, _) in enumerate(lost) if n]
    if retry:
        again = decode([texts[i] for i in retry], some_of(prefixes, retry), not annotate_first)
        for i, t in zip(retry, again, strict=True):
            if facts_lost(t) < lost[i]:
                out[i] = t
    return out


def with_placeholders(
    texts: list[str], out: list[Translation], prefixes, decode: Decode, glossary: Glossary | None
) -> list[Translation]:
    """Where the best candidate lost a protected name or place, decode once more with
    each lost one replaced by a name the model always copies, and keep that where it
    loses less (core/faithful/placeholders.py). Where the model garbled that placeholder
    too (annotated beside a place, „Frau Tom ... nach München“ gave "Mrs Munich"), try
    the next one."""
    for attempt in range(PLACEHOLDER_TRIES):
        todo = []  # (index, the glossary's terms, those and the entities, lost ones)
        for i, t in enumerate(out):
            if not t.nbest:
                continue
            terms = glossary.find(t.source) if glossary else []
            checked = merge_uses(terms, entity_uses(t.source))
            entities = [u for u in checked if u not in terms]
            lost = [u for u in check_uses(entities, t.text) if not u.kept]
            if lost:
                todo.append((i, terms, checked, lost))
        if not todo:
            return out
        subs = [
            substitute(texts[i], lost, [is_place(u) for u in lost], skip=attempt)
            for i, *_, lost in todo
        ]
        again = decode([text for text, _ in subs], some_of(prefixes, [i for i, *_ in todo]), True)
        for (i, terms, checked, _), (_, edits), t in zip(todo, subs, again, strict=True):
            out[i] = _better_of(out[i], t, edits, terms, checked)
    return out


def _better_of(old: Translation, new: Translation, edits, terms, checked) -> Translation:
    """``new`` (decoded with placeholders, written back with ``edits``) where its best
    candidate loses fewer of ``checked`` than ``old``'s, else ``old``."""
    cands = tuple(restore_candidate(c, edits) for c in new.nbest)
    cands, missing = prefer_faithful(old.source, cands, checked)
    if not cands or n_lost(old.source, cands[0], checked) >= n_lost(
        old.source, old.nbest[0], checked
    ):
        return old
    return Translation(
        source=old.source,
        source_ids=new.source_ids,
        source_pieces=new.source_pieces,
        source_spans=restore_source(new.source_spans, edits),
        nbest=cands,
        missing_numbers=missing,
        terms=check_uses(terms, cands[0].text),
    )
