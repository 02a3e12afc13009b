"""Web and e-mail addresses through the translator (issue 86 §1): how many come out as the
German wrote them, with protect.address_uses (addresses protected like names) and
without it, on sentences of corpora the rule was not written on.

    .venv/bin/python bench/bench_addresses.py [--per-corpus 60] [--paths]

The sentences are those of each corpus's German with a token holding "://", "www." or
"@" (a plain test, not the rule's pattern), up to 300 characters. Per setting: the
addresses kept (a token of the German, its closing punctuation aside, found in the
English as it stands), the sentences whose every address is kept, how many of those
addresses the reference English itself writes otherwise (where keeping it is no gain),
the addresses changed but marked (the fact check reads each address as a fact, both
settings),
BLEU and chrF against the references (sacreBLEU), and seconds per sentence; the app's
default search, int8, this machine's CPU.

``--paths``: file paths and #tags instead (a token with a drive and a backslash, a
slash, "~/" or "./" first and two parts or more, or "#" and a letter), from the
documentation corpora; "without" is then the rule without those two kinds.
"""

from __future__ import annotations

import argparse
import lzma
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = ROOT.parent / "shared" / "data"
CORPORA = (
    "opus100-sample-deen/opus100-sample.deu-eng.tsv.xz",
    "debian-ddtp-deen/ddtp-bookworm.deu-eng.tsv.xz",
    "debian-docs-deen/debian-docs.deu-eng.tsv.xz",
)
_TOKEN = re.compile(r"\S*(?:://|www\.|@)\S*")
PATH_CORPORA = (
    "debian-docs-deen/debian-docs.deu-eng.tsv.xz",
    "gnome-user-docs-deen/gnome-help-43.deu-eng.tsv.xz",
    "libreoffice-deen/help-7.4.deu-eng.tsv.xz",
    "debian-ddtp-deen/ddtp-bookworm.deu-eng.tsv.xz",
)
_PATH_TOKEN = re.compile(r"(?<!\S)(?:#[^\W\d_]\S*|[A-Za-z]:\\\S+|(?:~|\.{1,2})?/\S+/\S+)")
_EDGES = "\"'„“”‚‘’«»()[]<>"
_TAIL = ".,;:!?"


def addresses(text: str, token: re.Pattern = _TOKEN) -> list[str]:
    """The tokens of ``text`` that hold "://", "www." or "@" (or match ``token``),
    without the quotation marks and brackets around them or the punctuation after
    them."""
    out = []
    for m in token.finditer(text):
        token = m.group().strip(_EDGES).rstrip(_TAIL).strip(_EDGES)
        if len(token) > 3:
            out.append(token)
    return out


def sentences(per_corpus: int, corpora=CORPORA, token=_TOKEN) -> list[tuple[str, str]]:
    pairs = []
    for name in corpora:
        found = 0
        with lzma.open(DATA / name, "rt", encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) < 2 or len(parts[0]) > 300 or not addresses(parts[0], token):
                    continue
                pairs.append((parts[0], parts[1]))
                found += 1
                if found == per_corpus:
                    break
    return pairs


def run(translator, pairs, token=_TOKEN) -> dict:
    start = time.perf_counter()
    done = [translator.translate([de])[0] for de, _ in pairs]
    seconds = time.perf_counter() - start
    hyps = [t.text for t in done]
    kept = total = whole = reference_otherwise = marked = 0
    for (de, en), t in zip(pairs, done, strict=True):
        hyp = t.text
        found = addresses(de, token)
        here = [a for a in found if a in hyp]
        lost_marked = {f.text for f in t.issues if f.kind == "address"}
        marked += sum(a not in hyp and a in lost_marked for a in found)
        kept, total = kept + len(here), total + len(found)
        whole += len(here) == len(found)
        reference_otherwise += sum(a not in en for a in found)
    return {
        "hyps": hyps,
        "kept": kept,
        "total": total,
        "whole": whole,
        "reference_otherwise": reference_otherwise,
        "marked": marked,
        "seconds": seconds,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-corpus", type=int, default=60)
    parser.add_argument("--paths", action="store_true", help="file paths and #tags")
    args = parser.parse_args()
    import sacrebleu

    from translator_app.core import Translator, bundled_model_dir
    from translator_app.core.faithful import protect
    from translator_app.core.platform.hardware import cpu_name, int8_kind

    corpora, token = (PATH_CORPORA, _PATH_TOKEN) if args.paths else (CORPORA, _TOKEN)
    pairs = sentences(args.per_corpus, corpora, token)
    translator = Translator.load(bundled_model_dir(), device="cpu")
    with_rule = run(translator, pairs, token)
    own = protect.address_uses
    # the translator as it was without the rule (or without its paths and tags)
    protect.address_uses = (
        (
            lambda text: [
                u for u in own(text) if u.source[0] not in "#/~.\\" and u.source[1:2] != ":"
            ]
        )
        if args.paths
        else (lambda text: [])
    )
    try:
        without = run(translator, pairs, token)
    finally:
        protect.address_uses = own
    refs = [[en for _, en in pairs]]
    print(
        f"{len(pairs)} sentences with addresses ({', '.join(c.split('/')[0] for c in corpora)}), "
        f"the app's default search, on {cpu_name()} (int8 on {int8_kind()})\n"
    )
    print(
        "| setting | addresses kept | changed but marked | sentences whole | BLEU | chrF | s/sentence |"
    )
    print("|---|---|---|---|---|---|---|")
    for label, r in (("not protected", without), ("protected", with_rule)):
        bleu = sacrebleu.corpus_bleu(r["hyps"], refs).score
        chrf = sacrebleu.corpus_chrf(r["hyps"], refs).score
        print(
            f"| {label} | {r['kept']} of {r['total']} | {r['marked']} "
            f"| {r['whole']} of {len(pairs)} "
            f"| {bleu:.2f} | {chrf:.2f} | {r['seconds'] / len(pairs):.3f} |"
        )
    changed = sum(a != b for a, b in zip(with_rule["hyps"], without["hyps"], strict=True))
    print(
        f"\nThe rule changed {changed} of {len(pairs)} English sentences; the references "
        f"write {with_rule['reference_otherwise']} of the {with_rule['total']} addresses "
        "otherwise than the German (localised links): there keeping it is no gain."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
