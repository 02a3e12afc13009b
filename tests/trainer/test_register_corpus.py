"""The project's own register corpus (trainer/register_corpus.py, issue 46)."""

from __future__ import annotations

import re
from pathlib import Path

from trainer.register_corpus import register_pairs
from trainer.register_vocab import vocab_pairs, with_determiner, zu_infinitive
from translator_app.core.data.corpus import Blocklist, read_all

ROOT = Path(__file__).parents[2]
REGISTER = ROOT / "testsets" / "register"


def test_deterministic_distinct_and_filled():
    pairs = list(register_pairs(3000, seed=4))
    assert pairs == list(register_pairs(3000, seed=4)) != list(register_pairs(3000, seed=5))
    assert len(set(pairs)) == 3000
    for de, en in pairs:
        assert "{" not in de + en and "}" not in de + en, (de, en)
        assert not en.endswith(".."), en
        assert de[:1].isupper() and en[:1].isupper(), (de, en)


def test_salutations_match_the_form_of_address():
    for de, _ in register_pairs(3000, seed=2):
        if re.match(r"(Sehr geehrte|Guten Tag|Hallo (Herr|Frau))", de):
            assert not re.search(
                r"\b(du|dich|dir|Kannst|Hast|Vergiss|hast|kannst|vergiss)\b", de
            ), de
        if re.match(r"(Liebe|Lieber|Hallo) [A-Z][a-z]+,", de) and "Kolleg" not in de:
            assert not re.search(r"\b(Sie|Ihnen)\b", de), de


def test_no_sentence_of_the_register_dev_or_test_set():
    held = Blocklist(read_all(sorted(REGISTER.glob("*.tsv"))))
    hits = [p for p in register_pairs(16000, seed=1) if held.match(*p)]
    assert hits == []


def test_the_vocabulary_corpus_avoids_the_register_sets_and_inflects():
    held = Blocklist(read_all(sorted(REGISTER.glob("*.tsv"))))
    pairs = list(vocab_pairs(6000, seed=1))
    assert len(set(pairs)) == 6000 and pairs == list(vocab_pairs(6000, seed=1))
    assert [p for p in pairs if held.match(*p)] == []
    for de, en in pairs:
        assert "{" not in de + en and de[:1].isupper() and en[:1].isupper(), (de, en)
    assert zu_infinitive("den Newsletter abbestellen") == "den Newsletter abzubestellen"
    assert zu_infinitive("Urlaub beantragen") == "Urlaub zu beantragen"
    assert zu_infinitive("mich krankmelden") == "mich krankzumelden"
    assert zu_infinitive("die Heizung reparieren lassen") == "die Heizung reparieren zu lassen"
    assert with_determiner("der Lebenslauf", "den Lebenslauf", "the CV", "my") == (
        "mein Lebenslauf",
        "meinen Lebenslauf",
        "my CV",
    )


def test_the_short_text_corpus_avoids_the_register_sets_and_is_whole():
    """Buttons, labels, notices and signs, alone and in frames: distinct, repeatable,
    no slot left unfilled, and no sentence of the register dev or test set."""
    from trainer.register_ui import ui_pairs

    held = Blocklist(read_all(sorted(REGISTER.glob("*.tsv"))))
    pairs = list(ui_pairs(3000, seed=1))
    assert 500 < len(pairs) == len(set(pairs)) and pairs == list(ui_pairs(3000, seed=1))
    assert [p for p in pairs if held.match(*p)] == []
    for de, en in pairs:
        assert "{" not in de + en and de.strip() == de and en.strip() == en, (de, en)
        assert de.count("„") == de.count("“") and en.count('"') % 2 == 0, (de, en)
    assert ("Klicken Sie auf „Speichern“.", 'Click "Save".') in pairs
