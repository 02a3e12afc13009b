"""Glossary matching through an index of the terms (issue 64 §6) finds exactly what
matching every term's pattern against the whole sentence found, at a cost that does not
grow with terms times text; hostile files are refused (issue 64 §6, 65 §5)."""

from __future__ import annotations

import os
import random

import pytest

from translator_app.core.data.corpus import DataError
from translator_app.core.faithful.glossary import (
    Glossary,
    Term,
    _pattern,
    parse_glossary,
    read_glossary,
)
from translator_app.core.faithful.term_index import MAX_TERM_WORDS, TermIndex, token_keys


def every_pattern(glossary: Glossary, text: str) -> list[tuple[int, int, str]]:
    """The matching before the index: each term's pattern over the whole text, longest
    term first, no overlaps."""
    taken, found = [], []
    for term in glossary.terms:
        for m in _pattern(term.source).finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            taken.append(m.span())
            found.append((m.start(), m.end(), term.target))
    return sorted(found)


WORDS = ["Vertrag", "Verträge", "Topf", "Töpfe", "Haus", "Häuser", "Zauberpfanne",
         "Zauberpfannen", "Deluxe", "E-Mail", "E-Mails", "Rechnung", "Rechnungen", "der",
         "die", "„Haus“", "Haus,", "(Topf)", "Vorträge", "Hausmeister", "vertrages"]  # fmt: skip


def test_the_index_finds_what_every_pattern_found():
    rng = random.Random(7)
    glossary = parse_glossary(
        "Vertrag\tagreement\nTopf\tpot\nHaus\thouse\nZauberpfanne\tMagicPan\n"
        "Zauberpfanne Deluxe\tMagicPan Deluxe\nE-Mail\tmessage\nRechnung der Haus\tbill\n"
        "die Rechnung\tthe invoice\n"
    )
    for _ in range(400):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 14)))
        found = [(u.start, u.end, u.target) for u in glossary.find(text)]
        assert found == every_pattern(glossary, text), text


def test_keys_cover_endings_and_umlauts():
    assert "vertrag" in token_keys("Verträge") and "haus" in token_keys("„Häuser“")
    assert "e-mail" in token_keys("E-Mails") and token_keys("der") >= {"der", "d"}


def test_ten_thousand_hostile_terms_leave_few_places_to_check():
    """Terms of 20 times "a" and a number: the old matching ran each of the 10,000
    patterns over each paragraph of "a a a …" (25 s for five paragraphs)."""
    sources = [" ".join(["a"] * 20 + [f"x{i}"]) for i in range(10_000)]
    index = TermIndex(sources)
    paragraph = " ".join(["a"] * 400)
    assert index.candidates(paragraph) == []
    assert index.candidates(paragraph + " x77") == [(77, 2 * 380)]
    glossary = Glossary(tuple(Term(s, f"T{i}") for i, s in enumerate(sources[:2000])))
    assert [u.target for u in glossary.find(paragraph + " x1999 a")] == ["T1999"]


def test_quoted_fields_lose_their_quotes(tmp_path):
    g = parse_glossary('"Zauberpfanne"\t"MagicPan"\n"Topf ""XL"""\tpot\n')
    assert sorted((t.source, t.target) for t in g.terms) == [
        ('Topf "XL"', "pot"),
        ("Zauberpfanne", "MagicPan"),
    ]
    assert [u.target for u in g.find("Die Zauberpfanne ist heiß.")] == ["MagicPan"]


def test_a_term_of_too_many_words_is_named():
    long_term = " ".join(["Wort"] * (MAX_TERM_WORDS + 1))
    with pytest.raises(DataError, match=r"g\.tsv:2: a German term of more than 24 words"):
        parse_glossary(f"Haus\thouse\n{long_term}\tword\n", "g.tsv")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_refused_at_once(tmp_path):
    fifo = tmp_path / "glossary.tsv"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="not a regular file"):
        read_glossary(fifo)
    with pytest.raises(DataError, match="not a regular file"):
        read_glossary(tmp_path)


def test_decomposed_letters_are_found_in_the_text():
    """issue 64 §3: „Mahngebühr“ typed decomposed (NFD) is still the glossary's term, and
    the span is the user's text as typed."""
    import unicodedata

    glossary = parse_glossary("Mahngebühr\treminder fee\nVertrag\tagreement\n")
    text = unicodedata.normalize("NFD", "Die Mahngebühren und die Verträge.")
    uses = glossary.find(text)
    assert [u.target for u in uses] == ["reminder fee", "agreement"]
    assert [unicodedata.normalize("NFC", u.source) for u in uses] == ["Mahngebühren", "Verträge"]
    assert all(text[u.start : u.end] == u.source for u in uses)


def test_the_command_line_composes_what_it_translates():
    """The CLI hands the translator composed text, so the fact checks and the model see
    „ü“, not „u“ and a combining mark."""
    import unicodedata
    from types import SimpleNamespace

    from translator_app import cli

    seen = []
    fake = SimpleNamespace(translate_document=lambda text, **kw: seen.append(text))
    args = SimpleNamespace(beam=None, nbest=None, glossary_terms=None)
    cli._translate_text(fake, args)(unicodedata.normalize("NFD", "Fünf Bücher für 5 €."))
    assert seen == ["Fünf Bücher für 5 €."]
