"""Adapting the model from the app: corrections, the Teach dialog, fine-tune, cancel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from conftest import DATA  # noqa: E402
from translator_app.core.data.corrections import CorrectionsStore, pairs_from_edit  # noqa: E402
from translator_app.gui.teach.finetune_process import preview_data  # noqa: E402

FINETUNE_TIMEOUT = 240_000


def translate(qtbot, window, text: str) -> str:
    with qtbot.waitSignal(window.translation_shown, timeout=20_000) as blocker:
        window.source_edit.setPlainText(text)
    return blocker.args[0]


# ------------------------------------------------------------------ corrections
def test_pairs_from_edit_keep_only_the_edited_lines():
    source, output = "Guten Morgen!\n\nDanke.\nTschüss.", "Good morning!\n\nThanks.\nBye."
    assert pairs_from_edit(source, output, "Good day!\n\nThanks.\nBye.") == [
        ("Guten Morgen!", "Good day!")
    ]
    assert pairs_from_edit(source, output, "Good day!\n\nThanks.\nSee you.") == [
        ("Guten Morgen!", "Good day!"),
        ("Tschüss.", "See you."),
    ]
    assert pairs_from_edit(source, output, output) == []
    # The user joined two lines: the whole text is one pair.
    assert pairs_from_edit("Eins.\nZwei.", "One.\nTwo.", "One, two.") == [
        ("Eins. Zwei.", "One, two.")
    ]
    assert pairs_from_edit("Eins.\nZwei.", "One.\nTwo.", "One. Two.") == []  # only joined


def test_corrections_round_trip_through_storage(tmp_path):
    path = tmp_path / "corrections.tsv"
    store = CorrectionsStore(path)
    assert store.add([("Guten Morgen!", "Good day!"), ("Ein\tTab", "A\nbreak")]) == 2
    assert store.add([("Guten Morgen!", "Good day!")]) == 0  # stored once
    again = CorrectionsStore(path)
    assert again.pairs == [("Guten Morgen!", "Good day!"), ("Ein Tab", "A break")]
    again.replace([("Guten Morgen!", "Morning!")])
    assert CorrectionsStore(path).pairs == [("Guten Morgen!", "Morning!")]
    # The file is training data as it is: the trainer reads it.
    assert [p for p in preview_data([str(path)], []).sources] == [("corrections.tsv", 1)]


def test_a_damaged_corrections_file_is_reported_and_kept(tmp_path):
    path = tmp_path / "corrections.tsv"
    path.write_text("Hallo\tHello\nno tab here\n", encoding="utf-8")
    store = CorrectionsStore(path)
    assert store.pairs == [("Hallo", "Hello")]
    assert "line(s) 2" in store.problem
    store.add([("Danke", "Thanks")])
    kept = list(tmp_path.glob("corrections.tsv.damaged-*"))
    assert len(kept) == 1 and "no tab here" in kept[0].read_text("utf-8")


def test_editing_the_output_stores_a_correction(qtbot, open_window):
    w = open_window()
    translate(qtbot, w, "Guten Morgen!")
    w.begin_correction()
    assert w.correction.active and not w.output_edit.isReadOnly()
    # The mode shows above the English box, not in the status bar.
    assert w.correction_label.isVisible()
    assert w.correction_label.parentWidget() is w.output_edit.parentWidget()
    w.output_edit.setPlainText("Good day!")
    assert "“Guten Morgen!” → “Good day!”" in w.correction_label.text()
    assert w.correction.save() == 1
    assert not w.correction.active and w.output_edit.isReadOnly()
    assert not w.correction_label.isVisible()
    assert w.output_edit.toPlainText() == "Good day!"
    # The panel still shows the model's attention, and says whose English that is.
    w.alignment.flush()
    assert "you corrected it" in w.alignment.title_text
    stored = CorrectionsStore(w.corrections.path)
    assert stored.pairs == [("Guten Morgen!", "Good day!")]


def test_a_correction_keeps_only_the_lines_the_user_edited(qtbot, open_window):
    """Correcting one line of a letter must not store the model's other lines (a later
    fine-tune would learn their errors)."""
    w = open_window()
    output = translate(qtbot, w, "Guten Morgen!\nIch habe einen Hund.\nDas Haus ist groß.")
    lines = output.split("\n")
    assert len(lines) == 3
    w.begin_correction()
    assert "edit the English, then Ctrl+Shift+S keeps it" in w.correction_label.text()
    w.output_edit.setPlainText("\n".join([lines[0], "I own a dog.", lines[2]]))
    assert "Ctrl+Shift+S keeps 1 edited pair: “Ich habe" in w.correction_label.text()
    assert w.correction.save() == 1
    assert CorrectionsStore(w.corrections.path).pairs == [("Ich habe einen Hund.", "I own a dog.")]


def test_two_windows_keep_each_others_corrections(qtbot, open_window):
    """Each window read corrections.tsv when it opened and rewrote the whole file on
    save, so the second window's save dropped the first one's pairs (issue 65, §4)."""
    first, second = open_window(), open_window()
    for window, german, english in (
        (first, "Guten Morgen!", "Good day!"),
        (second, "Danke schön.", "Thanks a lot."),
    ):
        translate(qtbot, window, german)
        window.begin_correction()
        window.output_edit.setPlainText(english)
        assert window.correction.save() == 1
    both = [("Guten Morgen!", "Good day!"), ("Danke schön.", "Thanks a lot.")]
    assert CorrectionsStore(first.corrections.path).pairs == both
    assert first.corrections.pairs == both  # the first window sees the second's pair


def test_an_edit_of_the_list_keeps_pairs_another_window_added(tmp_path):
    path = tmp_path / "corrections.tsv"
    mine, theirs = CorrectionsStore(path), CorrectionsStore(path)
    mine.add([("Hallo", "Hello"), ("Tschüss", "Bye")])
    shown = list(mine.pairs)  # the list dialog opens in this window
    theirs.add([("Danke", "Thanks")])
    mine.replace([("Hallo", "Hi")], shown)  # "Bye" deleted, "Hello" changed
    assert CorrectionsStore(path).pairs == [("Danke", "Thanks"), ("Hallo", "Hi")]
    mine.replace([("Danke", "Thank you"), ("Hallo", "Hi")], list(mine.pairs))
    assert CorrectionsStore(path).pairs == [("Danke", "Thank you"), ("Hallo", "Hi")]


def test_processes_adding_at_once_lose_nothing(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "corrections.tsv"
    code = (
        "import sys; from pathlib import Path\n"
        "from translator_app.core.data.corrections import CorrectionsStore\n"
        "s = CorrectionsStore(Path(sys.argv[1]))\n"
        "for i in range(40): s.add([(f'Satz {sys.argv[2]}{i}', f'Sentence {i}')])\n"
    )
    runs = [
        subprocess.Popen([sys.executable, "-c", code, str(path), tag]) for tag in ("a", "b", "c")
    ]
    assert [r.wait(timeout=120) for r in runs] == [0, 0, 0]
    assert len(CorrectionsStore(path).pairs) == 120
    assert not list(tmp_path.glob(".*lock"))


def test_saving_an_unedited_correction_keeps_nothing(qtbot, open_window):
    w = open_window()
    translate(qtbot, w, "Guten Morgen!")
    w.begin_correction()
    assert w.correction.save() == 0 and not w.correction.active
    assert CorrectionsStore(w.corrections.path).pairs == []


def test_corrections_dialog_edits_deletes_and_exports(qtbot, tmp_path):
    from translator_app.gui.dialogs.corrections_dialog import CorrectionsDialog

    store = CorrectionsStore(tmp_path / "c.tsv")
    store.add([("Eins", "One"), ("Zwei", "Too"), ("Drei", "Three")])
    dialog = CorrectionsDialog(store)
    qtbot.addWidget(dialog)
    dialog.table.item(1, 1).setText("Two")
    dialog.table.selectRow(2)
    dialog.delete_selected()
    message = dialog.export_to(str(tmp_path / "export.tsv"))
    assert "2 pair" in message
    assert (tmp_path / "export.tsv").read_text("utf-8") == "Eins\tOne\nZwei\tTwo\n"
    dialog.save_and_close()
    assert CorrectionsStore(tmp_path / "c.tsv").pairs == [("Eins", "One"), ("Zwei", "Two")]


def test_an_empty_corrections_dialog_says_how_to_add_one(qtbot, tmp_path):
    from translator_app.gui.dialogs.corrections_dialog import CorrectionsDialog

    dialog = CorrectionsDialog(CorrectionsStore(tmp_path / "none.tsv"))
    qtbot.addWidget(dialog)
    assert "F2" in dialog.info.text() and "Ctrl+Shift+S" in dialog.info.text()


# ---------------------------------------------------------------- Teach dialog
def test_teach_dialog_explains_bad_files(qtbot, open_window, tmp_path):
    w = open_window()
    bad = tmp_path / "bad.tsv"
    bad.write_text("Hallo\tHello\nkein Tabulator\n", encoding="utf-8")
    lonely = tmp_path / "only.de"
    lonely.write_text("Hallo\n", encoding="utf-8")
    broken = tmp_path / "broken.tmx"
    broken.write_text("<tmx><body><tu>", encoding="utf-8")
    dialog = w.dialogs.teach_dialog()
    with qtbot.waitSignal(dialog.preview_ready, timeout=20_000):  # read off the GUI thread
        dialog.add_files([str(bad), str(lonely), str(broken)])
    text = dialog.summary.toPlainText()
    assert f"{bad}:2:" in text
    assert "only.en" in text  # the missing English side is named
    assert "broken.tmx" in text
    assert "Fix or remove the files with errors" in text
    assert not dialog.start_button.isEnabled()
    # Too little data is explained too.
    dialog.files.clear()
    few = tmp_path / "few.tsv"
    few.write_text("Hallo\tHello\nHallo\tHello\n\tEmpty\n", encoding="utf-8")
    with qtbot.waitSignal(dialog.preview_ready, timeout=20_000):  # read off the GUI thread
        dialog.add_files([str(few)])
    text = dialog.summary.toPlainText()
    assert "Pairs kept: 1 of 3" in text and "exact duplicate" in text and "empty side" in text
    assert "At least 10 usable pairs" in text and not dialog.start_button.isEnabled()
    dialog.close()


def models_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_fine_tune_through_the_dialog_adds_a_model(qtbot, open_window, tmp_path):
    w = open_window()
    w.corrections.add([("Guten Morgen!", "Good day!")])
    dialog = w.dialogs.teach_dialog()
    with qtbot.waitSignal(dialog.preview_ready, timeout=20_000):  # read off the GUI thread
        dialog.add_files([str(DATA / "tiny_pairs.tsv")])
    assert "Pairs kept: 41 of 41" in dialog.summary.toPlainText()  # 40 + the correction
    dialog.name_edit.setText("my-texts")
    assert dialog.effort.currentData() == "quick"  # the default: no epochs to choose
    assert dialog.learning_rate.currentData() == 0.0  # advanced: as the effort says
    dialog.epochs.setValue(1)
    dialog.device.setCurrentText("cpu")
    steps = []
    dialog.start()
    dialog.run.progress.connect(steps.append)
    with qtbot.waitSignal(dialog.model_added, timeout=FINETUNE_TIMEOUT) as blocker:
        pass
    new = Path(blocker.args[0])
    assert new.name == "my-texts" and (new / "model.safetensors").is_file()
    # The fine-tune handed over both models' translations: the comparison shows at once,
    # without loading a model, and the new folder can be renamed straight away.
    assert dialog.sentence_box.count() > 0 and dialog.folder_buttons[0].isEnabled()
    assert steps and steps[-1].step == steps[-1].total
    # At once in the Model menu.
    assert any(a.data() == str(new) for a in w.models.actions)
    # Before/after scores on the held-out pairs, and both models' translations.
    assert dialog.pages.currentIndex() == 2
    assert dialog.scores.item(0, 0).text() == "Base" and dialog.scores.item(1, 0).text() == "New"
    metrics = json.loads((new / "metrics.json").read_text("utf-8"))["heldout"]
    assert dialog.scores.item(1, 1).text() == f"{metrics['finetuned']['bleu']:.2f}"
    # The held-out sentences one by one; 4 of them cannot tell the models apart.
    split = metrics["sentences"]
    assert split["better"] + split["worse"] + split["same"] == metrics["pairs"] == 4
    assert "too few to tell" in dialog.result_label.text()
    # The new model's card, as the app shows it, says the same and how it was made.
    from translator_app.core.engine.model_card import for_users

    card = for_users((new / "MODEL_CARD.md").read_text("utf-8"))
    assert "## Scores on your held-out sentences" in card and "## Training data" in card
    assert "4 of your sentence pairs were set aside" in card
    assert "Sentence by sentence: {better} closer".format(**split) in card
    assert "tiny_pairs.tsv (40 pairs), your corrections (1 pair)" in card
    assert dialog.base_panel.translation is not None and dialog.new_panel.translation is not None
    # Each sentence comes with its reference, in the held-out order.
    shown = dialog.comparison
    assert [ref for _, _, ref in shown] == [en for _, en in dialog.heldout[: len(shown)]]
    assert [base.source for base, _, _ in shown] == [de for de, _ in dialog.heldout[: len(shown)]]
    # A Transformer's heatmaps can be looked at layer by layer and head by head.
    for panel in (dialog.base_panel, dialog.new_panel):
        assert panel.layer_box.isEnabled() and panel.head_box.count() > 1
    # Rename, then delete: the base model is never touched.
    base_files = sorted(p.name for p in Path(w.model_info.path).iterdir())
    assert dialog.rename("renamed").startswith("Renamed")
    renamed = new.with_name("renamed")
    assert renamed.is_dir() and not new.exists()
    assert any(a.data() == str(renamed) for a in w.models.actions)
    dialog.delete()
    assert not renamed.exists()
    assert not any(a.data() == str(renamed) for a in w.models.actions)
    assert sorted(p.name for p in Path(w.model_info.path).iterdir()) == base_files
    assert not (tmp_path / "cache" / "teach" / "my-texts").exists()


def test_cancel_leaves_nothing_behind(qtbot, open_window, tmp_path):
    # Enough pairs that an epoch takes seconds: the run is surely going when cancelled.
    pairs = [line.split("\t") for line in (DATA / "tiny_pairs.tsv").read_text("utf-8").splitlines()]
    many = tmp_path / "many.tsv"
    many.write_text(
        "".join(f"{de} {i}\t{en} {i}\n" for i in range(500) for de, en in pairs), "utf-8"
    )
    w = open_window()
    dialog = w.dialogs.teach_dialog()
    with qtbot.waitSignal(dialog.preview_ready, timeout=20_000):  # read off the GUI thread
        dialog.add_files([str(many)])
    dialog.name_edit.setText("cancelled")
    dialog.epochs.setValue(50)
    dialog.device.setCurrentText("cpu")
    models = tmp_path / "data" / "models"
    before = models_in(models)
    dialog.start()
    with qtbot.waitSignal(dialog.run.progress, timeout=FINETUNE_TIMEOUT):
        pass  # training has really started
    with qtbot.waitSignal(dialog.run.finished, timeout=30_000) as blocker:
        dialog.cancel()
    assert blocker.args[0] is False and "Cancelled" in blocker.args[1]
    assert models_in(models) == before  # no bundle, no temporary folder
    assert not (tmp_path / "cache" / "teach" / "cancelled").exists()
    assert not any("cancelled" in str(a.data()) for a in w.models.actions)


def test_the_result_is_said_plainly():
    from translator_app.gui.teach.teach_dialog import progress_text, verdict

    assert "worse" in verdict(30.0, 20.0) and "more sentence pairs" in verdict(30.0, 20.0)
    # Never advice that cannot be followed: fewer epochs only when there were several.
    assert "fewer epochs" not in verdict(30.0, 20.0, epochs=1)
    assert "fewer epochs" not in verdict(30.0, 20.0)  # the effort chose the steps
    assert "fewer epochs than 3" in verdict(30.0, 20.0, epochs=3)
    # The fine-tune's own words on terms and everyday sentences come first.
    said = verdict(20.0, 30.0, summary="learnt 8 terms from your pairs")
    assert said.startswith("The new model learnt 8 terms from your pairs.")
    assert verdict(20.0, 30.0, summary="everyday sentences unchanged").startswith(
        "Everyday sentences unchanged."
    )
    assert "better" in verdict(20.0, 30.0)
    assert "about the same" in verdict(20.0, 20.2)
    assert "too few" in verdict(None, 20.0)
    line = progress_text(5, 20, 200)
    assert line.startswith("Learning") and "25 %" in line and "3 min left" in line
    assert "loss" not in line and "step" not in line


def test_the_verdict_is_as_strong_as_its_held_out_sentences():
    """22 pairs held out 2 sentences, and the verdict said "The new model translates your
    sentences better." though one of the two got worse (issue 89 §2)."""
    from trainer.teach_recipe import sign_test
    from translator_app.gui.teach.teach_messages import BETTER, verdict

    def split(better: int, worse: int, same: int = 0) -> dict:
        return {"better": better, "worse": worse, "same": same, "p": sign_test(better, worse)}

    two = verdict(20.0, 30.0, sentences=split(1, 1))  # BLEU alone would say "better"
    assert "too few to tell" in two and BETTER not in two and "1 less close" in two
    assert BETTER in verdict(30.0, 20.0, sentences=split(15, 3, 2))  # the sentences decide
    assert "1 case in" in verdict(30.0, 20.0, sentences=split(15, 3, 2))
    assert "translates your sentences worse" in verdict(20.0, 30.0, sentences=split(2, 14))
    even = verdict(20.0, 30.0, sentences=split(10, 8, 5))
    assert "no clear difference" in even and BETTER not in even
    assert BETTER in verdict(20.0, 30.0, sentences=split(8, 0))  # few, but all one way


