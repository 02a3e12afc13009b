"""CTranslate2's vocabulary shortlist (a bundle's vmap.txt.xz, issue 31): built from
training pairs, read safely, used by the engine, kept by an export over the bundle."""

from __future__ import annotations

import lzma

import pytest

from conftest import tiny_pairs
from trainer import cli
from trainer.shortlist import build_shortlist
from translator_app.core import BundleError, Translator
from translator_app.core.engine import ct2
from translator_app.core.engine.bundle import load_bundle, write_shortlist
from translator_app.core.engine.bundle_format import SHORTLIST_FILE


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def trained_checkpoint(overfit_run):
    return overfit_run / "checkpoints" / "last.pt"


def _entries(text: str) -> dict[str, set[str]]:
    out = {}
    for line in text.splitlines():
        key, _, values = line.partition("\t")
        out[key] = set(values.split())
    return out


def test_the_map_allows_frequent_pieces_translations_and_copies(tokenizer):
    pairs = tiny_pairs()
    text = build_shortlist(tokenizer, pairs, always=10, per_piece=5)
    entries = _entries(text)
    assert all(line.count("\t") == 1 for line in text.splitlines())
    assert len(entries[""]) == 10  # the always-allowed line
    house = [p for p in tokenizer.encode("Haus").pieces if p in entries]
    assert house and any(
        p in entries[house[0]] | entries[""] for p in tokenizer.encode("house").pieces
    )
    for key, allowed in entries.items():
        if key:  # a German piece may always become itself (names and numbers copy)
            assert key in allowed | entries[""]
    specials = {tokenizer.piece(i) for i in tokenizer.special_ids().values()}
    assert not specials & set(entries)


@pytest.mark.skipif(not ct2.available(), reason="CTranslate2 is not installed")
def test_a_bundle_with_a_shortlist_decodes_within_it(make_bundle, tokenizer):
    bundle = make_bundle()
    plain = Translator.from_bundle(load_bundle(bundle, "cpu"))
    assert plain.engine is not None and not plain.engine.use_vmap
    sentence = ["Das Haus ist sehr groß und alt."]
    free = plain.translate(sentence, max_len_b=8)[0].best.target_ids
    # A map that allows only a few pieces, none of those the free decode chose: the
    # output must change and stay inside the map.
    vocab = ct2.vocabulary(tokenizer, tokenizer.vocab_size)
    allowed = [
        p for i, p in enumerate(vocab) if i > 3 and i not in free and p.isascii() and p != "\t"
    ][:6]
    write_shortlist(bundle, "\t" + " ".join(allowed) + "\n")
    loaded = load_bundle(bundle, "cpu")
    assert loaded.shortlist.startswith("\t")
    short = Translator.from_bundle(loaded)
    assert short.engine.use_vmap
    ids = short.translate(sentence, max_len_b=8)[0].best.target_ids
    assert ids != free
    assert {vocab[i] for i in ids[:-1]} <= set(allowed) and ids[-1] == tokenizer.eos_id


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"not xz at all", "is not an xz file"),
        (lzma.compress(b"\t\xff\xfe"), "is not UTF-8"),
        (lzma.compress("\t▁the\n▁Haus ▁house\n".encode()), "line 2: needs a German piece"),
        (lzma.compress("\t▁the\n".encode())[:-8], "cut short"),
    ],
)
def test_a_broken_shortlist_is_refused_with_its_file_and_line(make_bundle, content, problem):
    bundle = make_bundle()
    (bundle / SHORTLIST_FILE).write_bytes(content)
    with pytest.raises(BundleError) as e:
        load_bundle(bundle, "cpu")
    assert SHORTLIST_FILE in str(e.value) and problem in str(e.value)


def test_export_over_the_bundle_keeps_its_shortlist(tmp_path, trained_checkpoint, capsys):
    out = tmp_path / "bundle"
    assert cli.main(["export", str(trained_checkpoint), "--out", str(out)]) == 0
    data = tmp_path / "pairs.tsv"
    data.write_text("".join(f"{de}\t{en}\n" for de, en in tiny_pairs()), "utf-8")
    assert cli.main(["shortlist", str(out), "--data", str(data), "--always", "50"]) == 0
    assert "vmap.txt.xz" in capsys.readouterr().out
    made = load_bundle(out, "cpu").shortlist
    assert made and len(_entries(made)[""]) == 50
    again = ["export", str(trained_checkpoint), "--out", str(out), "--overwrite"]
    assert cli.main(again) == 0
    assert load_bundle(out, "cpu").shortlist == made
