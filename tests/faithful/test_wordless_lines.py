"""A line without words (emoji, arrows, dashes) comes back as it is, with the bundled
model: trained on sentences, the model made "accommodation" of a lone „😀“ and exited 0."""

from pathlib import Path

import numpy as np
import pytest

from translator_app.core.engine.candidates import has_words

BUNDLE = Path(__file__).parents[2] / "resources" / "model"
WORDLESS = ["😀", "  ---  ", "→ ←", "*", "?!", "😀 😀 :-)"]


def test_has_words():
    assert not any(has_words(t) for t in WORDLESS)
    assert all(has_words(t) for t in ["Hallo 😀", "3", "ß", "Ja!"])


@pytest.fixture(scope="module", params=["auto", "torch"])
def translator(request):
    from translator_app.core import Translator

    return Translator.load(
        BUNDLE, precision="int8" if request.param == "auto" else "fp32", engine=request.param
    )


def test_a_wordless_line_is_kept_as_it_is(translator):
    for t in translator.translate(WORDLESS):
        assert t.text == t.source.strip()
        best = t.best
        # one attention row per target piece (EOS included), each a distribution
        assert best.attention.shape == (len(best.target_ids), len(t.source_ids))
        assert np.allclose(best.attention.sum(axis=1), 1.0)
        assert best.attention[-1, -1] == 1.0  # the EOS attends to the EOS
        assert not best.attention.flags.writeable


def test_a_wordless_line_in_a_document_and_a_sentence_with_words():
    from translator_app.core import Translator

    translator = Translator.load(BUNDLE, precision="int8")
    doc = translator.translate_document("Guten Tag.\n😀\n\n---\nVielen Dank!")
    lines = doc.output.split("\n")
    assert lines[1:4] == ["😀", "", "---"]
    assert lines[0] and lines[4] and has_words(lines[0]) and has_words(lines[4])
    # a sentence with words is the model's to translate
    (hello,) = translator.translate(["Vielen Dank für Ihre Nachricht."])
    assert "thank" in hello.text.lower()


OTHER_SCRIPTS = ["שלום, מה שלומך?", "مرحبا كيف حالك", "Привет, как дела?", "Γεια σου"]


def test_a_line_in_another_script_is_kept_as_it_is(translator):
    """Hebrew and Arabic lines came out as invented English („— myself. . .g.“, issue
    86): a line whose letters are mostly of another script than the Latin one is not
    German, and comes back as it is; German with a letter of another script is German."""
    from translator_app.core.engine.candidates import in_another_script

    assert all(in_another_script(t) for t in OTHER_SCRIPTS)
    assert not any(
        in_another_script(t) for t in ["Der Wert von π ist 3,14.", "Grüße aus Москва!", "3 + 4"]
    )
    for t in translator.translate(OTHER_SCRIPTS):
        assert t.text == t.source.strip()
        assert t.best.attention.shape == (len(t.best.target_ids), len(t.source_ids))
