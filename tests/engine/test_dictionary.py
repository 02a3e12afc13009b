"""The dictionary under every word (issue 51 §4): Ding entries found for the word as
written, for its inflected forms, for its lemma and for a compound's last part; the index
rebuilt when the source changes or is damaged; bad files named."""

from __future__ import annotations

import json
import lzma
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SHARED_CACHE
from translator_app.core.dictionary.ding import forms, parse_line, phrase_words, plain
from translator_app.core.dictionary.index import DictionaryError
from translator_app.core.dictionary.lookup import Dictionary

TINY = """\
# Version :: test
Rechnung {f}; Faktura {f} [Ös.] [econ.] | Rechnungen {pl} | eine Rechnung prüfen :: invoice | invoices | to verify an invoice
gehen {vi} | gehend | gegangen | ich/er/sie ging | Ich gehe nach Hause. :: to go {went; gone} | going | gone | I/he/she went | I go home.
Pfanne {f} [cook.] | Pfannen {pl} :: pan | pans
Haus {n} | Häuser {pl} | zu Hause :: house | houses | at home
Essen {n} :: food
essen {vt} :: to eat {ate; eaten}
Abrechnung {f} /Abr./ :: settlement /sett./
"""


def _write(path: Path, text: str) -> Path:
    with lzma.open(path, "wt", encoding="utf-8") as f:
        f.write(text)
    return path


@pytest.fixture
def tiny(tmp_path) -> Dictionary:
    return Dictionary(_write(tmp_path / "ding.txt.xz", TINY), tmp_path / "cache")


def test_ding_lines_are_read_into_forms_and_marks():
    (head, plural, phrase) = parse_line(TINY.splitlines()[1])
    assert head.tags == ("f", "f") and head.register == ("Ös.", "econ.")
    assert forms(head.german) == ["Rechnung", "Faktura"] and forms(plural.german) == ["Rechnungen"]
    assert phrase_words(phrase.german) == ["eine", "Rechnung", "prüfen"]
    assert phrase_words(head.german) == []  # variants of one word are not a phrase
    assert forms("ich/er/sie ging") == ["ging"]  # the pronouns are not an abbreviation
    assert plain("Abrechnung {f} /Abr./") == "Abrechnung"
    assert parse_line("# comment") == () and parse_line("no separator") == ()


def test_a_word_is_found_as_written_inflected_by_its_lemma_and_in_a_compound(tiny):
    r = tiny.lookup("Rechnung,")  # punctuation around the word is ignored
    assert r.word == "Rechnung" and r.senses[0].english == "invoice"
    assert r.senses[0].examples == (("eine Rechnung prüfen", "to verify an invoice"),)
    went = tiny.lookup("ging")  # a form Ding lists under its headword
    assert went.senses[0].english == "I/he/she went" and went.senses[0].headword == "gehen"
    houses = tiny.lookup("Häusern")  # not in Ding: its lemma (simplemma) is
    assert houses.lemma == "Haus" and houses.senses[0].english == "house"
    magic = tiny.lookup("Zauberpfannen")  # a compound: its longest known last part
    assert magic.compound == ("Zauber", "Pfannen") and magic.senses[0].english == "pans"
    assert not tiny.lookup("Xyzzyq").found and not tiny.lookup("123").found


def test_a_nouns_last_part_is_a_noun_not_a_verb_the_lemmatiser_guessed(tmp_path):
    """„Tagesticket“ ends in „Sticket“, which the lemmatiser reads as a form of
    „sticken“ (to embroider): a capitalised compound's last part is a noun, „Ticket“."""
    ding = _write(tmp_path / "d.txt.xz", "sticken {vt} :: to embroider\nTicket {n} :: ticket\n")
    d = Dictionary(ding, tmp_path / "cache")
    day = d.lookup("Tagesticket")
    assert day.compound == ("Tages", "Ticket") and day.senses[0].english == "ticket"
    assert d.lookup("gesticket").senses[0].english == "to embroider"  # lower case: a verb


def test_the_case_as_written_comes_first(tiny):
    assert tiny.lookup("Essen").senses[0].english == "food"
    assert tiny.lookup("essen").senses[0].english == "to eat {ate; eaten}"


def test_the_index_is_rebuilt_when_the_source_changes_or_is_damaged(tmp_path, tiny):
    assert tiny.ensure_index() is True
    assert Dictionary(tiny.source, tmp_path / "cache").ensure_index() is False  # reused
    _write(tiny.source, TINY + "Stuhl {m} :: chair\n")
    again = Dictionary(tiny.source, tmp_path / "cache")
    assert again.ensure_index() is True and again.lookup("Stuhl").senses[0].english == "chair"
    tiny.index_path.write_bytes(b"not a database")
    damaged = Dictionary(tiny.source, tmp_path / "cache")
    assert damaged.ensure_index() is True and damaged.lookup("Stuhl").found


def test_a_missing_or_broken_source_is_named(tmp_path):
    missing = Dictionary(tmp_path / "none.txt.xz", tmp_path / "cache")
    with pytest.raises(DictionaryError, match="none.txt.xz"):
        missing.lookup("Haus")
    broken = tmp_path / "broken.txt.xz"
    broken.write_bytes(b"plain bytes, not xz")
    with pytest.raises(DictionaryError, match="broken.txt.xz"):
        Dictionary(broken, tmp_path / "cache").lookup("Haus")
    assert not (tmp_path / "cache" / "ding-de-en.sqlite").exists()  # no half index left
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    unwritable = Dictionary(_write(tmp_path / "ok.txt.xz", TINY), blocked / "cache")
    with pytest.raises(DictionaryError, match="index cannot be written"):
        unwritable.lookup("Haus")


