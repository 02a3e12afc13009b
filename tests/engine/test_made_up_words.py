"""The word menu's alternatives leave out words the model makes up inside a word
(issue 89 §5: "lander", "landing" offered for "landlady"): a choice of a piece that
makes no English word the dictionary knows, and no word of the German."""

from __future__ import annotations

from types import SimpleNamespace

from conftest import spelled_candidate
from translator_app.core.api.followups import _made_up_words


class Known:
    """A dictionary that knows a few English words and is ready."""

    def __init__(self, *words: str) -> None:
        self.words = {w.casefold() for w in words}

    def ready(self, wait: bool = True) -> bool:
        return True

    def is_english_form(self, word: str) -> bool:
        return word.casefold() in self.words


def test_a_word_neither_english_nor_german_of_the_sentence_is_made_up(translator):
    tok = translator.tokenizer
    stub = SimpleNamespace(dictionary=Known("the", "landlord", "lives", "here"))
    made_up = _made_up_words(stub, "Der Vermieter Kowalczyk wohnt hier.")
    for text, word, expected in (
        ("The landingter lives here.", "landingter", True),
        ("The landlord lives here.", "landlord", False),
        ("Kowalczyk lives here.", "Kowalczyk", False),  # a name the German holds
        ("The landlord lives here.", "The", False),  # under three letters: not judged
    ):
        cand = spelled_candidate(tok, text)
        at = text.index(word)
        piece = next(k for k, (a, b) in enumerate(cand.target_spans) if a <= at < b)
        # every piece of the word judges the whole word
        last = next(k for k, (a, b) in enumerate(cand.target_spans) if a < at + len(word) <= b)
        assert made_up(cand, piece) is expected and made_up(cand, last) is expected, text


def test_without_a_ready_dictionary_nothing_is_left_out(translator):
    cand = spelled_candidate(translator.tokenizer, "The landingter lives here.")
    assert not _made_up_words(SimpleNamespace(dictionary=None), "Der Vermieter")(cand, 1)


def test_the_bundled_models_alternatives_are_english_words(translator):
    """Whatever this CPU's int8 makes of it: every alternative offered inside a word
    spells a word the dictionary knows, or one of the German's."""
    german = "Die Vermieterin wohnt im Erdgeschoss."
    translator.dictionary.ready(wait=True)
    t = translator.translate([german])[0]
    made_up = _made_up_words(translator, german)
    inside = [  # the pieces that carry a word on, where the model made words up
        k for k, p in enumerate(t.best.target_pieces[:-1]) if not p.startswith("▁") and p.isalpha()
    ]
    for piece in inside or range(len(t.best.target_ids) - 1):
        for c in translator.alternatives(t, piece):
            assert not made_up(c, piece), c.text
