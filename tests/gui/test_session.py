"""The translation session (splitting once, off the GUI thread for large texts, a busy
indicator, typed failures) and the one document pipeline it shares with the CLI."""

from __future__ import annotations

import threading

import pytest

from translator_app.core.engine.text_document import (
    IncrementalDocument,
    TranslationCache,
    find_missing,
    join_document,
    split_document,
    translate_document,
)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from conftest import translate_in  # noqa: E402
from translator_app.core import BundleError  # noqa: E402
from translator_app.gui.translating import session as session_module  # noqa: E402
from translator_app.gui.translating import worker as worker_module  # noqa: E402
from translator_app.gui.translating.worker import _failure  # noqa: E402
from translator_app.gui.translating.worker_messages import FailureKind  # noqa: E402

TIMEOUT = 20_000


class _Fake:
    """A stand-in translation: the pipeline only reads ``source`` and ``text``."""

    def __init__(self, source: str) -> None:
        self.source, self.text = source, source.upper()


def test_the_pipeline_translates_each_distinct_sentence_once_and_keeps_the_layout():
    calls = []

    def translate(sentences):
        calls.append(list(sentences))
        return [_Fake(s) for s in sentences]

    text = "Ja. Nein.\n\nJa."
    doc = translate_document(text, translate)
    assert calls == [["Ja.", "Nein."]]
    assert doc.output == "JA. NEIN.\n\nJA." and doc.complete
    for (start, end), t in zip(doc.output_spans, doc.translations, strict=True):
        assert doc.output[start:end] == t.text


def test_missing_sentences_leave_a_gap_and_are_asked_for_once():
    segments = split_document("Eins. Zwei. Eins.")
    known = {"Zwei.": _Fake("Zwei.")}
    found, missing = find_missing(segments, known.get)
    assert missing == ["Eins."] and [t is None for t in found] == [True, False, True]
    doc = join_document("Eins. Zwei. Eins.", segments, found)
    assert not doc.complete and "ZWEI." in doc.output and "EINS" not in doc.output


def test_the_incremental_document_asks_only_for_what_its_cache_lacks():
    cache = TranslationCache()
    doc = IncrementalDocument(cache)
    assert doc.set_text("Ja. Nein.", context=("model A",)) == ["Ja.", "Nein."]
    assert not doc.view().complete and doc.view().output.strip() == ""
    partial = doc.add([("Ja.", _Fake("Ja."))])  # a progress report: the first sentence
    assert partial.output.startswith("JA.") and not partial.complete
    assert doc.add([("Nein.", _Fake("Nein."))]).complete
    # An edit: the known sentences come from the cache, in the same context only.
    assert doc.set_text("Nein. Ja. Doch.", context=("model A",)) == ["Doch."]
    assert doc.set_text("Nein. Ja.", context=("model B",)) == ["Nein.", "Ja."]
    # A chosen alternative replaces what is shown for every segment of its sentence.
    doc.set_text("Ja.\n\nJa.", context=("model A",))
    other = _Fake("Ja.")
    other.text = "YES."
    assert doc.add([("Ja.", other)]).output == "YES.\n\nYES."
    assert doc.get("Ja.") is other
    doc.clear()
    assert len(cache) == 0 and doc.view().output == ""


def test_failures_carry_their_kind():
    import torch

    assert _failure(1, ValueError("too long"), None).kind is FailureKind.INPUT
    assert _failure(1, BundleError("m", "bad"), None).kind is FailureKind.MODEL
    assert _failure(1, torch.OutOfMemoryError("out of memory"), None).kind is FailureKind.DEVICE
    internal = _failure(2, KeyError("x"), None)
    assert internal.kind is FailureKind.INTERNAL and internal.request_id == 2
    # A RuntimeError about CUDA is the device's only where the model runs on CUDA.
    assert (
        _failure(1, RuntimeError("CUDA error: illegal address"), None).kind is FailureKind.INTERNAL
    )


def test_each_text_change_is_split_once(qtbot, open_window, monkeypatch):
    w = open_window()
    calls = []
    real = session_module.split_document
    monkeypatch.setattr(session_module, "split_document", lambda t: calls.append(t) or real(t))
    translate_in(qtbot, w, "Guten Morgen. Wie geht es dir? Gut.", TIMEOUT)
    assert calls == ["Guten Morgen. Wie geht es dir? Gut."]


def test_a_large_text_is_split_on_the_worker_thread(qtbot, open_window, monkeypatch):
    w = open_window()
    threads = []
    real = worker_module.split_document

    def spy(text):
        threads.append(threading.current_thread())
        return real(text)

    monkeypatch.setattr(worker_module, "split_document", spy)
    monkeypatch.setattr(session_module, "SPLIT_ON_WORKER", 20)
    text = "Das Haus ist groß. Ich habe einen Hund."
    shown = translate_in(qtbot, w, text, TIMEOUT)
    assert threads and all(t is not threading.main_thread() for t in threads)
    assert shown == w.highlighter.shown.output and w.highlighter.shown.source == text


def test_the_busy_indicator_shows_while_a_translation_is_pending(qtbot, open_window):
    w = open_window()
    states = []
    w.session.busy.connect(states.append)
    translate_in(qtbot, w, "Der Hund schläft.", TIMEOUT)
    assert states[0] is True and states[-1] is False
    assert not w.busy_label.isVisible()


def test_one_id_per_text_change_and_failures_only_for_the_current_request(qtbot, open_window):
    from translator_app.gui.translating.worker_messages import Failure

    w = open_window()
    translate_in(qtbot, w, "Der Hund schläft.", TIMEOUT)
    before = w.session._last_id
    w.session.translate("Die Katze schläft.", 1, 1)  # a sentence not in the cache
    assert w.session._last_id == before + 1
    current = w.session._ids["text"]
    shown = []
    w.session.failed.connect(shown.append)
    w.session.worker.failed.emit(Failure(current - 1, FailureKind.INTERNAL, "stale"))
    assert shown == []  # an older request's failure is as stale as its result
    w.session.worker.failed.emit(Failure(current, FailureKind.INTERNAL, "now"))
    assert [f.message for f in shown] == ["now"] and not w.session.pending
