"""The dictionary pass decodes the sentences that copied words in one batch, each still
annotated with its own terms only (core/engine/dictionary_pass.term_batches)."""

from __future__ import annotations

from translator_app.core.faithful.glossary import Glossary, Term
from translator_app.core.postedit.dictionary_words import term_batches

TEIG, LAMPE = Term("Teig", "dough", True), Term("Lampe", "lamp", True)
POLAND, POLES = Term("Polen", "Poland", True), Term("Polen", "Poles", True)


def _batches(texts, wanted, glossary=None):
    return [
        (sorted((t.source, t.target) for t in g.terms), indices)
        for g, indices in term_batches(texts, wanted, glossary)
    ]


def test_sentences_with_terms_of_their_own_are_decoded_together():
    texts = ["Den Teig gehen lassen.", "Die Lampe blinkt.", "Die Lampe ist hell."]
    wanted = {0: (TEIG,), 1: (LAMPE,), 2: (LAMPE,)}
    assert _batches(texts, wanted) == [([("Lampe", "lamp"), ("Teig", "dough")], [0, 1, 2])]


def test_one_word_asked_two_ways_is_decoded_apart():
    """„in Polen“ is Poland, „die Polen“ Poles: one glossary cannot ask both."""
    texts = ["Wir fahren nach Polen.", "Die Polen feiern.", "Den Teig gehen lassen."]
    wanted = {0: (POLAND,), 1: (POLES,), 2: (TEIG,)}
    assert _batches(texts, wanted) == [
        ([("Teig", "dough")], [2]),
        ([("Polen", "Poland")], [0]),
        ([("Polen", "Poles")], [1]),
    ]


def test_a_sentence_holding_another_sentences_term_is_not_annotated_with_it():
    """The first sentence translated „Lampe“ itself: the batch's glossary would annotate
    it there too, so it gets a decode of its own."""
    texts = ["Den Teig unter der Lampe gehen lassen.", "Die Lampe blinkt.", "Die Lampen sind an."]
    wanted = {0: (TEIG,), 1: (LAMPE,), 2: (LAMPE,)}
    assert _batches(texts, wanted) == [
        ([("Lampe", "lamp")], [1, 2]),
        ([("Teig", "dough")], [0]),
    ]


def test_the_users_glossary_stays_on_top_of_the_batch():
    mine = Glossary((Term("Lampe", "luminaire"),))
    texts = ["Den Teig gehen lassen.", "Die Lampe blinkt."]
    [(given, indices)] = term_batches(texts, {0: (TEIG,), 1: (LAMPE,)}, mine)
    assert indices == [0, 1]
    assert [(u.source, u.english) for u in given.find(texts[1])] == [("Lampe", "luminaire")]


def test_the_bundled_model_says_each_copied_word_from_one_decode(translator, monkeypatch):
    sentences = [
        "Ich habe die Thermoskanne im Auto vergessen.",
        "Das Fahrradschloss hat zwei Schlüssel.",
        "Wir fahren morgen nach Polen.",  # the model says "Poland" itself
    ]
    first = translator.translate(sentences, dictionary_words=False)
    decoded: list[list[str]] = []
    own = translator._translate

    def counted(texts, *args, **kwargs):
        decoded.append(list(texts))
        return own(texts, *args, **kwargs)

    monkeypatch.setattr(translator, "_translate", counted)
    out = translator.add_dictionary_words(sentences, first)
    assert decoded == [sentences[:2]], decoded
    assert "thermos" in out[0].text and "bicycle lock" in out[1].text, [t.text for t in out]
    assert out[2] is first[2]
