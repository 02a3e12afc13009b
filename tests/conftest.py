"""Shared fixtures: a tiny SentencePiece model and tiny random-weight bundles.

Everything here is made by the tests from ``tests/data/tiny_pairs.tsv``; no corpus and
no trained model is needed.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import torch

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The bundled model's int8 GEMMs (CTranslate2 through oneDNN) round differently with
# AVX-512 VNNI than with AVX2, and the tests that read the real model's English were
# written against AVX2 (most users' laptops): on an AMD EPYC with avx512_vnni, greedy
# „Aktuell ist der Verkehr …“ reads "The traffic …", capped at AVX2 "Aktuell is the …".
# Every machine the tests run on has AVX2; capping oneDNN at it, before CTranslate2
# loads, gives every CI machine the same English.
os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
# CTranslate2 chooses its int8 GEMMs by CPU vendor: Intel MKL on a GenuineIntel CPU,
# oneDNN elsewhere, and the cap above reaches only oneDNN. On an Intel Xeon with MKL the
# model wrote "The lid is spliving." where oneDNN writes "The lid is splunching."; oneDNN
# everywhere gives every CI machine one backend (tests/regression/ records the English
# per backend and CPU kind).
os.environ.setdefault("CT2_USE_MKL", "0")
# Models converted for CTranslate2 go to a cache of the test run, never the user's.
# The windows with the real model share it too (the bundle's conversion and the
# dictionary's index, about 12 s each on two cores, made once per run).
SHARED_CACHE = tempfile.mkdtemp(prefix="translator-tests-cache-")
atexit.register(shutil.rmtree, SHARED_CACHE, True)  # a converted model is ~10 MB a run
os.environ["TRANSLATOR_CACHE_DIR"] = SHARED_CACHE

DATA = Path(__file__).parent / "data"

# Markers for the fast lane (pytest -m "not slow and not gui and not subprocess"), given by
# what a test uses, so that a new test is sorted without anyone remembering to.
_GUI_FIXTURES = {"qtbot", "qapp", "open_window"}
_SLOW_FIXTURES = {"overfit_run", "trained_checkpoint", "app_env"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & _GUI_FIXTURES:
            item.add_marker(pytest.mark.gui)
        if used & _SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)
        code = getattr(getattr(item, "function", None), "__code__", None)
        if code is not None and _starts_processes(code, getattr(item, "module", None)):
            item.add_marker(pytest.mark.subprocess)


def _starts_processes(code, module) -> bool:
    """Whether a test uses ``subprocess``, itself or through a helper of its module."""
    if "subprocess" in code.co_names:
        return True
    helpers = (getattr(module, name, None) for name in code.co_names)
    return any("subprocess" in getattr(h, "__code__", code).co_names for h in helpers)


# Small enough to run in milliseconds, big enough to exercise every code path
# (two layers, so the Transformer's "second to last" alignment layer is layer 0).
TINY = dict(
    d_model=32,
    n_heads=4,
    ff_dim=64,
    enc_layers=2,
    dec_layers=2,
    emb_dim=32,
    enc_hidden=16,
    dec_hidden=32,
    attn_dim=16,
    dropout=0.0,
)

# Every architecture variant the engine offers.
VARIANTS = {
    "transformer": dict(arch="transformer"),
    "transformer-learned": dict(arch="transformer", positions="learned"),
    "gru-bahdanau-additive": dict(
        arch="rnn", rnn_type="gru", decoder_style="bahdanau", attention="additive"
    ),
    "lstm-bahdanau-concat": dict(
        arch="rnn", rnn_type="lstm", decoder_style="bahdanau", attention="concat"
    ),
    "gru-luong-dot": dict(arch="rnn", rnn_type="gru", decoder_style="luong", attention="dot"),
    "lstm-luong-general": dict(
        arch="rnn", rnn_type="lstm", decoder_style="luong", attention="general"
    ),
    "gru-luong-scaled": dict(
        arch="rnn", rnn_type="gru", decoder_style="luong", attention="scaled_dot"
    ),
}


# The months as the tests write German and English themselves, apart from the app's
# tables (resources/language/calendar.tsv): an independent writer of dates.
MONTHS_DE = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
]
MONTHS_EN = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def tiny_pairs() -> list[tuple[str, str]]:
    lines = (DATA / "tiny_pairs.tsv").read_text("utf-8").splitlines()
    return [tuple(line.split("\t")) for line in lines if line]


def candidate(text: str, score: float):
    """An n-best entry with ``text`` and ``score`` (its log-probability too), no pieces:
    for the n-best choice (core/postedit/judge.py)."""
    import numpy as np

    from translator_app.core.engine.translation import Candidate

    return Candidate(text, (), (), (), np.zeros((0, 0), np.float32), score, score)


def spelled_candidate(tokenizer, text: str):
    """A candidate whose pieces spell ``text`` (then the end), its attention rows each a
    distribution over four source pieces: for the steps that write a word otherwise
    (core/engine/respell.py)."""
    import numpy as np

    from translator_app.core.engine.translation import Candidate

    ids = tuple(tokenizer.encode_ids([text], side="target")[0]) + (tokenizer.eos_id,)
    dec = tokenizer.decode(ids)
    rows = np.eye(len(ids), 4, dtype=np.float32)[:, ::-1].copy()
    rows[:, 0] += 1.0 - rows.sum(axis=1)
    return Candidate(
        text=dec.text,
        target_ids=ids,
        target_pieces=dec.pieces + ("</s>",),
        target_spans=dec.spans + ((len(dec.text), len(dec.text)),),
        attention=rows,
        score=-1.0,
        logprob=-2.0,
    )


def tiny_ding(folder: Path, lines: list[str]):
    """A Ding dictionary of ``lines`` (Ding's format: German :: English) in ``folder``,
    its index in a cache beside it."""
    import lzma

    from translator_app.core.dictionary.lookup import Dictionary

    source = folder / "de-en.ding.txt.xz"
    with lzma.open(source, "wt", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return Dictionary(source, folder / "cache")


@pytest.fixture(scope="module")
def translator():
    """The bundled model's Translator on the CPU, as the app loads it, once per test
    module (a module that defines its own ``translator`` fixture uses that one)."""
    from translator_app.core import Translator

    return Translator.load(Path(__file__).parents[1] / "resources" / "model", device="cpu")


@pytest.fixture(scope="session")
def spm_bytes() -> bytes:
    from translator_app.core.text.tokenizer import train_sentencepiece

    text = [side for pair in tiny_pairs() for side in pair]
    return train_sentencepiece(text * 5, vocab_size=360)


@pytest.fixture(scope="session")
def tokenizer(spm_bytes):
    from translator_app.core.text.tokenizer import Tokenizer

    return Tokenizer(spm_bytes)


def encode_batch(tokenizer, texts):
    """Source ids (with EOS) of ``texts``, padded: (src [B, S], mask [B, S])."""
    ids = [tokenizer.encode(t).ids + (tokenizer.eos_id,) for t in texts]
    width = max(map(len, ids))
    src = torch.zeros(len(ids), width, dtype=torch.long)
    for i, row in enumerate(ids):
        src[i, : len(row)] = torch.tensor(row)
    return src, src != 0


def peak_rss_mb() -> float:
    """This process's peak resident memory so far (Linux reports KiB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def translate_in(qtbot, window, text: str, timeout: int = 20_000) -> str:
    """Type ``text`` into the window's German box and wait for the shown translation."""
    with qtbot.waitSignal(window.translation_shown, timeout=timeout) as blocker:
        window.source_edit.setPlainText(text)
    return blocker.args[0]


def tiny_config(tokenizer, variant: str = "transformer", **overrides):
    from translator_app.core.models.config import ModelConfig

    return ModelConfig(
        **{"vocab_size": tokenizer.vocab_size, **TINY, **VARIANTS[variant], **overrides}
    )


def tiny_model(tokenizer, variant: str = "transformer", seed: int = 0, **overrides):
    from translator_app.core.models.model import build_model

    torch.manual_seed(seed)
    return build_model(tiny_config(tokenizer, variant, **overrides)).eval()


def train_tiny(tokenizer, steps: int, *, eos: bool = True, **overrides):
    """A tiny RNN (gru-bahdanau-additive changed by ``overrides``) trained with Adam for
    ``steps`` full-batch steps on four fixture pairs (targets end with EOS when ``eos``).
    Returns (model in eval mode, config, src, src_mask, target id lists, losses)."""
    from translator_app.core.engine.batching import pad_rows
    from translator_app.core.models.model import build_model

    torch.manual_seed(0)
    cfg = tiny_config(tokenizer, "gru-bahdanau-additive", **overrides)
    model = build_model(cfg).train()
    pairs = tiny_pairs()[:4]
    src, src_mask = pad_rows([tokenizer.encode_ids([de])[0] for de, _ in pairs], cfg.pad_id)
    tgt = [tokenizer.encode_ids([en], side="target")[0] for _, en in pairs]
    tgt = [[*t, cfg.eos_id] for t in tgt] if eos else tgt
    tgt_in, _ = pad_rows([[cfg.bos_id, *t[:-1]] for t in tgt], cfg.pad_id)
    gold, _ = pad_rows(tgt, cfg.pad_id)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    losses = []
    for _ in range(steps):
        logits, _ = model(src, src_mask, tgt_in)
        loss = torch.nn.functional.cross_entropy(
            logits.flatten(0, 1), gold.flatten(), ignore_index=cfg.pad_id
        )
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model.eval(), cfg, src, src_mask, tgt, losses


@pytest.fixture
def make_bundle(tmp_path, spm_bytes, tokenizer):
    """make_bundle(variant="transformer", name="tiny", **config) -> bundle directory."""
    from translator_app.core.engine.bundle_torch import save_bundle

    counter = iter(range(1000))

    def make(
        variant: str = "transformer", name: str = "tiny", fp16: bool = False, **overrides
    ) -> Path:
        model = tiny_model(tokenizer, variant, **overrides)
        out = tmp_path / f"bundle-{variant}-{next(counter)}"
        return save_bundle(
            out,
            model,
            spm_bytes,
            name=name,
            card="# Tiny test model\n",
            metrics={"note": "random weights"},
            fp16=fp16,
        )

    return make


# A tiny training config (the trainer tests vary it; the app tests use its overfit model).
CONFIG = """
[model]
arch = "{arch}"
d_model = 64
n_heads = 4
ff_dim = 128
emb_dim = 48
enc_hidden = 48
dec_hidden = 96
attn_dim = 48
enc_layers = 2
dec_layers = 2
dropout = {dropout}

[data]
train = ["{train}"]
valid = "{valid}"
vocab_size = 400

[train]
out_dir = "{out}"
steps = {steps}
batch_tokens = 400
lr = 3e-3
warmup = 20
label_smoothing = 0.0
eval_every = {eval_every}
checkpoint_every = 10
patience = 0
seed = 3
bf16 = "off"
"""


def write_config(
    tmp_path,
    name="run",
    arch="transformer",
    steps=300,
    dropout=0.0,
    eval_every=100,
    train=None,
    valid=None,
):
    cfg = tmp_path / f"{name}.toml"
    cfg.write_text(
        CONFIG.format(
            arch=arch,
            dropout=dropout,
            steps=steps,
            eval_every=eval_every,
            out=tmp_path / name,
            train=train or DATA / "tiny_pairs.tsv",
            valid=valid or DATA / "tiny_pairs.tsv",
        )
    )
    return cfg


@pytest.fixture(scope="session")
def overfit_run(tmp_path_factory):
    """One tiny Transformer trained (once per test session) to reproduce the 40 fixture
    pairs: a model whose outputs are real English, for the trainer and the app tests."""
    from trainer import cli

    tmp = tmp_path_factory.mktemp("overfit")
    assert cli.main(["train", str(write_config(tmp)), "--device", "cpu"]) == 0
    return tmp / "run"


# ------------------------------------------------------------------ the app (pytest-qt)
@pytest.fixture
def app_env(tmp_path, monkeypatch, overfit_run):
    """User folders in tmp and the tiny overfit model as "the bundled model"."""
    bundle = overfit_run / "model"
    monkeypatch.setenv("TRANSLATOR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("TRANSLATOR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TRANSLATOR_MODEL", str(bundle))
    return bundle


@pytest.fixture
def open_window(qtbot, app_env):
    from translator_app.gui.shared.settings import Settings
    from translator_app.gui.window.window import MainWindow

    windows = []

    def make(settings=None, **kwargs):
        if settings is None:
            settings = Settings.load()
            settings.beam, settings.nbest, settings.debounce_ms = 1, 1, 10
        w = MainWindow(settings, **kwargs)
        qtbot.addWidget(w)
        w.show()
        qtbot.waitUntil(
            lambda: w.model_info is not None or w.session.loading_path is None, timeout=20_000
        )
        windows.append(w)
        return w

    yield make
    for w in windows:
        w.session.worker.shutdown()


@pytest.fixture
def real_window(qtbot, tmp_path, monkeypatch, request):
    """The main window with the real bundled model and the app's default search, user
    folders in tmp; the cache (converted model, dictionary index) is the test run's,
    or an empty one for a test marked ``empty_cache``."""
    from translator_app.core import bundled_model_dir
    from translator_app.gui.shared.settings import Settings
    from translator_app.gui.window.window import MainWindow

    for name in ("CONFIG", "DATA"):
        monkeypatch.setenv(f"TRANSLATOR_{name}_DIR", str(tmp_path / name.lower()))
    empty = request.node.get_closest_marker("empty_cache") is not None
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache") if empty else SHARED_CACHE)
    monkeypatch.setenv("TRANSLATOR_MODEL", str(bundled_model_dir()))
    s = Settings.load()
    s.debounce_ms = 10  # the app's default search: the bundle's beam and n-best
    w = MainWindow(s)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.model_info is not None, timeout=60_000)
    yield w
    w.session.worker.shutdown()


def secondary_dialogs(qtbot, w) -> list:
    """The main window ``w``'s modal dialogs, built (not shown) with its own settings and
    stores: for the tests that look at every dialog (size, accessible names)."""
    from translator_app.core.faithful.glossary import Glossary
    from translator_app.gui.dialogs.corrections_dialog import CorrectionsDialog
    from translator_app.gui.dialogs.glossary_dialog import GlossaryDialog
    from translator_app.gui.dialogs.secondary_dialogs import (
        AboutDialog,
        HistoryDialog,
        ModelCardDialog,
        SettingsDialog,
        ShortcutsDialog,
    )

    dialogs = [
        GlossaryDialog(Glossary(), False, w),
        SettingsDialog(w.settings, w, (4, 4)),
        HistoryDialog(w.history, w),
        ShortcutsDialog(w.actions(), w),
        ModelCardDialog("Model", "# A card\n" + "A line of the card.\n" * 80, w),
        AboutDialog("model", "cpu", w),
        CorrectionsDialog(w.corrections, w),
    ]
    for d in dialogs:
        qtbot.addWidget(d)
    return dialogs
