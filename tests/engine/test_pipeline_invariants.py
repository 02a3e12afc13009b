"""What holds of every candidate that leaves the post-editing pipeline (issue 87): its text
is the decode of its ids, the rewrites having kept ids, pieces and attention in step; the
one exception is the emoji and symbols the step "symbols" puts back, which the model's
vocabulary does not hold (engine/symbols.py): without them the text is still the decode
of the ids. Every candidate of the n-best, not only the best, with the real model."""

from __future__ import annotations

import pytest

from translator_app.core.engine.candidates import text_of
from translator_app.core.engine.symbols import is_symbol
from translator_app.core.faithful.glossary import Glossary, Term

SENTENCES = [
    "Die Apotheke hat samstags nur bis mittags geöffnet.",
    "Frau Bäumer kommt am 3. Mai um 14 Uhr nach München.",
    "Das Zimmer kostet 89,50 € pro Nacht inklusive Frühstück.",
    "Wir brauchen zweihundertfünfzig Gramm Mehl und drei Eier.",
    "Aktuell ist der Verkehr auf der A3 sehr dicht.",
    "Bitte schicken Sie das Angebot bis Freitag an info@example.com",
    "die lieferung dauert drei bis fuenf werktage",
    "Das Hotel war sauber und ruhig. 👍",
    "Das Wetter ist schön ☀️ und warm.",
    "Der Sessel ist bequem, aber die Winterreifen sind teuer.",
    "Meine Tochter ist jetzt 19 Jahre alt und es ist ihr egal.",
    "Die Temperaturen sanken auf -5 bis -10 °C.",
]


def _without_symbols(text: str) -> str:
    return " ".join("".join(ch for ch in text if not is_symbol(ch)).split())


@pytest.mark.parametrize("steps", ["all", "all,british"])
def test_every_candidate_is_the_decode_of_its_ids(translator, steps):
    glossary = Glossary((Term("Angebot", "quotation"), Term("Verkehr", "traffic")))
    for german in SENTENCES:
        (t,) = translator.translate([german], steps=steps, glossary=glossary)
        for cand in t.nbest:
            decoded = text_of(translator.tokenizer, cand.target_ids)
            if any(is_symbol(ch) for ch in german):
                assert _without_symbols(cand.text) == _without_symbols(decoded), german
            else:
                assert cand.text == decoded, (german, cand.text, decoded)
            assert len(cand.attention) == len(cand.target_ids), german
