"""Golden values: exact search results that a change to the models, the attention or the
search would alter (JoeyNMT-style).

1. Seeded tiny models of every architecture: greedy and beam ids and scores.
2. About ten sentences through the bundled model, fp32 and int8, in both engines
   (PyTorch and CTranslate2): a change to the tokenizer, the export, the conversion or
   the quantisation shows up as a diff; in fp32 the engines give the same ids.

The expected values live in tests/data/golden_*.json. When a change is meant to alter them
(a new bundled model, a deliberate change to the search), regenerate them and review the
diff before committing:

    .venv/bin/python tests/engine/test_golden.py
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from pathlib import Path

import pytest
import torch

from translator_app.core.engine import ct2

sys.path.insert(0, str(Path(__file__).parents[1]))
from conftest import DATA, TINY, VARIANTS  # noqa: E402

SEARCH_FILE = DATA / "golden_search.json"
BUNDLE_FILE = DATA / "golden_bundle.json"
BUNDLE = Path(__file__).parents[2] / "resources" / "model"

VOCAB = 48
# Two sentences of different lengths, so padding and batching are part of what is pinned.
SOURCES = [[5, 9, 17, 23, 11, 3], [30, 7, 41, 3]]
SEARCHES = {
    "greedy": dict(beam=1, nbest=1, length_penalty=0.0),
    "beam3": dict(beam=3, nbest=2, length_penalty=0.6),
}
SENTENCES = [
    "Guten Morgen!",
    "Ich habe heute leider keine Zeit, weil ich zum Arzt muss.",
    "Wo ist der Bahnhof?",
    "Das Wetter ist heute schön.",
    "Kannst du mir bitte helfen?",
    "Die Katze schläft auf dem Sofa.",
    "Wir fahren morgen mit dem Zug nach Berlin.",
    "Das Buch, das du mir gegeben hast, ist sehr spannend.",
    "Öffnen Sie die Datei und speichern Sie die Änderungen.",
    "Er hat seit drei Jahren nicht mehr geraucht.",
]


def search_results() -> dict:
    """Every variant x search: per sentence, the hypotheses' ids and scores."""
    from translator_app.core.engine.batching import pad_rows
    from translator_app.core.engine.search import SearchOptions, beam_search
    from translator_app.core.models.config import ModelConfig
    from translator_app.core.models.model import build_model

    results = {}
    for variant, arch in VARIANTS.items():
        torch.manual_seed(0)
        model = build_model(ModelConfig(vocab_size=VOCAB, **{**TINY, **arch})).eval()
        src, mask = pad_rows(SOURCES, model.config.pad_id)
        for name, options in SEARCHES.items():
            hyps = beam_search(
                model, src, mask, SearchOptions(max_len_a=1.0, max_len_b=2, **options)
            )
            results[f"{variant}/{name}"] = [
                [{"ids": list(h.tokens), "score": round(h.score, 5)} for h in sentence]
                for sentence in hyps
            ]
    return results


def bundle_results(ids: bool = False) -> dict:
    """The bundled model's default search (greedy as well) in fp32 and int8, per engine
    (``ids``: the first candidates' target ids instead of their texts)."""
    return {
        k: [x[1] if ids else x[0] for x in v] if "/" in k else v
        for k, v in _bundle_outputs().items()
    }


@functools.cache
def _bundle_outputs() -> dict:
    from translator_app.core import Translator
    from translator_app.core.engine.bundle import load_bundle
    from translator_app.core.engine.bundle_format import WEIGHTS_FILE

    bundle = load_bundle(BUNDLE, "cpu")
    weights = hashlib.sha256((BUNDLE / WEIGHTS_FILE).read_bytes()).hexdigest()
    results = {"model": bundle.name, "weights_sha256": weights}
    for engine in ("torch", "ctranslate2"):
        for precision in ("fp32", "int8"):
            translator = Translator.from_bundle(bundle, precision, engine)
            for beam in (1, bundle.search.beam):
                out = translator.translate(SENTENCES, beam=beam)
                results[f"{engine}/{precision}/beam{beam}"] = [
                    (t.text, list(t.best.target_ids)) for t in out
                ]
    return results


def test_seeded_tiny_models_give_the_golden_search_results():
    expected = json.loads(SEARCH_FILE.read_text("utf-8"))
    got = search_results()
    assert got.keys() == expected.keys()
    for key, sentences in expected.items():
        for s, (want, have) in enumerate(zip(sentences, got[key], strict=True)):
            assert [h["ids"] for h in have] == [h["ids"] for h in want], f"{key} sentence {s}"
            assert [h["score"] for h in have] == pytest.approx(
                [h["score"] for h in want], abs=1e-4
            ), f"{key} sentence {s}"


def test_greedy_is_beam_one_in_the_golden_values():
    """Beam size 1 equals greedy (the golden file's greedy entries come from beam_search)."""
    from translator_app.core.engine.batching import pad_rows
    from translator_app.core.engine.search import SearchOptions, greedy_search
    from translator_app.core.models.config import ModelConfig
    from translator_app.core.models.model import build_model

    expected = json.loads(SEARCH_FILE.read_text("utf-8"))
    for variant, arch in VARIANTS.items():
        torch.manual_seed(0)
        model = build_model(ModelConfig(vocab_size=VOCAB, **{**TINY, **arch})).eval()
        src, mask = pad_rows(SOURCES, model.config.pad_id)
        hyps = greedy_search(
            model, src, mask, SearchOptions(max_len_a=1.0, max_len_b=2, length_penalty=0.0)
        )
        want = expected[f"{variant}/greedy"]
        assert [[list(h.tokens) for h in s] for s in hyps] == [[h["ids"] for h in s] for s in want]


@pytest.mark.slow
def test_the_bundled_model_gives_the_golden_translations():
    expected = json.loads(BUNDLE_FILE.read_text("utf-8"))
    got = bundle_results()
    assert got["weights_sha256"] == expected["weights_sha256"], (
        "the bundled model changed: regenerate tests/data/golden_bundle.json "
        "(python tests/engine/test_golden.py) and review the diff"
    )
    for key in expected:
        if "/" in key:
            assert got[key] == expected[key], key


@pytest.mark.slow  # converts the bundled model: outside the fast lane
@pytest.mark.skipif(not ct2.available(), reason="CTranslate2 is not installed")
def test_ctranslate2_gives_pytorchs_ids_in_fp32():
    """Without the vocabulary shortlist, which renormalises the softmax over the pieces
    the sentence may become (v19: "Where's the station?" by a hair over "Where is the
    station?" with it, the other way round without), CTranslate2 finds what the PyTorch
    search finds, ranked by the same GNMT score."""
    from translator_app.core import Translator
    from translator_app.core.engine.bundle import load_bundle

    bundle = load_bundle(BUNDLE, "cpu")
    reference = Translator.from_bundle(bundle, "fp32", "torch")
    full_softmax = Translator.from_bundle(bundle, "fp32", "ctranslate2")
    full_softmax.backend.engine.use_vmap = False
    for beam in (1, bundle.search.beam):
        want = [list(t.best.target_ids) for t in reference.translate(SENTENCES, beam=beam)]
        got = [list(t.best.target_ids) for t in full_softmax.translate(SENTENCES, beam=beam)]
        assert got == want, f"beam {beam}"


if __name__ == "__main__":
    for path, make in ((SEARCH_FILE, search_results), (BUNDLE_FILE, bundle_results)):
        path.write_text(json.dumps(make(), indent=1, ensure_ascii=False) + "\n", "utf-8")
        print(f"wrote {path}")
