"""The desktop window, driven offscreen with pytest-qt against tiny random-weight bundles."""

from __future__ import annotations

import json
import re
import sqlite3

import numpy as np
import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from conftest import translate_in  # noqa: E402
from translator_app.core import Translator  # noqa: E402
from translator_app.gui.dialogs.history import History  # noqa: E402
from translator_app.gui.shared.settings import Settings  # noqa: E402
from translator_app.gui.views.linking import alternatives, link_from_source  # noqa: E402

TIMEOUT = 20_000


def translate(qtbot, window, text: str) -> str:
    return translate_in(qtbot, window, text, TIMEOUT)


def test_typing_translates_like_the_engine(qtbot, open_window, app_env):
    w = open_window()
    assert w.model_info.name == "run"
    shown = translate(qtbot, w, "Guten Morgen!\n\n  Wie geht es dir?")
    assert shown == "Good morning!\n\n  How are you?"
    expected = Translator.load(app_env, "cpu").translate(["Guten Morgen!"], beam=1)
    assert expected[0].text == "Good morning!"
    assert w.output_edit.toPlainText() == shown
    assert "ms" in w.time_label.text() and "run" in w.model_label.text()
    assert "cpu" in w.device_label.text()


def test_a_burst_of_edits_shows_only_the_last_and_leaves_no_backlog(qtbot, open_window):
    w = open_window()
    shown, results = [], []
    w.translation_shown.connect(shown.append)
    w.session.worker.revised.connect(lambda r: r.stage == "english" and results.append(r))
    words = [
        "Das",
        "Haus",
        "ist",
        "groß.",
        "Ich",
        "habe",
        "einen",
        "Hund.",
        "Sie",
        "hat",
        "eine",
        "Katze.",
    ]
    text = ""
    for i in range(50):
        text += words[i % len(words)] + " "
        w.source_edit.setPlainText(text)
        w.translate_now()  # bypass the debounce: every edit really sends a request
    qtbot.waitUntil(lambda: bool(shown), timeout=TIMEOUT)
    qtbot.wait(300)
    last = Translator.from_bundle(w_bundle(w), "auto").translate_document(text, beam=1).output
    assert shown == [last]  # nothing from the 49 earlier edits was displayed
    assert len(results) < 50
    assert w.session.worker._translate is None and not w.session.pending  # no backlog


def w_bundle(window):
    from translator_app.core.engine.bundle import load_bundle

    return load_bundle(window.model_info.path, "cpu")


def test_unchanged_sentences_come_from_the_cache(qtbot, open_window):
    w = open_window()
    translate(qtbot, w, "Ich habe einen Hund. Sie hat eine Katze.")
    results = []
    w.session.worker.revised.connect(lambda r: r.stage == "english" and results.append(r))
    shown = translate(qtbot, w, "Ich habe einen Hund. Das Haus ist groß.")
    qtbot.waitUntil(lambda: bool(results))  # each queued slot gets its own event
    assert [t.source for t in results[0].translations] == ["Das Haus ist groß."]
    assert shown == "I have a dog. The house is big."


def test_heatmap_has_the_shape_of_the_sentence_under_the_cursor(qtbot, open_window):
    w = open_window()
    translate(qtbot, w, "Ich habe einen Hund. Das Wetter ist heute schön.")
    cursor = w.source_edit.textCursor()
    cursor.setPosition(len("Ich habe einen Hund. Das W"))
    w.source_edit.setTextCursor(cursor)
    second = w.highlighter.shown.translations[1]
    assert w.alignment.translation is second
    assert w.alignment.matrix.shape == (len(second.target_pieces), len(second.source_pieces))
    # Translations come with the alignment only: the default view needs no more.
    assert second.best.layers is None
    assert np.allclose(w.alignment.matrix, second.best.attention)
    # Another layer / head is computed when picked (a worker request), then shown: it
    # changes the picture but not its shape.
    w.alignment.layer_box.setCurrentIndex(1)
    w.alignment.head_box.setCurrentIndex(2)
    qtbot.waitUntil(lambda: w.alignment.translation.best.layers is not None, timeout=10_000)
    explained = w.alignment.translation
    assert explained.source == second.source and explained.text == second.text
    assert w.alignment.matrix.shape == (len(second.target_pieces), len(second.source_pieces))
    assert np.allclose(w.alignment.matrix, explained.best.layers[:, 1, 1])
    # Back on the same sentence later, the computed layers are reused.
    w.alignment.show_translation(None)
    w.alignment.show_translation(second)
    assert w.alignment.translation is explained