def test_pairs_can_be_pasted_from_a_spreadsheet_or_typed(qtbot, open_window):
    """Pairs could only be given as a file (issue 89 §2): two columns copied from a
    spreadsheet are pasted into the dialog's table, a row is typed, and a row with one
    side only is named and left out."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QTableWidgetItem

    from translator_app.gui.teach.typed_pairs import parse_pasted

    assert parse_pasted("Brot\tbread\r\nKuchen\tcake\r\n") == [
        ["Brot", "bread"],
        ["Kuchen", "cake"],
    ]
    w = open_window()
    dialog = w.dialogs.teach_dialog()
    table = dialog.typed.table
    rows = [f"Wir backen {n} Brote.\tWe bake {n} loaves." for n in range(2, 13)]
    QGuiApplication.clipboard().setText("\n".join(rows) + "\nDer Kuchen ist frisch.\n")
    table.setCurrentCell(0, 0)
    with qtbot.waitSignal(dialog.preview_ready, timeout=20_000):
        qtbot.keyClick(table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert table.rowCount() == 13  # 12 pasted and an empty one to type into
    text = dialog.summary.toPlainText()
    assert "pairs typed here: 11 pairs read" in text
    assert "Typed row 12: no English (left out)" in text
    assert dialog.start_button.isEnabled()  # 11 pairs: enough
    with qtbot.waitSignal(dialog.preview_ready, timeout=20_000):
        table.setItem(11, 1, QTableWidgetItem("The cake is fresh."))
    assert "pairs typed here: 12 pairs read" in dialog.summary.toPlainText()
    assert ("Der Kuchen ist frisch.", "The cake is fresh.") in dialog.preview.pairs
    assert dialog.preview.origin() == "pairs typed here (12 pairs)"
    dialog.close()


def test_the_german_keeps_its_marks_while_the_english_is_corrected(qtbot, open_window):
    """All marks vanished in correction mode (issue 89 §5), the German's too: what may be
    missing is what a correction mends. The English's go (its text is the user's now)."""
    from translator_app.gui.views.highlighter import FACT_BACKGROUND

    def marks(edit) -> int:
        return sum(
            s.format.background().color() == QColor(FACT_BACKGROUND) for s in edit.extraSelections()
        )

    from PySide6.QtGui import QColor

    w = open_window()
    translate(qtbot, w, "Guten Morgen! Ich habe 37 Hunde und 12 Katzen.")
    qtbot.waitUntil(lambda: marks(w.source_edit) > 0, timeout=20_000)
    before = marks(w.source_edit)
    w.begin_correction()
    assert w.correction.active
    assert marks(w.source_edit) == before and marks(w.output_edit) == 0
    w.correction.discard()
    qtbot.waitUntil(lambda: marks(w.source_edit) == before)
