"""Each feature engine/model_features.py says an imported Marian (OPUS-MT) model gets is
tried on one (a tiny random MarianMTModel, imported as a user's download is), and each it
says the model does not get is off with the reason given, not silently."""

from __future__ import annotations

import pytest

from translator_app.core.api.translator import Translator
from translator_app.core.engine.model_features import (
    NEEDS_ANNOTATIONS,
    missing_text,
    model_features,
)
from translator_app.core.faithful.glossary import Glossary, Term
from translator_app.core.importers.marian import import_marian

pytest.importorskip("transformers")
from tiny_marian import make_hf_model  # noqa: E402

SHAPE = {"d_model": 32, "encoder_layers": 2, "decoder_layers": 2, "heads": 4, "ffn": 64}
FACTS = "Am 3. Mai um 9 Uhr kostet der Hund 4,50 Euro."


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> Translator:
    folder = tmp_path_factory.mktemp("imported")
    make_hf_model(folder / "hf", SHAPE, seed=3)
    return Translator.load(import_marian(folder / "hf", folder / "bundle"), device="cpu")


def works(name: str, follows_glossary: bool = False) -> bool:
    [f] = [f for f in model_features(follows_glossary) if f.name == name]
    return f.works


def test_the_list_says_what_an_imported_model_lacks_and_why(imported):
    assert not imported.follows_glossary
    off = [f for f in model_features(imported.follows_glossary) if not f.works]
    assert [f.name for f in off] == [
        "glossary",
        "taught terms",
        "facts annotated",
        "dictionary words",
    ]
    assert all(f.why == NEEDS_ANNOTATIONS for f in off)
    assert all(f.works for f in model_features(True))  # the bundled kind gets all
    text = missing_text("opus-mt-de-en", model_features(False))
    assert text.startswith("opus-mt-de-en: no glossary, ") and "term annotations" in text


def test_what_is_off_is_off_and_says_so(imported):
    assert not works("glossary") and not works("facts annotated")
    with pytest.raises(ValueError, match="not trained to follow a glossary"):
        imported.translate(["Der Hund läuft."], glossary=Glossary((Term("Hund", "hound"),)))
    assert imported.protect_facts == "off" and imported.dictionary is None
    assert not imported.taught.terms


def test_fact_marks_work_on_an_imported_model(imported):
    assert works("fact marks")
    [t] = imported.translate([FACTS])
    # The tiny model's English pieces hold no digit (its SentencePiece model was trained
    # on digit-free English), so none of the German's numbers can survive: all marked.
    assert not any(ch.isdigit() for ch in t.text)
    assert {"3. Mai", "9 Uhr", "4,50"} <= {f.text for f in t.issues}


def test_the_alignment_panel_works_on_an_imported_model(imported):
    assert works("alignment panel")
    [t] = imported.translate(["Der Hund läuft schnell."])
    best = t.best
    assert best.attention.shape == (len(best.target_pieces), len(t.source_pieces))
    layers = imported.explain(t).best.layers
    cfg = imported.model.config
    assert layers.shape[1:3] == (cfg.dec_layers, cfg.n_heads)


def test_word_alternatives_work_on_an_imported_model(imported):
    assert works("word alternatives")
    [t] = imported.translate(
        ["Ich habe heute leider keine Zeit."], beam=1, nbest=1, max_len_b=8, max_len_a=0.0
    )
    found = imported.alternatives(t, 1)
    assert found, "no alternatives offered"
    for c in found:
        assert c.target_ids[:1] == t.best.target_ids[:1] and c.target_ids[1] != t.best.target_ids[1]


def test_documents_work_on_an_imported_model(imported, tmp_path):
    from docx import Document

    from translator_app.core.documents import translate_file

    assert works("documents")
    source = tmp_path / "brief.docx"
    d = Document()
    d.add_paragraph("Der Hund läuft.")
    d.add_paragraph("Wir treffen uns am Bahnhof.")
    d.save(source)
    doc = translate_file(
        source,
        tmp_path / "letter.docx",
        lambda text: imported.translate_document(text, max_len_b=6, max_len_a=0.0),
    )
    out = Document(tmp_path / "letter.docx")
    assert len([p for p in out.paragraphs if p.text.strip()]) == 2
    assert doc.output


def test_with_no_steps_an_imported_model_writes_what_transformers_writes(tmp_path):
    """`translate --steps none` is the model's own greedy search: the same ids as
    transformers' generate, and the text those ids decode to (the steps respelled the
    first word piece by piece, so an import could not be checked against it)."""
    import torch

    from translator_app.core.engine.candidates import text_of

    hf, vocab = make_hf_model(tmp_path / "hf", SHAPE, seed=5)
    bundle = import_marian(tmp_path / "hf", tmp_path / "bundle")
    ours = Translator.load(bundle, device="cpu", precision="fp32", engine="torch")
    german = ["Der Hund läuft schnell über die Straße.", "wir treffen uns am bahnhof"]
    max_new = 10
    choices = dict(beam=1, nbest=1, max_len_a=0.0, max_len_b=max_new)
    out = ours.translate(german, steps="none", **choices)
    ids = [list(ours.tokenizer.encode(text).ids) + [vocab["</s>"]] for text in german]
    width = max(map(len, ids))
    src = torch.tensor([row + [vocab["<pad>"]] * (width - len(row)) for row in ids])
    with torch.no_grad():
        want = hf.generate(
            input_ids=src,
            attention_mask=(src != vocab["<pad>"]).long(),
            num_beams=1,
            do_sample=False,
            max_new_tokens=max_new,
            bad_words_ids=[[vocab["<pad>"]], [vocab["<unk>"]]],
            forced_eos_token_id=vocab["</s>"],
        )
    for t, row in zip(out, want, strict=True):
        expected = [int(x) for x in row[1:] if int(x) != vocab["<pad>"]]
        assert list(t.best.target_ids) == expected
        assert t.text == text_of(ours.tokenizer, t.best.target_ids)
