"""The steps that keep a translation's facts (issue 30): "facts" decodes again, annotated,
the sentences whose decode lost a number, date, name or place; "placeholders" decodes
again with a lost name, place or address replaced by one the model always copies.

Both decode through ``request.decode`` (request.py) and keep a new translation only
where the judge counts fewer losses (judge.py). The decodes of the other steps start
the way the translation they may replace was decoded (:func:`decoded_keeping_facts`).
"""

from __future__ import annotations

from collections.abc import Sequence

from translator_app.core.engine.respell import respelled
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.glossary import Glossary, check_uses
from translator_app.core.faithful.placeholders import (
    placeholders_in,
    restore_candidate,
    restore_source,
    substitute,
)
from translator_app.core.faithful.protect import (
    entity_uses,
    is_place,
    merge_uses,
    protected_uses,
)
from translator_app.core.postedit import judge
from translator_app.core.postedit.request import PostEditRequest
from translator_app.core.text.tokenizer import Tokenizer

# Decodes with placeholders at most, for a sentence that lost a name or place (each one
# more decode of that sentence only).
PLACEHOLDER_TRIES = 2


# The most sentences of a request whose annotated decode runs beside the plain one: what
# the window asks for (the sentences typed or changed). A document's batches are left to
# the retry, which decodes only the sentences that lost a fact: a second decode of every
# sentence would halve a long document's pace.
BESIDE_AT_MOST = 8


def first_decode(request: PostEditRequest) -> list[Translation]:
    """The request's sentences decoded once with its glossary, their facts annotated
    where the model's bundle asks for that always (``protect`` "always"). Where it asks
    for them only in a retry (``protect`` "retry") and the engine can decode two at once,
    the annotated decode runs beside the plain one, for the step "facts" to take where
    the plain one lost a fact (its retry then costs no wait)."""
    texts, prefixes, glossary = list(request.texts), request.prefixes, request.glossary
    if (
        request.protect == "retry"
        and request.workers > 1
        and len(texts) <= BESIDE_AT_MOST
        and any(map(protected_uses, texts))
    ):
        return request.decode_both_ways(texts, prefixes, glossary)[0]
    return request.decode_once(texts, prefixes, request.protect == "always", glossary)


def retry_lost_facts(request: PostEditRequest, out: list[Translation]) -> list[Translation]:
    """The step "facts": where a translation of :func:`first_decode` loses or doubles a
    number, time or date, a name, a place or a currency (core/faithful/protect.py), that
    sentence decoded again the other way (annotated after a plain decode, plain after an
    annotated one), kept where it loses fewer: the annotations cost fluency where the
    plain decode is already faithful (newstest2014: "A 37-year-old Pkw-old Pkw-old" for
    „ein 37-jähriger Pkw-Fahrer“), and „kostet 30 Euro“ annotated gave "costs 30€30"."""
    annotate = [request.protect == "always"] * len(out)
    return _retried(request, list(request.texts), out, request.prefixes, request.glossary, annotate)


def decoded_keeping_facts(
    request: PostEditRequest,
    texts: list[str],
    prefixes,
    glossary: Glossary | None,
    like: Sequence[Translation],
) -> list[Translation]:
    """``texts`` decoded with ``glossary`` (another step's terms), each first the way
    the translation it may replace (``like``, one each) was decoded (its facts annotated
    where that one's were: a sentence that lost a fact in a plain decode loses it again
    in the next), then retried the other way where it loses facts, as
    :func:`retry_lost_facts` does."""
    if request.protect == "off":
        return request.decode(texts, prefixes, False, glossary)
    annotate = [request.protect == "always" or t.facts_annotated for t in like]
    out = _decoded(request, texts, prefixes, glossary, annotate)
    return _retried(request, texts, out, prefixes, glossary, annotate, like)


def _decoded(request, texts, prefixes, glossary, annotate: list[bool]) -> list[Translation]:
    """``texts`` decoded, each with its facts annotated where ``annotate`` says (one
    decode for each way asked)."""
    out: list[Translation | None] = [None] * len(texts)
    for way in (False, True):
        indices = [i for i, a in enumerate(annotate) if a == way]
        if indices:
            given = [prefixes[i] for i in indices] if prefixes else None
            again = request.decode_once([texts[i] for i in indices], given, way, glossary)
            for i, t in zip(indices, again, strict=True):
                out[i] = t
    return out


def _retried(
    request, texts, out, prefixes, glossary, annotate: list[bool], like=None
) -> list[Translation]:
    """``out`` (``texts`` decoded, annotated where ``annotate`` says) with the sentences
    that lose facts decoded the other way, each kept where it loses fewer. With ``like``
    (the translations they may replace), only those that lose more than theirs: one
    that loses as many is kept or not on its words, and the other way had lost as many
    before (newstest2013, everyday-dev: the same English, fewer decodes)."""
    out = list(out)
    retry = [i for i, t in enumerate(out) if judge.facts_lost(t)[0]]
    if like is not None:
        retry = [i for i in retry if judge.facts_lost(out[i]) > judge.facts_lost(like[i])]
    if retry:
        again = _decoded(
            request,
            [texts[i] for i in retry],
            [prefixes[i] for i in retry] if prefixes else None,
            glossary,
            [not annotate[i] for i in retry],
        )
        for i, t in zip(retry, again, strict=True):
            if judge.fewer_facts_lost(t, out[i]):
                out[i] = t
    return out


def with_placeholders(request: PostEditRequest, out: list[Translation]) -> list[Translation]:
    """The step "placeholders": where the best candidate lost a protected name or place,
    decode once more with each lost one replaced by a name the model always copies, and
    keep that where it loses less (core/faithful/placeholders.py). Where the model
    garbled that placeholder too (annotated beside a place, „Frau Tom ... nach München“
    gave "Mrs Munich"), try the next one."""
    out, texts, glossary = list(out), request.texts, request.glossary
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
        again = request.decode(
            [text for text, _ in subs],
            request.some_prefixes([i for i, *_ in todo]),
            True,
            glossary,
        )
        for (i, terms, checked, _), (_, edits), t in zip(todo, subs, again, strict=True):
            out[i] = _written_back(request.tokenizer, out[i], t, edits, terms, checked)
    return out


def restored(tokenizer: Tokenizer, cand: Candidate, edits) -> Candidate:
    """``cand`` (decoded with placeholders) with the real names written where the
    placeholders came out, respelled in its pieces and ids so that they spell its text
    (engine/respell.py); where one cannot be (a placeholder inside a word), in its text
    and spans alone (faithful/placeholders.py)."""
    done = cand
    for start, end, english in reversed(placeholders_in(cand.text, edits)):
        new = respelled(tokenizer, done, start, end, english)
        if new is done:
            return restore_candidate(cand, edits)
        done = new
    return done


def _written_back(
    tokenizer: Tokenizer, old: Translation, new: Translation, edits, terms, checked
) -> Translation:
    """``new`` (decoded with placeholders, written back with ``edits``, its candidates
    ordered by the judge) where the judge keeps it over ``old``
    (judge.loses_fewer_of), else ``old``."""
    cands = tuple(restored(tokenizer, c, edits) for c in new.nbest)
    cands, missing = judge.prefer_faithful(old.source, cands, checked)
    if not cands or not judge.loses_fewer_of(old.source, cands[0], old.nbest[0], checked):
        return old
    return Translation(
        source=old.source,
        source_ids=new.source_ids,
        source_pieces=new.source_pieces,
        source_spans=restore_source(new.source_spans, edits),
        nbest=cands,
        issues=missing,
        terms=check_uses(terms, cands[0].text),
        facts_annotated=True,
    )