def test_cursor_highlights_the_aligned_words_and_stale_text_clears_them(qtbot, open_window):
    w = open_window()
    translate(qtbot, w, "Das Haus ist groß.")
    cursor = w.source_edit.textCursor()
    cursor.setPosition(5)  # inside "Haus"
    w.source_edit.setTextCursor(cursor)
    link = link_from_source(w.highlighter.shown, 5)
    expected = {(s, e) for s, e, _ in link.ranges}
    assert expected and set(w.highlighted_ranges("output")) == expected
    # The argmax of the attention column lies in a highlighted English word, and every
    # highlight is a whole word: no letter of a word left out (issue 61 §5).
    t = w.highlighter.shown.translations[0]
    top = int(np.argmax(t.best.attention[:-1, link.piece]))
    a, b = t.best.target_spans[top]
    text = w.highlighter.shown.output
    assert any(s <= a and b <= e for s, e in expected)
    for s, e in expected:
        assert text[s:e].strip() == text[s:e]
        assert (s == 0 or not text[s - 1].isalnum()) and (e == len(text) or not text[e].isalnum())
    w.source_edit.insertPlainText("x")  # stale until retranslated
    assert w.highlighted_ranges("output") == []


def test_output_cursor_highlights_the_source(qtbot, open_window):
    w = open_window()
    translate(qtbot, w, "Das Haus ist groß.")
    cursor = w.output_edit.textCursor()
    cursor.setPosition(1)
    w.output_edit.setTextCursor(cursor)
    assert w.highlighted_ranges("source")
    assert w.alignment.current_row is not None


def test_choosing_an_alternative_redecodes_with_the_forced_prefix(qtbot, open_window):
    s = Settings.load()
    s.beam, s.nbest, s.debounce_ms = 4, 4, 10
    w = open_window(s)
    translate(qtbot, w, "Wir gehen nach Hause.")
    t = w.highlighter.shown.translations[0]
    alts = [a for piece in range(len(t.best.target_ids) - 1) for a in alternatives(t, piece)]
    assert alts, "a 4-best list offers alternatives somewhere"
    alt = alts[0]
    menu = w.words.menu_at(w.highlighter.shown.output_spans[0][0])
    assert menu is not None and menu.actions()
    with qtbot.waitSignal(w.translation_shown, timeout=TIMEOUT):
        w.words.force_prefix(0, alt.prefix)
    best = w.highlighter.shown.translations[0].best
    assert best.target_ids[: len(alt.prefix)] == alt.prefix
    assert best.target_ids != t.best.target_ids
    # Alternatives are named by the words they make, never by pieces.
    assert all("▁" not in a.label and not a.label.startswith("<") for a in alts)
    # The choice can be undone from the same menu.
    menu = w.words.menu_at(w.highlighter.shown.output_spans[0][0])
    undo = [a for a in menu.actions() if a.text().startswith("Undo my choice")]
    assert len(undo) == 1
    with qtbot.waitSignal(w.translation_shown, timeout=TIMEOUT):
        undo[0].trigger()
    assert w.highlighter.shown.translations[0].best.target_ids == t.best.target_ids
    menu = w.words.menu_at(w.highlighter.shown.output_spans[0][0])
    assert not [a for a in menu.actions() if a.text().startswith("Undo my choice")]


def test_the_word_menu_fills_in_the_models_alternatives(qtbot, open_window):
    """The menu opens at once; the model's alternatives for exactly that word arrive from
    the worker and replace the note; choosing one forces the whole word shown, and the
    sentence goes on from it."""
    from translator_app.gui.window.word_menu import LOOKING

    w = open_window()  # greedy, n-best 1: no n-best alternatives at all
    translate(qtbot, w, "Wir gehen nach Hause.")
    d = w.highlighter.shown
    t = d.translations[0]
    pos = d.output_spans[0][0] + len(t.best.text.split()[0]) + 1  # the second word
    with qtbot.waitSignal(w.session.alternatives_found, timeout=TIMEOUT) as found:
        menu = w.words.menu_at(pos)
        assert LOOKING in [a.text() for a in menu.actions()]
    translation, piece, candidates = found.args
    assert translation is t and candidates, "the model offers other words here"
    assert all(c.target_ids[:piece] == t.best.target_ids[:piece] for c in candidates)
    items = [a for a in menu.actions() if a.data() == "alternative"]
    texts = [a.text() for a in menu.actions()]
    assert items and LOOKING not in texts
    assert all("▁" not in x and "<0x" not in x and "</s>" not in x for x in texts)
    # reopened: the kept alternatives at once, no second request
    again = [a.text() for a in w.words.menu_at(pos).actions() if a.data() == "alternative"]
    assert again == [a.text() for a in items]
    label = items[0].text().split("    — ")[0]
    with qtbot.waitSignal(w.translation_shown, timeout=TIMEOUT):
        items[0].trigger()
    new = w.highlighter.shown.translations[0].best
    assert new.target_ids[:piece] == t.best.target_ids[:piece]
    assert new.target_ids[piece] != t.best.target_ids[piece]
    assert label in new.text


