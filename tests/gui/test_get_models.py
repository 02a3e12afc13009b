"""Model → Get models…: the window downloads a model from a source on 127.0.0.1 (a tiny
Marian model made by the test), shows its progress, offers to switch and remembers the
choice; a failure is one sentence in the dialog; Cancel keeps what arrived for Resume."""

from __future__ import annotations

import json

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QTextBrowser

from translator_app.core.downloads import transfer
from translator_app.gui.dialogs.secondary_dialogs import ModelCardDialog

pytest.importorskip("transformers")
from model_source import ModelSource  # noqa: E402

from tiny_marian import make_hf_model  # noqa: E402

SHAPE = {"d_model": 16, "encoder_layers": 1, "decoder_layers": 1, "heads": 2, "ffn": 32}


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny-hf")
    make_hf_model(folder, SHAPE)
    (folder / "generation_config.json").unlink(missing_ok=True)
    return folder


@pytest.fixture
def source(tiny_folder, tmp_path, monkeypatch, app_env):
    monkeypatch.setattr(transfer, "CHUNK_BYTES", 4096)
    with ModelSource(tiny_folder, repo="test/tiny", revision="cd" * 20) as s:
        catalogue = tmp_path / "catalogue.json"
        catalogue.write_text(json.dumps({"models": [s.entry()]}))
        monkeypatch.setenv("TRANSLATOR_CATALOGUE", str(catalogue))
        monkeypatch.setenv("TRANSLATOR_MODEL_SOURCE", s.url)
        yield s


def open_get_models(w):
    [action] = [a for a in w.findChildren(QAction) if a.text() == "G&et models…"]
    action.trigger()
    return w.models.get_models


def test_a_model_is_downloaded_shown_and_switched_to(qtbot, open_window, source, monkeypatch):
    asked = []
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: asked.append(a) or QMessageBox.Yes)
    )
    w = open_window()
    d = open_get_models(w)
    assert d.isVisible() and d.table.rowCount() == 1
    assert d.table.item(0, 0).text() == "Tiny test model"
    assert d.table.item(0, 4).text() == "Not installed"
    assert "CC-BY-4.0" in d.table.item(0, 3).text() and "nothing 1.0" in d.table.item(0, 2).text()
    assert not source.requests  # nothing contacted before Download
    seen = []
    d.downloader.progress.connect(lambda p: seen.append(p))
    d.download.click()
    qtbot.waitUntil(lambda: d.status.text().startswith("Installed in"), timeout=60_000)
    assert any(p.stage == "downloading" and p.done == p.total for p in seen)
    assert asked and "Translate with it now?" in asked[0][2]
    qtbot.waitUntil(
        lambda: w.model_info is not None and w.model_info.name == "Tiny test model", timeout=20_000
    )
    assert w.settings.model.endswith("tiny-test")  # remembered for the next start
    # The window says which features this model does not get, and why.
    said = w.statusBar().currentMessage()
    assert said.startswith("Tiny test model: no glossary, taught terms") and "annotations" in said
    card = ModelCardDialog("x", w.model_info.card, w, w.model_info.features)
    text = card.findChild(QTextBrowser).toPlainText()
    assert "What the app does with this model" in text
    assert "glossary (your terms used in the English): no; it needs a model trained" in text
    assert any(a.text() == "tiny-test" for a in w.models.actions)
    assert d.table.item(0, 4).text() == "Installed"
    assert not d.download.isEnabled() and d.remove.isEnabled()
    assert "ms per sentence here" in d.details.text()  # measured once installed
    # Remove: the bundled model takes over, the menu forgets it.
    d.table.selectRow(0)
    d.remove.click()
    assert d.status.text() == "Removed Tiny test model."
    qtbot.waitUntil(
        lambda: w.model_info is not None and w.model_info.name != "Tiny test model", timeout=20_000
    )
    assert not any(a.text() == "tiny-test" for a in w.models.actions)


