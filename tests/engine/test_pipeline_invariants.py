"""What holds of every candidate that leaves the post-editing pipeline (issue 87): its text
is the decode of its ids, the rewrites having kept ids, pieces and attention in step, and
the emoji the step "symbols" puts back written into the ids as the tokenizer's byte
pieces (engine/symbols.py). Every candidate of the n-best, not only the best, with the
real model."""

from __future__ import annotations

import pytest

from translator_app.core.engine.candidates import text_of
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
    "👍 Super Sache, danke!😀😀",
    "Ich ❤️ dich 😀 sehr",
    "Der Sessel ist bequem, aber die Winterreifen sind teuer.",
    "Meine Tochter ist jetzt 19 Jahre alt und es ist ihr egal.",
    "Die Temperaturen sanken auf -5 bis -10 °C.",
]


@pytest.mark.parametrize("steps", ["all", "all,british"])
def test_every_candidate_is_the_decode_of_its_ids(translator, steps):
    glossary = Glossary((Term("Angebot", "quotation"), Term("Verkehr", "traffic")))
    for german in SENTENCES:
        (t,) = translator.translate([german], steps=steps, glossary=glossary)
        for cand in t.nbest:
            decoded = text_of(translator.tokenizer, cand.target_ids)
            assert cand.text == decoded, (german, cand.text, decoded)
            assert len(cand.attention) == len(cand.target_ids), german
            assert len(cand.target_pieces) == len(cand.target_spans) == len(cand.target_ids)
