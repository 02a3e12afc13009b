"""Build the base model's training and validation sets from ``../shared/data``.

    python scripts/prepare_data.py [--data ../shared/data] [--out data/prepared]

Writes ``train.tsv.xz``, ``valid.tsv``, ``news-dev.tsv`` (newstest2013) and ``report.json`` (pair counts per corpus and
how many pairs were removed because a side is in a test set), and the same training pairs
split by corpus under ``corpora/NAME.tsv.xz``, for configs that weight the corpora with
``[data] repeat``. Anyone can rebuild the
training set with this one command; the corpora themselves are never committed.

Choices (the model card repeats them, with the licences):
- Training corpora: everyday sentences (Tatoeba, the copy that already omits the Tatoeba
  test sets), image captions (Multi30k), chat (BConTrasT), Wikipedia (MLQE-PE), news and
  parliament (WMT15 sample, Europarl, the WMT news test sets of the years that are not
  test or dev sets: see NEWS_TRAIN), software documentation (LibreOffice, Debian package
  descriptions, GNOME help).
- Register corpora (issue 46), written under ``corpora/`` only (``train.tsv.xz`` stays
  the mix of the stages before them): the Ding dictionary's phrase and sentence entries
  cleaned into pairs (``trainer/ding_pairs.py``; GPL-2+), with at most DING_WORDS single
  compound nouns beside them, and at most GETTEXT_PAIRS Debian gettext messages of three
  or more words with no placeholders or code (software and forms register), and
  REGISTER_OWN_PAIRS sentences of letters, e-mails, forms and shops built from blocks
  (``trainer/register_corpus.py``), REGISTER_VOCAB_PAIRS sentences around everyday words
  (``trainer/register_vocab.py``) and the short text of screens, forms and signs
  (``trainer/register_ui.py``).
- Everyday corpora (issue 60), under ``corpora/`` only: the OPUS-100 sample filtered to
  the pairs that look like translations, Debian's manuals and XQuAD's Wikipedia
  paragraphs split into sentence pairs (``trainer/everyday_corpora.py``), the
  NOUN_FRAME_WORDS most frequent Ding nouns in sentence frames, and EVERYDAY_BLOCK_PAIRS
  recipe, device-manual and private-message sentences built from the tables of ``trainer/data/everyday``
  (``trainer/everyday_blocks.py``), and EVERYDAY_NOTICE_PAIRS product descriptions,
  reviews, support replies and travel notices built the same way
  (``trainer/everyday_notices.py``).
- Not used: IWSLT (test only; its licence forbids derivatives), the Bible (archaic
  register).
- Tokenised corpora (Europarl, MLQE-PE, WMT15 sample) are detokenised with sacremoses,
  so that the model learns to write normal text.
- Every pair whose German or English side equals, exactly or after normalisation (NFKC,
  case folding, whitespace), a sentence of any test set is removed; the project's own
  register and everyday test sets (``testsets/*/*-test``) are among them, and their dev
  sets are held out like the validation set. Validation sentences
  are removed from training the same way.
"""

from __future__ import annotations

import argparse
import html
import json
import lzma
import random
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from trainer.ding_pairs import ding_pairs  # noqa: E402
from trainer.everyday_blocks import block_pairs  # noqa: E402
from trainer.everyday_corpora import (  # noqa: E402
    ding_nouns,
    noun_frame_pairs,
    sentence_pairs,
    web_pairs,
    word_counts,
)
from trainer.everyday_notices import notice_pairs  # noqa: E402
from trainer.register_corpus import register_pairs  # noqa: E402
from trainer.register_ui import ui_pairs  # noqa: E402
from trainer.register_vocab import vocab_pairs  # noqa: E402
from translator_app.core.data.corpus import Blocklist, DataError, read_all  # noqa: E402