def test_the_cli_looks_up_the_bundled_dictionary():
    # the test run's cache: its index is built once for every test that needs it
    env = {"TRANSLATOR_CACHE_DIR": SHARED_CACHE, "PATH": "/usr/bin:/bin"}
    cmd = [sys.executable, "-m", "translator_app", "lookup", "--json", "Bürostühle", "ging"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    chairs, went = (json.loads(line) for line in out.stdout.splitlines())
    assert "office chairs" in chairs["senses"][0]["english"]
    assert any("went" in s["english"] for s in went["senses"])
    plain_cmd = [sys.executable, "-m", "translator_app", "lookup", "Xyzzyq"]
    missing = subprocess.run(plain_cmd, capture_output=True, text=True, env=env, timeout=300)
    assert missing.returncode == 1 and "not in the dictionary" in missing.stdout


def test_decomposed_letters_are_found_like_composed_ones(tiny):
    """issue 64 §3: „Pfanne“ is plain ASCII; „Häuser“ typed as NFD (a + combining
    diaeresis, as macOS and some PDFs give it) was looked up as „Ha“ and „user“."""
    import unicodedata

    decomposed = unicodedata.normalize("NFD", "Häuser")
    assert decomposed != "Häuser"
    result = tiny.lookup(decomposed)
    assert result.found and result.word == "Häuser"
    assert result.senses[0].english.startswith("house")


def test_a_very_long_word_is_answered_at_once_with_a_reason(tiny):
    """issue 64 §2: 20,000 letters took 80 s and 232 MB; 100,000 never answered."""
    import time

    from translator_app.core.dictionary.lookup import MAX_WORD_CHARS

    start = time.perf_counter()
    result = tiny.lookup("Rechnungs" * 11_112)  # 100,008 letters
    assert time.perf_counter() - start < 1.0
    assert not result.found and "100,008 letters long" in result.note
    assert len(result.word) < 40  # the answer does not repeat the whole word
    # a long real compound is still split: the bound is above any German word
    assert tiny.lookup("Haushalts" * 7 + "pfanne").compound is not None
    assert len("Haushalts" * 7 + "pfanne") <= MAX_WORD_CHARS


def _damage_pages(path: Path) -> None:
    """Garbage over the second half of the index's pages: its header, schema and stamp
    stay readable, the forms and their index do not."""
    data = bytearray(path.read_bytes())
    half = len(data) // 4096 // 2 * 4096
    data[half:] = b"\xa5" * (len(data) - half)
    path.write_bytes(bytes(data))


# Enough entries for an index of about 100 pages.
LARGER = TINY + "".join(
    f"Wort{i} {{n}} | Wörter{i} {{pl}} :: word{i} | words{i}\n" for i in range(3000)
)


def test_a_damaged_index_is_set_aside_and_built_again_once(tmp_path, tiny):
    """issue 64 §1: garbage over the pages kept "database disk image is malformed" in
    every later run; an index of another schema answered "no such table: forms"."""
    import sqlite3

    from translator_app.core.dictionary.index import index_stamp

    tiny = Dictionary(_write(tmp_path / "larger.txt.xz", LARGER), tmp_path / "cache")
    assert tiny.lookup("Rechnung").found
    _damage_pages(tiny.index_path)
    assert index_stamp(tiny.index_path)  # looks current: only a query finds the damage
    fresh = Dictionary(tiny.source, tmp_path / "cache")
    assert fresh.lookup("Wort2999").found and fresh.lookup("Haus").found
    assert fresh.notice.startswith("the dictionary's index was damaged; it was built again")
    assert list((tmp_path / "cache").glob("ding-de-en.sqlite.damaged-*"))
    # another schema with a current stamp: rebuilt before the first look-up
    db = sqlite3.connect(tiny.index_path)
    db.execute("DROP TABLE forms")
    db.commit()
    db.close()
    other = Dictionary(tiny.source, tmp_path / "cache")
    assert other.ensure_index() is True and other.lookup("Pfanne").found


def test_an_index_deleted_during_use_is_built_again(tmp_path, tiny):
    assert tiny.lookup("Rechnung").found
    tiny._local.db.close()  # as if the file had gone under the connection
    tiny.index_path.unlink()
    assert tiny.lookup("Haus").found and tiny.index_path.is_file()


def test_a_cache_folder_with_uri_characters_works(tmp_path):
    """issue 65 §5: XDG_CACHE_HOME=/tmp/c#1 rebuilt the index on every look-up, then
    failed with "unable to open database file"."""
    for name in ("c#1", "50%", "what?"):
        d = Dictionary(_write(tmp_path / "ding.txt.xz", TINY), tmp_path / name)
        assert d.lookup("Haus").found
        again = Dictionary(d.source, tmp_path / name)
        assert again.ensure_index() is False and again.lookup("Pfanne").found
    assert sorted(p.name for p in tmp_path.iterdir()) == ["50%", "c#1", "ding.txt.xz", "what?"]