def test_a_chosen_word_says_its_attention_is_the_replaced_words(qtbot, open_window):
    """After choosing an alternative the word's menu showed "the old word's attention"
    (issue 89 §5): it is the same row by construction (the step that writes a word
    attends before the word is chosen), and the menu now says so, naming the model's
    word; the words after it, decoded anew, say nothing of the kind."""
    w = open_window()
    translate(qtbot, w, "Wir gehen nach Hause.")
    d = w.highlighter.shown
    t = d.translations[0]
    pos = d.output_spans[0][0] + len(t.best.text.split()[0]) + 1  # the second word
    with qtbot.waitSignal(w.session.alternatives_found, timeout=TIMEOUT) as found:
        w.words.menu_at(pos)
    _, piece, candidates = found.args
    assert not [a for a in w.words.menu_at(pos).actions() if a.data() == "same-attention"]
    with qtbot.waitSignal(w.translation_shown, timeout=TIMEOUT):
        w.words.force_prefix(0, candidates[0].target_ids[: piece + 1])
    new = w.highlighter.shown.translations[0]
    assert new.best.target_ids[piece] != t.best.target_ids[piece]
    np.testing.assert_allclose(new.best.attention[piece], t.best.attention[piece], atol=1e-5)
    old_word = t.best.text.split()[1].strip(".,")
    notes = [a.text() for a in w.words.menu_at(pos).actions() if a.data() == "same-attention"]
    assert len(notes) == 1 and f"“{old_word}”" in notes[0], notes
    end = w.highlighter.shown.output_spans[0][1] - 2  # the last word, decoded anew
    assert not [a for a in w.words.menu_at(end).actions() if a.data() == "same-attention"]


def test_switching_model_and_device(qtbot, open_window, make_bundle):
    w = open_window()
    translate(qtbot, w, "Guten Tag.")
    rnn = make_bundle("gru-bahdanau-additive", name="tiny-rnn")
    with qtbot.waitSignal(w.session.worker.model_loaded, timeout=TIMEOUT):
        w.models.open_folder(str(rnn))
    assert w.model_info.arch == "rnn" and w.model_info.name == "tiny-rnn"
    assert not w.alignment.layer_box.isEnabled()
    qtbot.waitUntil(
        lambda: w.highlighter.shown is not None and not w.highlighter.stale, timeout=TIMEOUT
    )
    assert [a.isChecked() for a in w.models.actions if a.data() == str(rnn)] == [True]
    with qtbot.waitSignal(w.session.worker.model_loaded, timeout=TIMEOUT):
        w.models.choose_device("cpu")
    assert w.model_info.device.startswith("cpu") and w.settings.device == "cpu"
    import torch

    if not torch.cuda.is_available():
        with qtbot.waitSignal(w.session.worker.model_loaded, timeout=TIMEOUT):
            w.models.choose_device("cuda")
        assert w.model_info.device.startswith("cpu")
        assert "CUDA" in w.messages.last_error


def test_a_folder_without_a_model_is_refused(qtbot, open_window, tmp_path):
    w = open_window()
    w.models.open_folder(str(tmp_path))
    assert "not a model folder" in w.messages.last_error
    assert w.model_info.name == "run"


def test_history_records_searches_and_deletes(tmp_path):
    h = History(tmp_path / "h.sqlite3", merge_seconds=10)
    h.record("Guten", "Good", "m", now=100.0)
    h.record("Guten Morgen", "Good morning", "m", now=101.0)  # same text, still typing
    h.record("Das Haus", "The house", "m", now=200.0)
    assert [e.source for e in h.search()] == ["Das Haus", "Guten Morgen"]
    assert [e.output for e in h.search("MORGEN")] == ["Good morning"]
    assert h.search("100%") == []
    h.delete(h.search("Haus")[0].id)
    assert len(h) == 1
    h.clear()
    assert len(h) == 0