# (name, file under the data folder, tokenised?, licence as stated by the source)
TRAIN = [
    ("tatoeba", "tatoeba-manythings-2018/deu-eng.no-tatoeba-test.tsv.xz", False, "CC-BY 2.0"),
    ("multi30k", "multi30k/train.deu-eng.tsv.xz", False, "research use (none stated)"),
    ("bcontrast-chat", "bcontrast-chat-ende/train.deu-eng.tsv.xz", False, "CC-BY-SA 4.0"),
    ("mlqe-pe", "mlqe-pe-ende/train.postedited.deu-eng.tsv.xz", True, "CC0 1.0"),
    ("wmt15-sample", "wmt15-sample-harvardnlp/train.deu-eng.tsv.xz", True, "MIT (repository)"),
    ("europarl", "europarl-comtrans/deu-eng.tsv.xz", True, "Europarl (none stated)"),
    ("libreoffice-help", "libreoffice-deen/help-7.4.deu-eng.tsv.xz", False, "MPL-2.0"),
    ("libreoffice-ui", "libreoffice-deen/ui-7.4.deu-eng.tsv.xz", False, "MPL-2.0"),
    ("debian-ddtp", "debian-ddtp-deen/ddtp-bookworm.deu-eng.tsv.xz", False, "none stated"),
    ("gnome-help", "gnome-user-docs-deen/gnome-help-43.deu-eng.tsv.xz", False, "CC-BY-SA 3.0"),
    ("wmt-news", "wmt-news-deen/NEWS_TRAIN", False, "WMT test sets (research and evaluation)"),
]

# The WMT news test sets of the years that are neither test nor dev sets: real news with
# names, numbers and dates (issue 30). newstest2014 and newstest2019 stay test sets;
# newstest2013 is the news dev set. The English-original (-ende) and second-reference
# variants are left out: their German is translationese or their source repeats.
NEWS_TRAIN = [
    "news-test2008",
    "newssyscomb2009",
    "newstest2009",
    "newstest2010",
    "newstest2011",
    "newstest2012",
    "newstest2015",
    "newstest2016",
    "newstest2017",
    "newstest2018",
    "newstest2020",
    "newstest2021",
    "generaltest2022",
]
NEWS_DEV = "wmt-news-deen/newstest2013.deu-eng.tsv.xz"

# Register corpora (issue 46): not in train.tsv.xz, only under corpora/, for the stages
# that list them. (name, file under the data folder, licence)
REGISTER_TRAIN = [
    ("ding-phrases", "ding-de-en-dictionary/de-en.ding-1.9.txt.xz", "GPL-2.0-or-later"),
    ("gettext", "debian-gettext-deen/gettext.deu-eng.tsv.xz", "each package's own (DFSG-free)"),
    ("register-own", "(made by trainer/register_corpus.py)", "the project's own"),
    ("register-vocab", "(made by trainer/register_vocab.py)", "the project's own"),
    ("register-ui", "(made by trainer/register_ui.py)", "the project's own"),
]
# Ordinary written German (issue 60): web text, manuals, Wikipedia and Ding's nouns in
# sentence frames, under corpora/ only, for the stages that list them.
EVERYDAY_TRAIN = [
    ("opus100", "opus100-sample-deen/opus100-sample.deu-eng.tsv.xz", "research use (OPUS-100)"),
    ("debian-docs", "debian-docs-deen/debian-docs.deu-eng.tsv.xz", "GPL-2+ (each manual's own)"),
    ("xquad", "xquad-deen/xquad.deu-eng.tsv.xz", "CC-BY-SA 4.0"),
    ("ding-nouns", "ding-de-en-dictionary/de-en.ding-1.9.txt.xz", "GPL-2.0-or-later"),
    ("everyday-blocks", "(made by trainer/everyday_blocks.py)", "the project's own"),
    ("everyday-notices", "(made by trainer/everyday_notices.py)", "the project's own"),
]
EVERYDAY_BLOCK_PAIRS = 12_000  # recipes, device instructions, messages (trainer/data/everyday)
EVERYDAY_NOTICE_PAIRS = 12_000  # products, reviews, support, travel notices (the same folder)
NOUN_FRAME_WORDS = 15_000  # the most frequent Ding nouns of the German training text
REGISTER_OWN_PAIRS = 16_000  # letters, e-mails, forms and shop text from building blocks
REGISTER_VOCAB_PAIRS = 6_000  # everyday words of forms, shops and services in sentences
REGISTER_UI_PAIRS = 3_000  # at most: buttons, labels, notices, signs (about 520 exist)
DING_WORDS = 30_000  # single-word (compound noun) entries kept beside every phrase entry
GETTEXT_PAIRS = 25_000
# The project's own register sets (issue 46): the test set is a test set like the others,
# the dev set is held out of training like the validation set.
REGISTER_TEST = ROOT / "testsets" / "register" / "register-test.deu-eng.tsv"
REGISTER_DEV = ROOT / "testsets" / "register" / "register-dev.deu-eng.tsv"
# The project's everyday sets (issue 60): instructions, recipes, messages, products,
# reviews, support, travel, health, official notices and article prose.
EVERYDAY_TEST = ROOT / "testsets" / "everyday" / "everyday-test.deu-eng.tsv"
EVERYDAY_DEV = ROOT / "testsets" / "everyday" / "everyday-dev.deu-eng.tsv"
# The fact set's half written by hand (issue 88 §3): numbers, prices, times and dates.
FACTS_TEST = ROOT / "testsets" / "facts" / "facts-test.deu-eng.tsv"
# A software message that is mostly code: printf/Qt/brace placeholders, options, paths,
# markup, identifiers, shortcuts.
_CODE = re.compile(r"%|\{|\}|\$|<|>|--|\\|/\w|\w_\w|\bE\d{2,}\b|::|=|\.\.\.|\*|»|«|@|#|\[|\]")