def test_a_failed_download_is_one_sentence_and_no_model(qtbot, open_window, source):
    source.bad.missing.add("model.safetensors")
    w = open_window()
    d = open_get_models(w)
    before = [a.text() for a in w.models.actions]
    d.download.click()
    qtbot.waitUntil(lambda: "404" in d.status.text(), timeout=30_000)
    assert "\n" not in d.status.text() and not d.bar.isVisible()
    assert [a.text() for a in w.models.actions] == before
    assert d.table.item(0, 4).text() != "Installed"


def test_cancel_keeps_what_arrived_and_offers_resume(qtbot, open_window, source, monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.No))
    source.bad.delay_s = 0.01
    w = open_window()
    d = open_get_models(w)
    d.download.click()
    assert d.download.text() == "&Cancel download"
    qtbot.waitUntil(lambda: "MB" in d.bar.format() and d.bar.value() > 0, timeout=30_000)
    d.download.click()
    qtbot.waitUntil(lambda: d.status.text().startswith("Cancelled"), timeout=30_000)
    assert d.table.item(0, 4).text().startswith("Partly downloaded")
    assert d.download.text() == "&Resume download"
    from translator_app.core.downloads.getting import staging_dir

    held = {p.name: p.stat().st_size for p in staging_dir(d.entries[0]).iterdir()}
    source.bad.delay_s = 0.0
    source.requests.clear()
    d.download.click()
    qtbot.waitUntil(lambda: d.status.text().startswith("Installed in"), timeout=60_000)
    asked = {p.rsplit("/", 1)[-1]: r for p, r in source.requests if "/resolve/" in p}
    for name, size in held.items():  # what arrived is not fetched again
        if name.endswith(".part") and size:
            assert asked[name.removesuffix(".part")] == f"bytes={size}-"
        elif not name.endswith(".part") and not name.startswith("."):
            assert name not in asked


def test_the_dialog_closes_and_opens_again(qtbot, open_window, source, monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.No))
    w = open_window()
    d = open_get_models(w)
    d.download.click()
    qtbot.waitUntil(
        lambda: d.status.text().startswith("Installed in") or "?" in d.status.text(), timeout=60_000
    )
    d.close()
    assert not d.isVisible()
    assert open_get_models(w) is d and d.isVisible()


def test_closing_during_a_download_asks_and_stops_it(qtbot, open_window, source, monkeypatch):
    answers = [QMessageBox.No, QMessageBox.Yes]
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: answers.pop(0)))
    source.bad.delay_s = 0.01
    w = open_window()
    d = open_get_models(w)
    d.download.click()
    qtbot.waitUntil(lambda: d.bar.value() > 0, timeout=30_000)
    d.close()  # "No": the dialog stays and the download goes on
    assert d.isVisible() and d.downloader.busy
    d.close()  # "Yes": stopped, what arrived kept
    assert not d.isVisible()
    qtbot.waitUntil(lambda: not d.downloader.busy, timeout=30_000)
    assert d.status.text().startswith("Cancelled")
    assert not any(a.text() == "tiny-test" for a in w.models.actions)


def test_compare_models_shows_an_imported_model_with_its_heatmap(qtbot, open_window, tiny_folder):
    """Compare, one of the features an imported model gets (engine/model_features.py)."""
    from translator_app.core.importers.marian import import_marian
    from translator_app.core.platform.paths import user_models_dir

    imported = import_marian(tiny_folder, user_models_dir() / "opus-tiny")
    w = open_window()
    [action] = [
        a for a in w.findChildren(QAction) if a.text().replace("&", "") == "Compare models…"
    ]
    action.trigger()
    dialog = w.dialogs.compare
    right = dialog.panes[1]
    right.models.setCurrentIndex(right.models.findData(str(imported)))
    dialog.sentence.setText("Der Hund läuft.")
    dialog.translate()
    qtbot.waitUntil(lambda: right.english.text() != "", timeout=30_000)
    assert not right.english.text().startswith("Could not translate"), right.english.text()
    assert right.architecture.text().startswith("Transformer")
    assert right.figure.axes and right.figure.axes[0].get_images()  # its heat-map
    dialog.close()
