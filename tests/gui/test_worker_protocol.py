"""The worker's protocol (issue 62 §3): four requests; a translation's split and its check
for dropped content follow on the worker under the request's id, with no round trip
through the session; the session decides in one place (``_current``) which replies are
still wanted. Stand-in translators: the protocol, not the model, is under test."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from translator_app.core.engine.text_document import TranslationCache  # noqa: E402
from translator_app.core.engine.translation import Translation  # noqa: E402
from translator_app.core.values import SourceWord  # noqa: E402
from translator_app.gui.translating.session import TranslationSession  # noqa: E402
from translator_app.gui.translating.worker import TranslationWorker  # noqa: E402
from translator_app.gui.translating.worker_messages import (  # noqa: E402
    AlternativesResult,
    ExplainResult,
    ModelInfo,
    TranslateRequest,
)


def _translation(german: str) -> Translation:
    return Translation(german, (3,), ("</s>",), ((0, 0),), ())


class StandIn:
    """Translates every sentence to nothing; its check marks each as dropping a word."""

    model_ready = True
    follows_glossary = False

    def __init__(self) -> None:
        self.asked: list[str] = []

    def translate(self, sentences, **_options):
        self.asked += sentences
        return [_translation(s) for s in sentences]

    def check_dropped(self, translations):
        word = SourceWord("x", (0, 1), (0,))
        return [replace(t, not_carried=(word,)) for t in translations]

    def add_dictionary_words(self, sentences, translations, **_options):
        return list(translations)  # nothing copied: the same translations


def _worker(qtbot) -> tuple[TranslationWorker, StandIn, dict]:
    worker = TranslationWorker()
    translator = StandIn()
    worker._translator, worker._model_path = translator, "stand-in"
    replies: dict[str, list] = {"split": [], "translated": [], "checked": []}
    worker.split_done.connect(replies["split"].append)
    worker.revised.connect(
        lambda r: replies["translated" if r.stage == "english" else "checked"].append(r)
    )
    return worker, translator, replies


def test_the_worker_checks_its_own_translation_under_the_same_id(qtbot):
    worker, _, replies = _worker(qtbot)
    worker.translate(TranslateRequest(5, ("Eins.", "Zwei.")))
    qtbot.waitUntil(lambda: bool(replies["checked"]), timeout=5000)
    worker.shutdown()
    (translated,), (checked,) = replies["translated"], replies["checked"]
    assert translated.request_id == checked.request_id == 5
    assert translated.sentences == checked.sentences == ("Eins.", "Zwei.")
    assert all(t.not_carried for t in checked.translations)


def test_the_dictionarys_words_follow_the_english_before_the_check(qtbot):
    """The English is reported first, the model's own; the follow-up then brings the
    sentences the dictionary's words changed (``worded``), then the check of those."""
    worker, translator, replies = _worker(qtbot)
    asked = []

    def add_dictionary_words(sentences, translations, **options):
        asked.append(options)
        return [replace(t, source=t.source + " (worded)") for t in translations]

    translator.add_dictionary_words = add_dictionary_words
    worker.translate(TranslateRequest(6, ("Eins.",), beam=3))
    qtbot.waitUntil(lambda: len(replies["checked"]) == 2, timeout=5000)
    worker.shutdown()
    (translated,) = replies["translated"]
    worded, checked = replies["checked"]
    assert translated.translations[0].source == "Eins."
    assert worded.stage == "words" and worded.translations[0].source == "Eins. (worded)"
    assert checked.stage == "marks" and checked.translations[0].source == "Eins. (worded)"
    assert checked.translations[0].not_carried
    assert asked[0]["beam"] == 3  # decoded again with the request's search


def test_a_long_text_is_split_and_translated_in_one_request(qtbot):
    worker, translator, replies = _worker(qtbot)
    text = "Schon da. Neu eins. Schon da. Neu zwei."
    worker.translate(TranslateRequest(9, (), text=text, cached=frozenset({"Schon da."})))
    qtbot.waitUntil(lambda: bool(replies["translated"]), timeout=5000)
    worker.shutdown()
    (split,) = replies["split"]
    assert split.request_id == 9 and [s.text for s in split.segments][:2] == [
        "Schon da.",
        "Neu eins.",
    ]
    assert split.sentences == ("Neu eins.", "Neu zwei.") == tuple(translator.asked)
    assert replies["translated"][0].sentences == split.sentences