# Validation: the corpora's own dev splits plus pairs held out of Tatoeba (no dev split).
VALID = [
    ("multi30k-val", "multi30k/val.deu-eng.tsv.xz", False),
    ("bcontrast-dev", "bcontrast-chat-ende/dev.deu-eng.tsv.xz", False),
    ("mlqe-pe-dev", "mlqe-pe-ende/dev.postedited.deu-eng.tsv.xz", True),
]
VALID_PER_SOURCE = 300

# Every test set staged in the data folder, matched by glob.
TEST_GLOBS = [
    "tatoeba-test-deu-eng/*.tsv.xz",
    "wmt-news-deen/newstest2014*.tsv.xz",
    "wmt-news-deen/newstest2019*.tsv.xz",
    "multi30k/test_*.tsv.xz",
    "iwslt2017-deen/*.tsv.xz",
    "mlqe-pe-ende/test*.tsv.xz",
    "bcontrast-chat-ende/test*.tsv.xz",
    "wmt15-sample-harvardnlp/val*.tsv.xz",
    "wmt15-sample-harvardnlp/test*.tsv.xz",
]

# LibreOffice help joins the macOS and other variants of a key name: "BefehlStrg+F".
_PLATFORM_KEYS = [(re.compile(r"\bBefehlStrg\b"), "Strg"), (re.compile(r"\bCommandCtrl\b"), "Ctrl")]


class Detokenizer:
    def __init__(self) -> None:
        try:
            from sacremoses import MosesDetokenizer
        except ImportError:
            sys.exit("prepare_data: needs sacremoses (pip install -e '.[dev]')")
        self.de, self.en = MosesDetokenizer("de"), MosesDetokenizer("en")

    def __call__(self, de: str, en: str) -> tuple[str, str]:
        de, en = html.unescape(de), html.unescape(en)
        return self.de.detokenize(de.split()), self.en.detokenize(en.split())


def clean(de: str, en: str) -> tuple[str, str]:
    for pattern, key in _PLATFORM_KEYS:
        de, en = pattern.sub(key, de), pattern.sub(key, en)
    return de.strip(), en.strip()