def test_window_writes_history_unless_turned_off(qtbot, open_window, tmp_path):
    w = open_window()
    translate(qtbot, w, "Ich lese ein Buch.")
    assert [e.source for e in w.history.search("Buch")] == ["Ich lese ein Buch."]
    w.settings.history_enabled = False
    translate(qtbot, w, "Ein ganz anderer Satz.")
    assert w.history.search("anderer") == []


def test_settings_persist_across_a_restart(qtbot, open_window):
    w = open_window()
    w.settings.beam, w.settings.font_size, w.settings.layout = 3, 17, "stacked"
    w.apply_settings()
    w.resize(700, 500)
    w.close()
    s = Settings.load()
    assert (s.beam, s.font_size, s.layout) == (3, 17, "stacked")
    w2 = open_window(s)
    assert w2.source_edit.font().pointSize() == 17
    assert (w2.size().width(), w2.size().height()) == (700, 500)


def test_damaged_settings_and_history_are_set_aside(qtbot, open_window, tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text("{not json")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "history.sqlite3").write_bytes(b"garbage" * 1000)
    w = open_window(Settings.load())
    assert w.settings.beam == Settings().beam
    assert list((tmp_path / "config").glob("settings.json.damaged-*"))
    assert list((tmp_path / "data").glob("history.sqlite3.damaged-*"))
    assert w.settings.problem and w.history.problem
    translate(qtbot, w, "Es geht weiter.")
    assert len(w.history) == 1