def test_a_newer_translation_drops_the_check_of_the_older(qtbot):
    """The older text's check is under way (0.1 s a sentence) when a newer text comes:
    it stops at the next sentence, reports nothing, and the newer text is checked."""
    import time

    worker, translator, replies = _worker(qtbot)
    started = []

    def slow_check(translations):
        started.append(translations[0].source)
        time.sleep(0.1)
        return StandIn.check_dropped(translator, translations)

    translator.check_dropped = slow_check
    worker.translate(TranslateRequest(1, ("Alt eins.", "Alt zwei.", "Alt drei.")))
    qtbot.waitUntil(lambda: bool(started), timeout=5000)
    worker.translate(TranslateRequest(2, ("Neu.",)))
    qtbot.waitUntil(lambda: bool(replies["checked"]), timeout=5000)
    worker.shutdown()
    assert [r.request_id for r in replies["translated"]] == [1, 2]
    assert [r.request_id for r in replies["checked"]] == [2]
    assert started == ["Alt eins.", "Neu."]


def _session_with_model(qtbot) -> TranslationSession:
    session = TranslationSession()
    session.worker.shutdown()  # replies are played in by hand below
    session._on_model_loaded(
        ModelInfo(
            session._new_id("load"), "model-a", "a", "cpu", "transformer", 1, 1, 0, -1, 3, "",
            1, 1, (), 0.0,
        )
    )  # fmt: skip
    return session


def test_stale_replies_of_every_kind_are_dropped_in_one_place(qtbot):
    session = _session_with_model(qtbot)
    shown = {"explained": [], "alternatives": []}
    session.explained.connect(lambda o, e: shown["explained"].append(e))
    session.alternatives_found.connect(lambda t, p, c: shown["alternatives"].append(p))
    t = _translation("Hallo.")
    old = session._new_id("explain")
    new = session._new_id("explain")
    session._on_explained(ExplainResult(old, "model-a", t, t))  # an older explanation
    session._on_explained(ExplainResult(new, "model-b", t, t))  # another model's
    assert shown["explained"] == []
    session._on_explained(ExplainResult(new, "model-a", t, t))
    assert len(shown["explained"]) == 1
    wanted = session._new_id("alternatives")
    session._on_alternatives(AlternativesResult(wanted - 1, "model-a", t, 4, ()))
    session._on_alternatives(AlternativesResult(wanted, "model-a", t, 7, ()))
    assert shown["alternatives"] == [7]
    assert session._current(wanted) == "alternatives" and session._current(old) is None


def test_sentences_the_cache_let_go_meanwhile_are_asked_for_again(qtbot, monkeypatch):
    """A long text's request names what the cache held when it was sent; a sentence the
    cache evicted before the split came back is asked for once the rest is in."""
    session = _session_with_model(qtbot)
    session.cache = TranslationCache()
    session.document.cache = session.cache
    asked = []
    monkeypatch.setattr(session.worker, "translate", asked.append)
    context = session._context()
    session.cache.put((*context, "Alt."), _translation("Alt."))
    session.translate("Alt. Neu.", 1, 1)  # short: planned here; only „Neu.“ is missing
    assert [r.sentences for r in asked] == [("Neu.",)]
    session.cache.clear()  # „Alt.“ evicted before the answer came
    session.document.found = [None, None]
    request_id = session._ids["text"]
    from translator_app.gui.translating.worker_messages import TranslateResult

    done = []
    session.updated.connect(lambda doc, s, final: final and done.append(doc))
    session._on_translated(
        TranslateResult(request_id, "model-a", (_translation("Neu."),), 0.1, 1, 1, ("Neu.",))
    )
    assert [r.sentences for r in asked] == [("Neu.",), ("Alt.",)] and done == []
    session._on_translated(
        TranslateResult(request_id, "model-a", (_translation("Alt."),), 0.1, 1, 1, ("Alt.",))
    )
    assert len(done) == 1 and not session.pending


def test_the_worker_follows_up_the_cached_sentences_a_request_carries(qtbot):
    worker, translator, replies = _worker(qtbot)
    cached = _translation("Alt.")
    worker.translate(TranslateRequest(7, ("Neu.",), follow_up=(("Alt.", cached),)))
    qtbot.waitUntil(lambda: bool(replies["checked"]), timeout=5000)
    worker.shutdown()
    assert translator.asked == ["Neu."]  # the cached sentence is not translated again
    (checked,) = replies["checked"]
    assert checked.sentences == ("Neu.", "Alt.")
    assert all(t.not_carried for t in checked.translations)