def load(data: Path, rel: str, tokenised: bool, detok: Detokenizer) -> list[tuple[str, str]]:
    if rel.endswith("/NEWS_TRAIN"):
        folder = data / rel.rsplit("/", 1)[0]
        files = [folder / f"{name}.deu-eng.tsv.xz" for name in NEWS_TRAIN]
    else:
        files = [data / rel]
    pairs = read_all(files)
    if tokenised:
        pairs = [detok(de, en) for de, en in pairs]
    return [clean(de, en) for de, en in pairs]


def ding_phrases(path: Path, rng: random.Random) -> list[tuple[str, str]]:
    """Ding's phrase and sentence pairs, and DING_WORDS of its single compound nouns."""
    with lzma.open(path, "rt", encoding="utf-8") as f:
        pairs = list(ding_pairs(f))
    phrases = [p for p in pairs if " " in p[0]]
    words = [p for p in pairs if " " not in p[0]]
    rng.shuffle(words)
    return phrases + words[:DING_WORDS]


def software_messages(path: Path, rng: random.Random) -> list[tuple[str, str]]:
    """GETTEXT_PAIRS gettext messages of 3+ words a side with no placeholder or code."""
    pairs = [
        (de, en)
        for de, en in read_all([path])
        if len(de.split()) >= 3 and len(en.split()) >= 3 and not _CODE.search(de + en)
    ]
    rng.shuffle(pairs)
    return pairs[:GETTEXT_PAIRS]


