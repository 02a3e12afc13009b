"""Nothing around a glossary term is dropped (issue 61 §3): „Angebot für Büromöbel“ with
Angebot -> quotation came out "Quotation for offices" (core/postedit/term_context.py)."""

from __future__ import annotations

from scripted_decoder import Written, scripted_translator
from translator_app.core.faithful.glossary import Glossary, Term
from translator_app.core.postedit.term_context import words_around

QUOTATION = Glossary((Term("Angebot", "quotation"), Term("Auftrag", "work order")))


# The bundled model's own headings are cases of the regression lane (tests/regression/
# cases.toml, "term-context-*"); here a scripted decoder writes them.
OFFER = Written(
    "Offer for office furniture",
    -2.0,
    {"office": "Büromöbel", "furniture": "Büromöbel", "Offer": "Angebot"},
)
OFFICES = Written("Quotation for offices", -2.0, {"Quotation": "Angebot", "offices": "Büromöbel"})
WHOLE = Written(
    "Quotation for office furniture",
    -2.2,
    {"office": "Büromöbel", "furniture": "Büromöbel", "Quotation": "Angebot"},
)


def _headings(source: str) -> list[Written]:
    """The glossary's decode writes "offices" first; the model's own, "office furniture"."""
    return [OFFICES, WHOLE] if "<means> quotation" in source else [OFFER]


def test_the_words_around_a_term_are_the_english_of_the_nouns_beside_it():
    translator = scripted_translator(_headings)
    plain = translator.translate(["Angebot für Büromöbel"], dictionary_words=False)[0]
    assert plain.text == OFFER.text  # "Offer" is the term's word
    assert words_around(plain, QUOTATION.find(plain.source)) == ("office", "furniture")
    sentence = "Mit dem Auftrag geht alles viel schneller."
    plainer = scripted_translator(
        lambda source: [Written("Everything goes much faster with it.", -2.0)]
    )
    plain = plainer.translate([sentence], dictionary_words=False)[0]
    # no noun beside the term: a plainer English asks nothing
    assert words_around(plain, QUOTATION.find(sentence)) == ()


def test_the_app_keeps_the_nouns_beside_a_term(monkeypatch):
    translator = scripted_translator(_headings)
    out = translator.translate(["Angebot für Büromöbel"], glossary=QUOTATION)[0]
    assert out.text == WHOLE.text
    own = translator.translate(
        ["Angebot für Büromöbel"], glossary=QUOTATION, steps="all,-words-around-terms"
    )[0]
    assert own.text == OFFICES.text  # the glossary's decode alone


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