def test_wrong_types_in_settings_fall_back_to_defaults(app_env, tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(
        json.dumps({"beam": "four", "nbest": True, "font_size": 99, "layout": "diagonal"})
    )
    s = Settings.load()
    assert (s.beam, s.nbest, s.font_size, s.layout) == (None, None, 48, "side-by-side")
    (tmp_path / "config" / "settings.json").write_text(json.dumps({"beam": 3, "nbest": None}))
    assert (Settings.load().beam, Settings.load().nbest) == (3, None)


def test_a_worker_exception_is_shown_once_and_the_app_keeps_working(
    qtbot, open_window, monkeypatch
):
    w = open_window()
    original = Translator.translate

    def broken(self, *a, **k):
        raise RuntimeError("simulated engine failure")

    monkeypatch.setattr(Translator, "translate", broken)
    with qtbot.waitSignal(w.session.worker.failed, timeout=TIMEOUT):
        w.source_edit.setPlainText("Eins.")
    assert "simulated engine failure" in w.statusBar().currentMessage()
    with qtbot.waitSignal(w.session.worker.failed, timeout=TIMEOUT):
        w.source_edit.setPlainText("Zwei.")
    assert len([e for e in w.messages.shown_errors if "simulated" in e]) == 1
    monkeypatch.setattr(Translator, "translate", original)
    assert translate(qtbot, w, "Drei.")


def test_open_save_and_bad_files(qtbot, open_window, tmp_path):
    w = open_window()
    good = tmp_path / "in.txt"
    good.write_text("Hallo Welt.\n", encoding="utf-8")
    with qtbot.waitSignal(w.translation_shown, timeout=TIMEOUT):
        assert w.files.open(str(good))
    out = tmp_path / "out.txt"
    assert w.files.save(str(out)) and out.read_text().strip() == w.output_edit.toPlainText().strip()
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("Gr\xfc\xdfe".encode("latin-1"))
    assert not w.files.open(str(bad))
    assert "not UTF-8" in w.messages.last_error and str(bad) in w.messages.last_error
    assert w.source_edit.toPlainText() == "Hallo Welt.\n"  # nothing lost


def test_open_and_save_a_document_keeping_its_layout(qtbot, open_window, tmp_path):
    """File → Open a .docx: one line per paragraph in the German box; Save translation
    as .docx writes the document again with its heading and list item."""
    from docx import Document

    d = Document()
    d.add_heading("Guten Morgen", level=1)
    d.add_paragraph("Das Haus ist groß.", style="List Bullet")
    d.save(str(tmp_path / "brief.docx"))
    w = open_window()
    with qtbot.waitSignal(w.translation_shown, timeout=TIMEOUT):
        assert w.files.open(str(tmp_path / "brief.docx"))
    assert w.source_edit.toPlainText() == "Guten Morgen\nDas Haus ist groß."
    qtbot.waitUntil(lambda: w.highlighter.shown is not None and w.highlighter.shown.complete)
    out = tmp_path / "brief.en.docx"
    assert w.files.save(str(out))
    paras = Document(str(out)).paragraphs
    assert [p.style.name for p in paras] == ["Heading 1", "List Bullet"]
    assert "\n".join(p.text for p in paras) == w.output_edit.toPlainText()
    # A .odt translation needs an .odt document; a line more than the document has
    # paragraphs cannot be placed: both say so and write nothing.
    assert not w.files.save(str(tmp_path / "x.odt"))
    assert "made from a .odt document" in w.messages.last_error
    with qtbot.waitSignal(w.translation_shown, timeout=TIMEOUT):
        w.source_edit.setPlainText("Guten Morgen\nDas Haus ist groß.\nNoch eine Zeile.")
    qtbot.waitUntil(lambda: w.highlighter.shown.complete and "Noch" in w.highlighter.shown.source)
    assert not w.files.save(str(tmp_path / "y.docx"))
    assert "has 2 paragraphs and the text now has 3 lines" in w.messages.last_error
    assert not (tmp_path / "x.odt").exists() and not (tmp_path / "y.docx").exists()
    broken = tmp_path / "kaputt.docx"
    broken.write_text("no zip")
    assert not w.files.open(str(broken))
    assert "kaputt.docx: not a .docx document" in w.messages.last_error
    assert w.source_edit.toPlainText().startswith("Guten Morgen")  # nothing lost


def test_heatmap_exports_png_and_svg(qtbot, open_window, tmp_path):
    w = open_window()
    translate(qtbot, w, "Guten Abend.")
    for name in ("a.png", "a.svg"):
        w.alignment.export(str(tmp_path / name))
        assert (tmp_path / name).stat().st_size > 1000
    assert (tmp_path / "a.png").read_bytes()[:4] == b"\x89PNG"
    # The picture says which layer and head it is of, in its title and its metadata.
    from PIL import Image

    with Image.open(tmp_path / "a.png") as png:
        assert "Layer" in png.text["Description"] and "Guten Abend." in png.text["Title"]
    assert "Layer" in (tmp_path / "a.svg").read_text("utf-8")


def test_exit_after_first_translation_flag(app_env, tmp_path):
    import subprocess
    import sys

    env = dict(__import__("os").environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "translator_app",
            "gui",
            "--exit-after-first-translation",
            "--text",
            "Guten Morgen.",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    # it says when it showed the English (bench_startup.py reads it: the exit may wait)
    assert re.search(r"^first-english-shown-at \d+\.\d{3}$", proc.stderr, re.MULTILINE)


def test_corrupt_history_rows_do_not_break_search(tmp_path):
    path = tmp_path / "h.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE history (id INTEGER PRIMARY KEY)")  # an old, wrong schema
    db.commit()
    db.close()
    h = History(path)
    assert h.problem and len(h) == 0


def test_a_lost_fact_is_offered_kept_in_the_word_menu(qtbot, open_window):
    """A sentence whose English loses a fact (the stand-in model loses the price): its
    word menu offers the sentence decoded with the fact's English forced in (issue 88
    §2), filled in when the worker has it; one click takes it, and the choice can be
    undone like an alternative."""
    w = open_window()
    german = "Der Mantel kostet 1.249,90 €."
    translate(qtbot, w, german)
    t = w.highlighter.shown.translations[0]
    assert t.issues, "the stand-in loses the price; else this tests nothing"
    with qtbot.waitSignal(w.session.fixes_found, timeout=TIMEOUT) as found:
        menu = w.words.menu_at(w.highlighter.shown.output_spans[0][0])
        assert any(a.text().startswith("Keeping „1.249,90“") for a in menu.actions())
    translation, fixes = found.args
    assert translation is t and [f.text for f, _ in fixes] == [f.text for f in t.issues]
    items = [a for a in menu.actions() if a.data() == "fix"]
    assert items and not [a for a in menu.actions() if a.text().startswith("Keeping")]
    fixed = next(c for f, c in fixes if f.text == "1.249,90")
    assert "1,249.90" in fixed.text  # what the item shows
    assert items[0].text().endswith(fixed.text)
    with qtbot.waitSignal(w.translation_shown, timeout=TIMEOUT):
        items[0].trigger()
    shown = w.highlighter.shown.translations[0]
    assert "1,249.90" in shown.best.text and not any(f.text == "1.249,90" for f in shown.issues)
    menu = w.words.menu_at(w.highlighter.shown.output_spans[0][0])
    undo = [a for a in menu.actions() if a.text().startswith("Undo my choice")]
    with qtbot.waitSignal(w.translation_shown, timeout=TIMEOUT):
        undo[0].trigger()
    assert w.highlighter.shown.translations[0].best.target_ids == t.best.target_ids
