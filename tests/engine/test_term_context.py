"""Nothing around a glossary term is dropped (issue 61 §3): „Angebot für Büromöbel“ with
Angebot -> quotation came out "Quotation for offices" (core/engine/term_context.py)."""

from __future__ import annotations

from translator_app.core.engine import dictionary_pass
from translator_app.core.engine import translator as translator_module
from translator_app.core.engine.term_context import words_around
from translator_app.core.faithful.garbled_words import garbled_sources
from translator_app.core.faithful.glossary import Glossary, Term

QUOTATION = Glossary((Term("Angebot", "quotation"), Term("Auftrag", "work order")))


def test_the_words_around_a_term_are_the_english_of_the_nouns_beside_it(translator):
    plain = translator.translate(["Angebot für Büromöbel"], dictionary_words=False)[0]
    # the model's own English: "Offer for office furniture"; "Offer" is the term's word
    assert words_around(plain, QUOTATION.find(plain.source)) == ("office", "furniture")
    sentence = "Mit dem Auftrag geht alles viel schneller."
    plain = translator.translate([sentence], dictionary_words=False)[0]
    # no noun beside the term: a plainer English ("Everything goes well …") asks nothing
    assert words_around(plain, QUOTATION.find(sentence)) == ()


def test_the_bundled_model_keeps_the_noun_beside_a_term(translator, monkeypatch):
    # v22's glossary decode alone wrote "Quotation for offices" for „Angebot für Büromöbel“;
    # v23 writes that heading whole, and garbles this one
    sentence = "Angebot für die Dachreparatur"
    out = translator.translate([sentence], glossary=QUOTATION)[0]
    assert out.text == "Quotation for the roof repair", out.text
    # the dictionary pass now mends the garble too (the attention finds its German):
    # with garbles found by their letters alone, the words around the term mend it
    monkeypatch.setattr(
        dictionary_pass,
        "garbled_by_attention",
        lambda lexicon, t: garbled_sources(lexicon, t.source, t.text),
    )
    out = translator.translate([sentence], glossary=QUOTATION)[0]
    assert out.text == "Quotation for the roof repair", out.text
    with monkeypatch.context() as m:
        m.setattr(translator_module, "with_words_around_terms", lambda texts, out, *a: out)
        own = translator.translate([sentence], glossary=QUOTATION)[0]
    # the glossary's decode alone says "roofparaturing" (if the model learns better, choose
    # another heading for this test)
    assert "repair" not in own.text and "quotation" in own.text.lower(), own.text


def test_a_sentence_without_a_term_of_the_users_is_decoded_once(translator, monkeypatch):
    first = translator.translate(["Angebot für Büromöbel"], dictionary_words=False)
    decoded = []
    own = translator._translate

    def counted(texts, *args, **kwargs):
        decoded.append(list(texts))
        return own(texts, *args, **kwargs)

    monkeypatch.setattr(translator, "_translate", counted)
    out = translator.add_dictionary_words(["Angebot für Büromöbel"], first)
    assert decoded == [] and out[0].text == first[0].text