def test_a_cached_sentence_whose_follow_up_was_abandoned_is_followed_up_next(qtbot, monkeypatch):
    """A sentence translated, then its follow-up abandoned by a newer request, stays in
    the cache with the model's words: the next request for a text that shows it carries
    it for the follow-up, once, and a text all in the cache asks for the follow-up
    alone."""
    from translator_app.gui.translating.worker_messages import CheckResult, TranslateResult

    session = _session_with_model(qtbot)
    asked = []
    monkeypatch.setattr(session.worker, "translate", asked.append)
    session.translate("Alt.", 1, 1)
    old = _translation("Alt.")
    session._on_translated(
        TranslateResult(session._ids["text"], "model-a", (old,), 0.1, 1, 1, ("Alt.",))
    )  # ... and the follow-up is abandoned: the user typed on
    session.translate("Alt. Neu.", 1, 1)
    assert asked[-1].sentences == ("Neu.",) and asked[-1].follow_up == (("Alt.", old),)
    new = _translation("Neu.")
    request_id = session._ids["text"]
    session._on_translated(TranslateResult(request_id, "model-a", (new,), 0.1, 1, 1, ("Neu.",)))
    marks = []
    session.checked.connect(marks.append)
    word = SourceWord("x", (0, 1), (0,))
    checked = tuple(replace(t, not_carried=(word,)) for t in (new, old))
    session._on_checked(CheckResult(request_id, "model-a", ("Neu.", "Alt."), checked))
    assert len(marks) == 1  # both sentences' marks shown
    # followed up: the next request carries neither
    session.translate("Alt. Neu. Mehr.", 1, 1)
    assert asked[-1].sentences == ("Mehr.",) and asked[-1].follow_up == ()
    # a text the cache holds whole, with a sentence never followed up: the follow-up alone
    session.cache.put((*session._context(), "Andere."), _translation("Andere."))
    session.translate("Andere.", 1, 1)
    assert asked[-1].sentences == () and [s for s, _ in asked[-1].follow_up] == ["Andere."]
    assert not session.pending


def _said(german: str, english: str) -> Translation:
    import numpy as np

    from translator_app.core.engine.translation import Candidate

    cand = Candidate(english, (), (), (), np.zeros((0, 0), np.float32), -1.0, -1.0)
    return Translation(german, (3,), ("</s>",), ((0, 0),), (cand,))


def test_a_sentences_revisions_only_go_forward(qtbot, monkeypatch):
    """English, the dictionary's words, then the marks (worker_messages.STAGES): a
    "words" revision that comes after the sentence's marks (a second follow-up under the
    same id) is not shown over them; a new English of the sentence starts again."""
    from translator_app.gui.translating.worker_messages import CheckResult, TranslateResult

    session = _session_with_model(qtbot)
    monkeypatch.setattr(session.worker, "translate", lambda request: None)
    session.translate("Eins.", 1, 1)
    rid = session._ids["text"]
    first = _said("Eins.", "One Eins.")
    session._on_revised(TranslateResult(rid, "model-a", (first,), 0.1, 1, 1, ("Eins.",)))
    shown = []
    session.updated.connect(lambda doc, seconds, final: shown.append(doc))
    # the marks: nothing to mark, the English stays as shown
    session._on_revised(CheckResult(rid, "model-a", ("Eins.",), (first,), stage="marks"))
    worded = _said("Eins.", "One.")
    session._on_revised(CheckResult(rid, "model-a", ("Eins.",), (worded,), stage="words"))
    assert shown == [] and session.document.get("Eins.") is first
    # a new English of the sentence (the user chose a word): its words are shown
    session.force_prefix("Eins.", (5,))
    rid = session._ids["text"]
    again = _said("Eins.", "Single Eins.")
    session._on_revised(TranslateResult(rid, "model-a", (again,), 0.1, 1, 1, ("Eins.",)))
    shown.clear()
    session._on_revised(CheckResult(rid, "model-a", ("Eins.",), (worded,), stage="words"))
    assert session.document.get("Eins.") is worded and len(shown) == 1


def test_the_architecture_names_the_windows_stages_in_order():
    from pathlib import Path

    from translator_app.core.postedit.pipeline import READ, REWRITE, SEARCH, WORDS
    from translator_app.gui.translating.worker_messages import STAGES

    doc = (Path(__file__).resolve().parents[2] / "docs" / "architecture.md").read_text("utf-8")
    section = doc[doc.index("### The window's revisions") :]
    section = section[: section.index("\n## ")]
    rows = [
        line.split("|")[1].strip(" `") for line in section.splitlines() if line.startswith("| `")
    ]
    assert tuple(rows) == STAGES
    for stage in (READ, SEARCH, REWRITE, WORDS):  # the pipeline's stages each holds
        assert stage in section


def test_closing_waits_for_a_model_build_in_progress(qtbot):
    """A model build runs on a thread of its own and cannot be interrupted: the process
    ended while PyTorch built one ("terminate called without an active exception", exit
    134) when the window closed right after a translation. Shutdown waits for it."""
    import threading

    worker, translator, replies = _worker(qtbot)
    translator.model_ready = False
    building = threading.Event()

    def prepare_model():
        building.set()
        threading.Event().wait(0.5)  # a build that takes longer than the worker's timeout
        translator.model_ready = True

    translator.prepare_model = prepare_model
    worker.translate(TranslateRequest(7, ("Eins.",)))
    assert building.wait(5)
    builder = next(t for t in threading.enumerate() if t.name == "model-build")
    worker.shutdown(timeout=0.05)
    assert not builder.is_alive()
