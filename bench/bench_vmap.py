"""CTranslate2's vocabulary shortlist (``use_vmap``) measured on the bundle (issue 31).

    .venv/bin/python bench/bench_vmap.py [--model DIR] [--train data/prepared/train.tsv.xz]
        [--pairs 150000] [--always 1000] [--per-piece 30] [--sentences 300]

A vocabulary map tells CTranslate2 which target pieces may follow a source: the
``--always`` most frequent English pieces of the training data, and for every German
piece the ``--per-piece`` English pieces that most often appear in the same pairs beyond
what their frequency predicts, and itself (trainer/shortlist.py, from ``--pairs``
training pairs spread over the file). The output layer then scores only the union of
those for a batch instead of all 16,003 pieces.

Greedy int8, one sentence per call as the app translates while the user types, each
sentence with and without the map in turn: median ms per output token, sentences per
second as one batch call, BLEU and the share of identical outputs, on the first
``--sentences`` pairs of Tatoeba v2021-08-07 and of newstest2019 (evaluation sets; the
map is built from training data only). The model alone, without the translator's
annotations, so only the shortlist differs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import sacrebleu

sys.path.insert(0, str(Path(__file__).parents[1]))
from trainer.shortlist import ALWAYS, PER_PIECE, build_shortlist, training_sample  # noqa: E402
from translator_app.core import bundled_model_dir  # noqa: E402
from translator_app.core.data.corpus import read_all  # noqa: E402
from translator_app.core.engine import ct2  # noqa: E402
from translator_app.core.engine.bundle import load_bundle  # noqa: E402
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

DATA = Path(__file__).parents[2] / "shared/data"
TESTS = {
    "Tatoeba v2021-08-07": DATA / "tatoeba-test-deu-eng/tatoeba-test-v2021-08-07.deu-eng.tsv.xz",
    "newstest2019": DATA / "wmt-news-deen/newstest2019.deu-eng.tsv.xz",
}


def decode(translator, sources, use_vmap: bool, batch: bool = False):
    """Greedy int8 outputs (pieces) and per-sentence seconds."""
    opts = dict(beam_size=1, max_decoding_length=256, max_input_length=0, use_vmap=use_vmap)
    if batch:
        start = time.perf_counter()
        res = translator.translate_batch(sources, **opts)
        return [r.hypotheses[0] for r in res], time.perf_counter() - start
    outs, secs = [], []
    for s in sources:
        start = time.perf_counter()
        (r,) = translator.translate_batch([s], **opts)
        secs.append(time.perf_counter() - start)
        outs.append(r.hypotheses[0])
    return outs, secs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=None)
    ap.add_argument("--train", type=Path, default=Path("data/prepared/train.tsv.xz"))
    ap.add_argument("--pairs", type=int, default=150_000)
    ap.add_argument("--always", type=int, default=ALWAYS)
    ap.add_argument("--per-piece", type=int, default=PER_PIECE)
    ap.add_argument("--sentences", type=int, default=300)
    args = ap.parse_args(argv)
    model = args.model or bundled_model_dir()
    print(f"{model}; {describe_machine()}; CTranslate2 threads {ct2.cpu_threads()}")
    bundle = load_bundle(model, "cpu")
    tok = bundle.tokenizer
    start = time.perf_counter()
    every = list(read_all([args.train]))
    pairs = training_sample(every, args.pairs)
    text = build_shortlist(tok, pairs, args.always, args.per_piece)
    print(
        f"map (trainer/shortlist.py): {len(pairs)} training pairs, {args.always} pieces "
        f"always, up to {args.per_piece} more per German piece; {len(text) / 1e6:.1f} MB, "
        f"{time.perf_counter() - start:.0f} s"
    )
    vocab = ct2.vocabulary(tok, bundle.config.vocab_size)
    ids = {p: i for i, p in enumerate(vocab)}
    eos = vocab[tok.eos_id]
    with tempfile.TemporaryDirectory() as tmp:
        model_dir = ct2.save_converted(bundle.model, tok, Path(tmp) / "model", "int8")
        (model_dir / "vmap.txt").write_text(text, encoding="utf-8")
        engine = ct2.ctranslate2.Translator(
            str(model_dir), device="cpu", compute_type="int8", intra_threads=ct2.cpu_threads()
        )
        print(
            "| test set | sentences | shortlist | median ms/token | p95 ms/sentence "
            "| batch sentences/s | BLEU | same output |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for name, path in TESTS.items():
            if not path.is_file():
                print(f"| {name} | missing: {path} |")
                continue
            test = list(read_all([path]))[: args.sentences]
            sources = [[vocab[i] for i in tok.encode(de).ids] + [eos] for de, _ in test]
            refs = [en for _, en in test]
            decode(engine, sources[:5], False)  # warm up
            plain_s, short_s = [], []
            out = {False: [], True: []}
            for s in sources:  # paired: each sentence with and without in turn
                for flag, secs in ((False, plain_s), (True, short_s)):
                    o, (sec,) = decode(engine, [s], flag)
                    out[flag].append(o[0])
                    secs.append(sec / max(1, len(o[0]) + 1))
            for flag, per_token in ((False, plain_s), (True, short_s)):
                hyps = [tok.decode([ids[p] for p in o]).text for o in out[flag]]
                _, batch_s = decode(engine, sources, flag, batch=True)
                same = np.mean([a == b for a, b in zip(out[False], out[flag], strict=True)])
                per_sentence = [per_token[i] * (len(out[flag][i]) + 1) for i in range(len(sources))]
                print(
                    f"| {name} | {len(sources)} | {'vmap' if flag else 'none'} "
                    f"| {1000 * statistics.median(per_token):.2f} "
                    f"| {1000 * float(np.percentile(per_sentence, 95)):.1f} "
                    f"| {len(sources) / batch_s:.1f} "
                    f"| {sacrebleu.corpus_bleu(hyps, [refs]).score:.2f} | {100 * same:.0f} % |"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
