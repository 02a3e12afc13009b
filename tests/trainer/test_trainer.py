"""The trainer end to end on tiny data: overfit, exact resume, fine-tune, eval, errors, DDP."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from conftest import DATA, tiny_pairs, write_config
from trainer import cli
from trainer.train import load_checkpoint
from translator_app.core import Translator
from translator_app.core.data.corpus import read_all
from translator_app.core.engine.bundle import load_bundle


@pytest.fixture(scope="module")
def trained(overfit_run):
    return overfit_run


def test_overfits_tiny_data_until_greedy_reproduces_every_target(trained):
    translator = Translator.from_bundle(load_bundle(trained / "model", "cpu"))
    pairs = tiny_pairs()
    outputs = translator.translate([de for de, _ in pairs], beam=1)
    assert [t.text for t in outputs] == [en for _, en in pairs]
    log = [json.loads(line) for line in (trained / "log.jsonl").read_text().splitlines()]
    assert max(r["bleu"] for r in log) == 100.0 and {"valid_loss", "chrf", "tokens_per_s"} <= set(
        log[-1]
    )


def test_a_run_records_the_machine_it_trained_on(trained):
    """The model card states the hardware from this file, not from prose."""
    from translator_app.core.platform.hardware import facts

    recorded = json.loads((trained / "hardware.json").read_text())
    assert recorded["cpu_cores"] == os.cpu_count() and recorded["processes"] == 1
    assert recorded["cpu"] == facts()["cpu"] and recorded["device"] == "cpu"


@pytest.mark.slow
def test_rnn_trains_too(tmp_path):
    assert (
        cli.main(["train", str(write_config(tmp_path, arch="rnn", steps=30, eval_every=30))]) == 0
    )
    bundle = load_bundle(tmp_path / "run" / "model", "cpu")
    assert bundle.config.arch == "rnn"


@pytest.mark.slow
def test_interrupted_and_resumed_equals_uninterrupted(tmp_path, monkeypatch):
    import trainer.train as train_module

    assert (
        cli.main(
            ["train", str(write_config(tmp_path, "straight", steps=40, dropout=0.1, eval_every=15))]
        )
        == 0
    )

    original = train_module.Progress.update

    def interrupt_at_17(self, step, *args):
        original(self, step, *args)
        if step == 17:
            os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C, mid-epoch

    monkeypatch.setattr(train_module.Progress, "update", interrupt_at_17)
    cfg = write_config(tmp_path, "resumed", steps=40, dropout=0.1, eval_every=15)
    assert cli.main(["train", str(cfg)]) == 130
    assert load_checkpoint(tmp_path / "resumed" / "checkpoints" / "last.pt")["state"].count(
        '"step": 17'
    )
    monkeypatch.setattr(train_module.Progress, "update", original)
    assert cli.main(["train", str(cfg), "--resume"]) == 0

    a = load_checkpoint(tmp_path / "straight" / "checkpoints" / "last.pt")
    b = load_checkpoint(tmp_path / "resumed" / "checkpoints" / "last.pt")
    assert json.loads(a["state"])["step"] == json.loads(b["state"])["step"] == 40
    for name, tensor in a["model"].items():
        assert torch.equal(tensor, b["model"][name]), name


def test_finetune_lowers_loss_on_new_pairs_and_keeps_tokenizer(trained, tmp_path, monkeypatch):
    from trainer.dataset import encode_pairs
    from trainer.train import validation_loss

    monkeypatch.setenv("TRANSLATOR_DATA_DIR", str(tmp_path / "userdata"))
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))
    new = [
        ("Der Vogel singt.", "The bird sings."),
        ("Die Blume ist rot.", "The flower is red."),
        ("Der Fluss ist breit.", "The river is wide."),
        ("Das Auto ist schnell.", "The car is fast."),
        ("Der Tisch ist alt.", "The table is old."),
        ("Die Tür ist offen.", "The door is open."),
    ] * 2
    data = tmp_path / "mine.tsv"
    data.write_text("".join(f"{de}\t{en}\n" for de, en in new), "utf-8")
    code = cli.main(
        [
            "finetune",
            "--model",
            str(trained / "model"),
            "--data",
            str(data),
            "--valid",
            str(data),
            "--report",  # the pairs it learned: this test is about learning them
            str(data),
            "--epochs",
            "15",
            "--lr",
            "1e-3",
            "--name",
            "my model",
            "--patience",
            "0",
        ]
    )
    assert code == 0
    out = tmp_path / "userdata" / "models" / "my_model"
    base, tuned = load_bundle(trained / "model", "cpu"), load_bundle(out, "cpu")
    assert (out / "spm.model").read_bytes() == (trained / "model" / "spm.model").read_bytes()
    assert tuned.config == base.config
    enc, _ = encode_pairs(new, base.tokenizer, 128)
    off = torch.autocast("cpu", enabled=False)
    assert validation_loss(tuned.model, enc, 1000, "cpu", off) < 0.5 * validation_loss(
        base.model, enc, 1000, "cpu", off
    )
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["heldout"]["finetuned"]["bleu"] > metrics["heldout"]["base"]["bleu"]


def test_finetune_reports_on_pairs_it_neither_trained_nor_stopped_on(
    trained, tmp_path, monkeypatch, capsys
):
    """Without --report, the command line's verdict was scored on the validation pairs,
    which also chose the checkpoint: biased in the new model's favour. Now a tenth of the
    data is held out for the verdict and for nothing else."""
    import trainer.finetune as finetune_module
    from translator_app.core.data.corpus import heldout_size

    trained_on = []

    def recording_train(cfg, tokenizer, train_data, *args, **kwargs):
        trained_on.append(len(train_data))
        return original_train(cfg, tokenizer, train_data, *args, **kwargs)

    original_train = finetune_module.train
    monkeypatch.setattr(finetune_module, "train", recording_train)
    monkeypatch.setenv("TRANSLATOR_DATA_DIR", str(tmp_path / "userdata"))
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))
    pairs = [(f"Ich habe {n} Katzen.", f"I have {n} cats.") for n in range(10, 50)]
    data = tmp_path / "mine.tsv"
    data.write_text("".join(f"{de}\t{en}\n" for de, en in pairs), "utf-8")
    args = ["finetune", "--model", str(trained / "model"), "--data", str(data)]
    args += ["--steps", "2", "--name", "honest", "--replay", "none", "--general", "none"]
    shown_file = tmp_path / "shown.safetensors"
    args += ["--heldout-out", str(shown_file)]
    assert cli.main(args + ["--terms", "off", "--progress", "text"]) == 0
    out = capsys.readouterr().out
    held = heldout_size(len(pairs))
    metrics = json.loads((tmp_path / "userdata" / "models" / "honest" / "metrics.json").read_text())
    assert metrics["heldout"]["pairs"] == held == 4
    valid = int(out.split("held out ")[1].split(" pairs for validation")[0])
    assert f"held out {held} pairs to report on" in out
    # The report pairs go first (as in the app, finetune_split); validation takes at most
    # a fifth of the rest.
    assert f"on {held} held-out pairs" in out and valid == (len(pairs) - held) // 5
    # The training pairs are what is left: neither the validation nor the report pairs.
    assert trained_on == [len(pairs) - valid - held]
    # The shown sentences (all four here) carry every layer's attention for the panels.
    from translator_app.core.ipc.translation_file import load_translations

    columns, extra = load_translations(shown_file)
    layers, heads = extra["shape"][:2]
    for name in ("base", "finetuned"):
        assert len(columns[name]) == held
        for t in columns[name]:
            assert t.best.layers.shape[1:3] == (layers, heads)


def test_eval_writes_report_and_plot(trained, tmp_path, capsys):
    code = cli.main(
        [
            "eval",
            "--model",
            str(trained / "model"),
            "--test",
            str(DATA / "tiny_pairs.tsv"),
            "--compare",
            str(trained / "model"),
            "--beam",
            "3",
            "--out",
            str(tmp_path / "rep"),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "nrefs:1|case:mixed|eff:no|tok:13a" in out
    report = json.loads((tmp_path / "rep" / "tiny_pairs.json").read_text())
    scores = report["models"]["run"]["scores"]
    assert scores["greedy"]["bleu"] == 100.0 and "beam3" in scores
    assert scores["greedy"]["by_length"][0]["words"] == "1-10"
    assert (tmp_path / "rep" / "tiny_pairs.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the English of every pair, one line each, to read beside the test (BLEU 100: the refs)
    refs = [en for de, en in read_all([DATA / "tiny_pairs.tsv"]) if de.strip()]
    written = (tmp_path / "rep" / "tiny_pairs.run.greedy.txt").read_text(encoding="utf-8")
    assert written.splitlines() == refs
    assert len((tmp_path / "rep" / "tiny_pairs.run.beam3.txt").read_text().splitlines()) == len(
        refs
    )


def test_export_fp16_loads_back(trained, tmp_path, capsys):
    code = cli.main(
        [
            "export",
            str(trained / "checkpoints" / "best.pt"),
            "--out",
            str(tmp_path / "b16"),
            "--fp16",
        ]
    )
    assert code == 0 and "loaded back" in capsys.readouterr().out
    assert (
        json.loads((tmp_path / "b16" / "config.json").read_text())["weights"]["dtype"] == "float16"
    )


BAD_DATA = {
    "missing tab": (b"Hallo\tHello\nkein tab hier\n", ":2: no tab"),
    "invalid utf-8": (b"Hallo\tHello\n\xff\tx\n", ":2: invalid UTF-8"),
}


@pytest.mark.parametrize("kind", BAD_DATA)
def test_bad_training_data_reports_and_writes_nothing(tmp_path, capsys, kind):
    content, message = BAD_DATA[kind]
    bad = tmp_path / "bad.tsv"
    bad.write_bytes(content)
    cfg = write_config(tmp_path, train=bad)
    assert cli.main(["train", str(cfg)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}") and message in err and err.count("\n") == 1
    assert not (tmp_path / "run").exists()


def test_bad_finetune_data_writes_nothing(trained, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TRANSLATOR_DATA_DIR", str(tmp_path / "userdata"))
    (tmp_path / "x.de").write_text("Eins\nZwei\n")
    (tmp_path / "x.en").write_text("One\n")
    assert (
        cli.main(["finetune", "--model", str(trained / "model"), "--data", str(tmp_path / "x.de")])
        == 1
    )
    assert "x.en: has fewer lines than x.de" in capsys.readouterr().err
    assert not (tmp_path / "userdata").exists()


def test_config_errors_list_valid_keys(tmp_path, capsys):
    cfg = write_config(tmp_path)
    cfg.write_text(cfg.read_text().replace("steps = 300", "stepz = 300"))
    assert cli.main(["train", str(cfg)]) == 1
    err = capsys.readouterr().err
    assert "unknown key(s) in [train]: stepz; valid keys are: out_dir, steps" in err
    assert not (tmp_path / "run").exists()


def test_two_process_ddp_on_cpu(tmp_path):
    cfg = write_config(tmp_path, "ddp", steps=20, eval_every=20)
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--nproc_per_node=2",
            "--master_port=29731",
            "-m",
            "trainer",
            "train",
            str(cfg),
            "--device",
            "cpu",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "2 process(es)" in proc.stdout + proc.stderr
    bundle = load_bundle(Path(tmp_path / "ddp" / "model"), "cpu")
    assert bundle.config.d_model == 64
    assert (
        json.loads(load_checkpoint(tmp_path / "ddp" / "checkpoints" / "last.pt")["state"])["step"]
        == 20
    )


def test_exclude_test_removes_test_sentences(tmp_path, capsys):
    test = tmp_path / "test.tsv"
    test.write_text("guten  MORGEN!\tx\nWie geht es dir?\ty\n", "utf-8")  # normalised match
    cfg = write_config(tmp_path, steps=2, eval_every=2)
    assert cli.main(["train", str(cfg), "--exclude-test", str(test)]) == 0
    out = capsys.readouterr().out
    assert "dropped        2  in a test set" in out


def test_the_test_sentence_rule_checks_either_side():
    """The same rule as scripts/prepare_data.py: a pair whose English side is a test
    sentence leaks the test set as much as one whose German side is."""
    from translator_app.core.data.corpus import Blocklist, filter_pairs

    tests = Blocklist([("Wie geht es dir?", "How are you?")])
    pairs = [
        ("Wie gehts?", "how  ARE you?"),
        ("Wie geht es dir ?", "How is it going?"),
        ("Hallo", "Hello"),
    ]
    assert tests.match(*pairs[0]) == "normalised" and tests.match("a", "How are you?") == "exact"
    assert filter_pairs(pairs, exclude=tests) == [
        ("Wie geht es dir ?", "How is it going?"),
        ("Hallo", "Hello"),
    ]


def test_beam_subset_is_spread_and_greedy_scored_on_the_same_pairs():
    from types import SimpleNamespace

    from trainer.evaluate import evaluate_translator, score_translations, spread_subset

    assert spread_subset(10, 0) == list(range(10)) and spread_subset(3, 5) == [0, 1, 2]
    assert spread_subset(100, 4) == [0, 25, 50, 75]

    class Echo:  # greedy echoes the source; beam echoes it upper-cased
        def translate(self, sources, beam):
            return [SimpleNamespace(text=s if beam == 1 else s.upper(), terms=()) for s in sources]

    # An ordered set: the first half is translated right by greedy, the second half wrong.
    pairs = [(f"the word{i} is here today", f"the word{i} is here today") for i in range(20)]
    pairs += [(f"wrong{i} there", f"quite other{i} words entirely") for i in range(20)]
    scores = evaluate_translator(Echo(), pairs, beam=2, beam_limit=8)
    beam = scores["beam2"]
    assert beam["pairs"] == 8 and scores["greedy"]["pairs"] == 40
    idx = spread_subset(40, 8)
    expected = score_translations([pairs[i][0] for i in idx], [pairs[i][1] for i in idx])
    assert beam["greedy_same_pairs"]["bleu"] == round(expected["bleu"], 2)
    # Spread, not the first 8 (which greedy gets all right): half right, half wrong.
    assert 0 < beam["greedy_same_pairs"]["bleu"] < 100
    assert "greedy_same_pairs" not in evaluate_translator(Echo(), pairs, 2, 0)["beam2"]


def test_progress_messages_round_trip_and_other_lines_are_not_messages():
    from translator_app.core.ipc.progress_lines import Done, Note, StepProgress, decode, encode

    step = StepProgress(3, 10, 2.5, 1234.0, 1e-4, 12.5)
    done = Done("/tmp/b", {"pairs": 2, "base": {"bleu": 1.0}})
    for message in (step, Note("stopping early: ünïcode"), done):
        line = encode(message)
        assert line.endswith("\n") and line.count("\n") == 1
        assert decode(line) == message
    for other in ("", "Traceback (most recent call last):", "{not json", "[1, 2]", '{"step": "x"}'):
        assert decode(other) is None


def test_eval_reports_german_words_left_and_bleu_by_kind(tmp_path):
    """issue 60: beside BLEU, the German words the English keeps and BLEU per kind."""
    from types import SimpleNamespace

    from trainer.evaluate import evaluate_translator, read_kinds
    from translator_app.core.faithful.german_left import GermanLeftCheck

    class CopiesNouns:  # writes "Teig" where the reference has "dough"
        def translate(self, sources, beam):
            return [SimpleNamespace(text=s, terms=()) for s in ["Knead the Teig.", NIGHT]]

    NIGHT = "Good night and sleep well, my dear friend."
    pairs = [("Den Teig kneten.", "Knead the dough."), ("Gute Nacht, schlaf gut.", NIGHT)]
    test = tmp_path / "mini-test.deu-eng.tsv"
    test.write_text("".join(f"{de}\t{en}\n" for de, en in pairs), "utf-8")
    assert read_kinds(test, 2) is None
    (tmp_path / "mini-test.kinds.txt").write_text("recipes\nmessages\n", "utf-8")
    kinds = read_kinds(test, 2)
    check = GermanLeftCheck.from_ding(["Teig {m} :: dough", "Nacht {f} :: night"])
    greedy = evaluate_translator(CopiesNouns(), pairs, 1, german_left=check, kinds=kinds)["greedy"]
    assert greedy["german_left"]["count"] == 1 and greedy["german_left"]["top"] == {"Teig": 1}
    assert greedy["by_kind"]["messages"]["bleu"] == 100.0
    assert greedy["by_kind"]["recipes"]["bleu"] < 100.0
    with pytest.raises(ValueError, match="mini-test.kinds.txt: 2 kinds for 3 test pairs"):
        read_kinds(test, 3)
    assert greedy["dictionary_words_per_100"] == 0.0

    from translator_app.core.values import TermUse

    class FillsFromDictionary:  # said „Teig“ with the dictionary's English
        def translate(self, sources, beam):
            filled = TermUse(4, 8, "Teig", "dough", kept=True, kind="dictionary")
            return [
                SimpleNamespace(text="Knead the dough.", terms=(filled,)),
                SimpleNamespace(text=NIGHT, terms=()),
            ]

    greedy = evaluate_translator(FillsFromDictionary(), pairs, 1, german_left=check)["greedy"]
    assert greedy["dictionary_words_per_100"] == 50.0 and greedy["german_left"]["count"] == 0