def write_xz(path: Path, pairs: list[tuple[str, str]]) -> None:
    with lzma.open(path, "wt", encoding="utf-8", preset=1) as f:
        f.writelines(f"{de}\t{en}\n" for de, en in pairs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "prepared")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not args.data.is_dir():
        sys.exit(f"prepare_data: no data folder at {args.data} (give --data)")
    detok = Detokenizer()
    rng = random.Random(args.seed)

    tests = Blocklist()
    test_files = sorted(f for g in TEST_GLOBS for f in args.data.glob(g))
    for f in test_files:
        tests.add(read_all([f]))
    tests.add(read_all([REGISTER_TEST]))
    tests.add(read_all([EVERYDAY_TEST]))
    tests.add(read_all([FACTS_TEST]))
    print(f"{len(test_files)} test files: {len(tests.norm_de)} distinct German sentences")

    # Validation set first, so that its sentences can be kept out of training too.
    valid: list[tuple[str, str, str]] = []
    for name, rel, tokenised in VALID:
        pairs = [p for p in load(args.data, rel, tokenised, detok) if not tests.match(*p)]
        rng.shuffle(pairs)
        valid += [(name, de, en) for de, en in pairs[:VALID_PER_SOURCE]]
    tatoeba = [p for p in load(args.data, TRAIN[0][1], False, detok) if not tests.match(*p)]
    rng.shuffle(tatoeba)
    valid += [("tatoeba-heldout", de, en) for de, en in tatoeba[:VALID_PER_SOURCE]]
    rng.shuffle(valid)
    held = Blocklist()
    held.add((de, en) for _, de, en in valid)
    news_dev = [p for p in load(args.data, NEWS_DEV, False, detok) if not tests.match(*p)]
    held.add(news_dev)
    held.add(read_all([REGISTER_DEV]))
    held.add(read_all([EVERYDAY_DEV]))

    report: dict = {
        "corpora": {},
        "test_files": [str(f.relative_to(args.data)) for f in test_files]
        + [str(p.relative_to(ROOT)) for p in (REGISTER_TEST, EVERYDAY_TEST, FACTS_TEST)],
    }
    seen: set[tuple[str, str]] = set()
    out_pairs: list[tuple[str, str]] = []
    by_corpus: dict[str, list[tuple[str, str]]] = {}

    def keep(name: str, rel: str, licence: str, pairs, into_train: bool) -> None:
        counts: Counter = Counter()
        own = by_corpus[name] = []
        for de, en in pairs:
            counts["read"] += 1
            hit = tests.match(de, en)
            if hit:
                counts[f"removed: test set ({hit} match)"] += 1
            elif held.match(de, en):
                counts["removed: validation set"] += 1
            elif not de or not en:
                counts["removed: empty side"] += 1
            elif (de, en) in seen:
                counts["removed: duplicate"] += 1
            else:
                seen.add((de, en))
                own.append((de, en))
                if into_train:
                    out_pairs.append((de, en))
                counts["kept"] += 1
        report["corpora"][name] = {"file": rel, "licence": licence, **counts}
        print(f"{name:>18}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))

    for name, rel, tokenised, licence in TRAIN:
        keep(name, rel, licence, load(args.data, rel, tokenised, detok), into_train=True)
    readers = {
        "ding-phrases": ding_phrases,
        "gettext": software_messages,
        "register-own": lambda _path, _rng: list(register_pairs(REGISTER_OWN_PAIRS, seed=1)),
        "register-vocab": lambda _path, _rng: list(vocab_pairs(REGISTER_VOCAB_PAIRS, seed=1)),
        "register-ui": lambda _path, _rng: list(ui_pairs(REGISTER_UI_PAIRS, seed=1)),
    }
    for name, rel, licence in REGISTER_TRAIN:
        pairs = [clean(de, en) for de, en in readers[name](args.data / rel, rng)]
        keep(name, rel, licence, pairs, into_train=False)

    def nouns_in_frames(path: Path, _rng) -> list[tuple[str, str]]:
        german = word_counts(de for pairs in by_corpus.values() for de, _ in pairs)
        with lzma.open(path, "rt", encoding="utf-8") as f:
            return noun_frame_pairs(ding_nouns(f), german, NOUN_FRAME_WORDS)

    everyday = {
        "opus100": lambda path, _rng: web_pairs(read_all([path])),
        "debian-docs": lambda path, _rng: list(sentence_pairs(read_all([path]))),
        "xquad": lambda path, _rng: list(sentence_pairs(read_all([path]))),
        "ding-nouns": nouns_in_frames,
        "everyday-blocks": lambda _path, _rng: block_pairs(EVERYDAY_BLOCK_PAIRS, seed=1),
        "everyday-notices": lambda _path, _rng: notice_pairs(EVERYDAY_NOTICE_PAIRS, seed=1),
    }
    for name, rel, licence in EVERYDAY_TRAIN:
        pairs = [clean(de, en) for de, en in everyday[name](args.data / rel, rng)]
        keep(name, rel, licence, pairs, into_train=False)

    removed = Counter()
    for c in report["corpora"].values():
        for k, v in c.items():
            if k.startswith("removed: test"):
                removed[k] += v
    report["train_pairs"] = len(out_pairs)
    report["valid_pairs"] = len(valid)
    report["valid_sources"] = dict(Counter(name for name, _, _ in valid))
    report["removed_as_test"] = dict(removed)
    args.out.mkdir(parents=True, exist_ok=True)
    rng.shuffle(out_pairs)
    write_xz(args.out / "train.tsv.xz", out_pairs)
    (args.out / "corpora").mkdir(exist_ok=True)
    for name, pairs in by_corpus.items():
        write_xz(args.out / "corpora" / f"{name}.tsv.xz", pairs)
    with open(args.out / "valid.tsv", "w", encoding="utf-8") as f:
        f.writelines(f"{de}\t{en}\n" for _, de, en in valid)
    with open(args.out / "news-dev.tsv", "w", encoding="utf-8") as f:
        f.writelines(f"{de}\t{en}\n" for de, en in news_dev)
    report["news_dev"] = {"file": NEWS_DEV, "pairs": len(news_dev)}
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(
        f"train: {len(out_pairs)} pairs, valid: {len(valid)} pairs; removed as test sentences: "
        + ", ".join(f"{k.split('(')[1][:-1]} {v}" for k, v in removed.items())
        + f"\nwritten to {args.out}"
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except DataError as e:
        sys.exit(f"prepare_data: {e}")
