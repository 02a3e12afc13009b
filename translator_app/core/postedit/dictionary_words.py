"""The steps that say words the model does not know with the dictionary's English (issue
60): "openers", "dictionary-terms" and "measures" (pipeline.py), and which sentences
each decodes again with dictionary terms; the judge keeps a new decode or not
(judge.py: says_words_better, fewer_wrong_words, mends_measures).

The model copies a German word it cannot translate („Den Teig …“ -> "The Teig …"),
leaves it out („250 Gramm Mehl“ -> "250 grams", where a lower candidate of the n-best
writes "250 Gramm Mehl"), garbles it ("breaddose": core/faithful/garbled_words.py) or
guesses a long noun's English ("bike squad": core/faithful/unsaid_nouns.py). For a word
that reads as a common word (core/faithful/copied_words.py) the dictionary's English is
annotated as a term and the sentence decoded once more; the new translation is kept
where it renders more of those words (or all of them, copying fewer), copies no more,
loses no more facts, and, where it copies no fewer, says more of the source's words in
a sense of the dictionary.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from translator_app.core.engine.translation import Translation
from translator_app.core.faithful.copied_words import (
    dictionary_terms,
    heading_term,
    openers_lowered,
)
from translator_app.core.faithful.garbled_words import garbled_by_attention
from translator_app.core.faithful.glossary import (
    Glossary,
    Term,
    check_uses,
    merged,
)
from translator_app.core.faithful.number_words import (
    english_bare_measures,
    german_counted_nouns,
    measure_mends,
)
from translator_app.core.faithful.senses import says_a_fit_english
from translator_app.core.faithful.umlauts import spelled_as_german
from translator_app.core.postedit import judge
from translator_app.core.postedit.facts import decoded_keeping_facts
from translator_app.core.postedit.judge import Copies, WordChecks
from translator_app.core.postedit.request import PostEditRequest
from translator_app.core.text.tokenizer import PIECE_MARK

# A word another candidate copies counts where that candidate scores within this of the
# best (a length-normalised log-probability): the model hesitated between leaving the
# word out and copying it („250 Gramm Mehl“: "250 grams" at -1.12, "250 Gramm Mehl" at
# -1.20). The alignment's attention cannot tell: the best's still rests on „Mehl“.
HESITATION = 0.5


def _words(request: PostEditRequest) -> WordChecks:
    """The judge's checks of words by the request's dictionary, with the names of all
    its sentences."""
    return WordChecks(request.dictionary, request.names)


def with_dictionary_terms(request: PostEditRequest, out: list[Translation]) -> list[Translation]:
    """The step "dictionary-terms": decode again, with the dictionary's English as terms
    under the user's glossary, each sentence whose best candidate copies a common German
    word (or garbles it, or says a long noun in none of its senses) or leaves out one
    that a close candidate copies (:func:`unknown_words`); keep the new translation
    where the judge says it says them better (judge.says_words_better). A sentence that still copies a word it was asked to say is
    decoded once more with the word forced in its place (sentences whose beginning the
    caller forced are left to that first try)."""
    words = _words(request)
    todo = [(i, unknown_words(words.dictionary, t, words.names)) for i, t in enumerate(out)]
    todo = [(i, terms) for i, terms in todo if terms and out[i].nbest]
    if not todo:
        return out
    out = _with_terms(request, list(out), dict(todo), request.prefixes, words)
    if not request.prefixes:
        out = _with_words_forced(request, out, todo, words)
    return out


def with_measures_mended(request: PostEditRequest, out: list[Translation]) -> list[Translation]:
    """The step "measures": ``out`` decoded once more where its English writes a measure
    after a number as English does not (number_words.measure_mends: "Put 200 gram
    sugar" under the dictionary's term, "two kilo apples"): the words before the measure
    kept, the measure forced as English writes it ("200 grams of"), and the model goes
    on from there. Kept where it mends the measure and loses, copies or garbles nothing
    more and uses its terms no less; decoded with the terms the translation used."""
    if request.prefixes:
        return out
    out, words = list(out), _words(request)
    for i, t in enumerate(out):
        mends = measure_mends(t.text) if t.nbest else []
        k = _word_piece(t.nbest[0], mends[0][0]) if mends else None
        if k is None:
            continue
        prefix = tuple(t.nbest[0].target_ids[:k]) + request.encode(mends[0][2])
        used = tuple(Term(u.source, u.target, kind="dictionary") for u in t.terms if u.dictionary)
        terms = merged(Glossary(used), request.glossary) if used else request.glossary
        (again,) = decoded_keeping_facts(request, [request.texts[i]], [prefix], terms, [t])
        again = judge.rechosen(again, words.copies)
        if judge.mends_measures(again, t, words):
            out[i] = again
    return out


def with_openers_lowered(request: PostEditRequest, out: list[Translation]) -> list[Translation]:
    """The step "openers": ``out`` decoded once more where it copies or garbles a word
    that opens the sentence or a quotation and that German writes in lower case inside
    one, with that word in lower case (copied_words.openers_lowered: „Aktuell ist der
    Verkehr …“ copied 'Aktuell', „Bohren Sie …“ garbled 'Bohrently'); the new
    translation is kept where it copies and garbles fewer words and loses no more
    facts. It holds the user's text as its source: only a letter's case differs, the
    offsets hold. Its English may begin in lower case, as the German it was given did:
    the step "first-capital" gives it its capital."""
    words = _words(request)
    lowered = {}
    for i, t in enumerate(out):
        if t.nbest and not request.prefixed(i) and (wrong := words.wrong(t)):
            text = openers_lowered(words.dictionary, t.source, wrong, words.names)
            if text is not None:
                lowered[i] = text
    if not lowered:
        return out
    out, indices = list(out), list(lowered)
    again = decoded_keeping_facts(
        request, [lowered[i] for i in indices], None, request.glossary, [out[i] for i in indices]
    )
    for i, t in zip(indices, again, strict=True):
        t = judge.rechosen(replace(t, source=out[i].source), words.copies)
        if judge.fewer_wrong_words(t, out[i], words):
            out[i] = t
    return out


def _with_words_forced(request: PostEditRequest, out, todo, words: WordChecks):
    """``out`` decoded once more where the annotated decode still copied a word it was
    asked to say: its English is forced in place of the copy, the words before it kept,
    and the model goes on from there („Polen wurde … aufgenommen“: "Last week, Poland
    …"), as Luong et al. (2015) put the dictionary's word in the unknown word's place,
    the model saying the rest around it."""
    wanted, prefixes = {}, {}
    for i, terms in todo:
        prefix = _prefix_saying(out[i], terms, words.copies, request.encode)
        if prefix is not None:
            wanted[i], prefixes[i] = terms, prefix
    return _with_terms(request, out, wanted, prefixes, words)


def _with_terms(request: PostEditRequest, out, wanted, prefixes, words: WordChecks):
    """``out`` with each sentence ``i`` of ``wanted`` decoded again with its terms (in
    the batches of :func:`term_batches`), ``prefixes[i]`` forced where given, and the new
    translation kept where the judge says it says them better (judge.says_words_better)."""
    texts = list(request.texts)
    for terms_given, indices in term_batches(texts, wanted, request.glossary):
        given = [prefixes[i] for i in indices] if prefixes else None
        again = decoded_keeping_facts(
            request, [texts[i] for i in indices], given, terms_given, [out[i] for i in indices]
        )
        for i, t in zip(indices, again, strict=True):
            t = judge.rechosen(t, words.copies)
            if t.nbest and judge.says_words_better(t, out[i], wanted[i], words):
                out[i] = t
    return out


def term_batches(
    texts: Sequence[str], wanted: dict[int, tuple[Term, ...]], glossary: Glossary | None
) -> list[tuple[Glossary, list[int]]]:
    """The decodes that give each sentence ``i`` of ``wanted`` its terms (under the
    user's ``glossary``): (the glossary to decode with, the sentences). Each sentence
    must be annotated with its own terms only, since a word's English depends on how
    its sentence reads it („in Polen“ Poland, „die Polen“ Poles). The sentences are
    decoded in one batch under all their terms where that glossary finds in each
    exactly what its own finds (a decode of one sentence at a time took most of the
    pass's time); the others, one decode per set of terms."""
    own = {terms: merged(Glossary(terms), glossary) for terms in set(wanted.values())}
    union, together = _one_batch(texts, wanted, own, glossary)
    groups: dict[tuple[Term, ...], list[int]] = {}
    for i, terms in wanted.items():
        if i not in together:
            groups.setdefault(terms, []).append(i)
    batch = [(union, together)] if union is not None else []
    return batch + [(own[terms], indices) for terms, indices in groups.items()]


def _one_batch(texts, wanted, own, glossary) -> tuple[Glossary | None, list[int]]:
    """One glossary of the terms of the sentences of ``wanted`` that it annotates as
    their ``own`` glossaries would, and those sentences (None and none where there are
    none). A word asked two ways („Polen“: Poland, Poles) leaves both sentences out."""
    englishes: dict[str, set[str]] = {}
    for terms in wanted.values():
        for term in terms:
            englishes.setdefault(term.source.casefold(), set()).add(term.target)
    together = [
        i
        for i, terms in wanted.items()
        if all(len(englishes[term.source.casefold()]) == 1 for term in terms)
    ]
    read = {i: spelled_as_german(texts[i])[0] for i in together}  # as the translator reads
    while together:
        terms = tuple(dict.fromkeys(term for i in together for term in wanted[i]))
        union = merged(Glossary(terms), glossary)
        fit = [i for i in together if union.find(read[i]) == own[wanted[i]].find(read[i])]
        if fit == together:
            return union, together
        # a term of another sentence stands in these: each gets a decode of its own terms
        # (a term that was not taken in the others stays out of theirs: they still fit)
        together = fit
    return None, []


def _prefix_saying(t: Translation, terms, copies: Copies, encode) -> tuple[int, ...] | None:
    """The target ids of ``t``'s best candidate up to its first copy of a word of
    ``terms``, then the term's English; None where it copies none of them or the copy
    does not begin a piece of its own."""
    best = t.nbest[0]
    copied = {w.casefold() for w in copies(t.source, best.text)}
    for use in Glossary(terms).find(t.source):
        if use.source.casefold() not in copied or check_uses([use], best.text)[0].kept:
            continue
        # in the German's number; its article, where the German fused one, is in the
        # pieces before the copy already
        english = replace(use, definite=False).english
        for m in re.finditer(rf"(?<![\w-]){re.escape(use.source)}(?![\w-])", best.text, re.I):
            k = _piece_at(best, m.start())
            if k is not None:
                return tuple(best.target_ids[:k]) + tuple(encode(english))
    return _prefix_after_measure(t, terms, encode)


def _prefix_after_measure(t: Translation, terms, encode) -> tuple[int, ...] | None:
    """The target ids of ``t``'s best candidate up to its one number and measure that
    no noun follows, then "of" and the English of the term a number counts in the
    German that the candidate leaves out („Geben Sie 400 Gramm Tomaten in den Topf.“:
    "Put 400 grams" + "of tomatoes", where the annotated decode still wrote "Put 400
    grams in the pan."); None where that is not so, or not once."""
    best = t.nbest[0]
    counted = german_counted_nouns(t.source)
    missing = [
        u
        for u in Glossary(terms).find(t.source)
        if u.source in counted and not check_uses([u], best.text)[0].kept
    ]
    bare = english_bare_measures(best.text)
    if len(missing) != 1 or len(bare) != 1:
        return None
    end, of = bare[0]
    english = replace(missing[0], definite=False).english
    k = next((k for k, (b, _) in enumerate(best.target_spans) if b >= end), None)
    if k is None:
        return None
    return tuple(best.target_ids[:k]) + tuple(encode(english if of else f"of {english}"))


def _word_piece(cand, offset: int) -> int | None:
    """The index of the piece of ``cand`` that begins the word at character ``offset``,
    its mark of a space included (the tokenizer may write it as a piece of its own: "▁",
    "ki", "lo" for "kilo"); None where no piece begins it so."""
    k = next((k for k, (_, end) in enumerate(cand.target_spans) if end >= offset), None)
    if k is None or not cand.target_pieces[k].startswith(PIECE_MARK):
        return None
    return k


def _piece_at(cand, offset: int) -> int | None:
    """The index of the piece of ``cand`` that begins a word at character ``offset``."""
    for k, (piece, (begin, end)) in enumerate(
        zip(cand.target_pieces, cand.target_spans, strict=False)
    ):
        if begin <= offset < end:
            starts = piece.startswith(PIECE_MARK) and cand.text[begin:offset].strip() == ""
            return k if starts else None
    return None


def unknown_words(dictionary, t: Translation, names: Collection[str] = ()) -> tuple[Term, ...]:
    """Dictionary terms for the common German words and places ``t``'s best candidate
    copies, and for those another candidate copies within :data:`HESITATION` of the
    best's score where the best does not say the dictionary's English either; ``names``:
    words that are names in the text around it. A text of one word whose English is none
    of its senses asks for the dictionary's (copied_words.heading_term). A word the
    user's glossary (or what Teach learnt) says is left to it: its English is the user's,
    in no sense of the dictionary („Wanderschuhe“: TrailRunner)."""
    best = t.nbest[0]
    garbled = garbled_by_attention(dictionary, t)
    found = dictionary_terms(dictionary, t.source, best.text, names, garbled)
    terms = {term.source: term for term in found}
    for cand in t.nbest[1:]:
        if cand.score < best.score - HESITATION:
            break  # the n-best comes best first
        for term in dictionary_terms(dictionary, t.source, cand.text, names):
            if (
                term.source not in terms
                and judge.unrendered(t, (term,))
                and not _says_a_fit_english(dictionary, term, best.text)
            ):
                terms[term.source] = term
    heading = heading_term(dictionary, t.source, best.text)  # a text of one word
    if heading is not None:
        terms.setdefault(heading.source, heading)
    users = [(u.start, u.end) for u in t.terms if not u.dictionary]
    return tuple(term for term in terms.values() if not _overlaps(t.source, term, users))


def _overlaps(source: str, term: Term, spans: list[tuple[int, int]]) -> bool:
    """Whether ``term`` stands in ``source`` where one of ``spans`` does."""
    return any(
        u.start < end and start < u.end
        for u in Glossary((term,)).find(source)
        for start, end in spans
    )


def _says_a_fit_english(dictionary, term: Term, english: str) -> bool:
    """Whether ``english`` says one of the dictionary's English for ``term``'s German
    other than the one asked („Hymne“: "hymn" where "anthem" is asked): the best
    candidate translated the word its own way, which a copy further down does not undo."""
    found = dictionary.lookup(term.source).senses
    return says_a_fit_english(found, english, noun=term.source[:1].isupper())
