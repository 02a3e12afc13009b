"""Hardening of the trainer's data readers and training files (#15)."""

from __future__ import annotations

import gzip
import lzma

import pytest

from conftest import peak_rss_mb
from translator_app.core.data.corpus import MAX_LINE_BYTES, DataError, read_pairs


def _write_xz_with_huge_line(path, total: int) -> None:
    """``Hallo<TAB>Hello``, then one line of ``total`` bytes, streamed (never in memory)."""
    block = b"x" * (1 << 20)
    with lzma.open(path, "wb", preset=0) as f:
        f.write(b"Hallo\tHello\n")
        for _ in range(total // len(block)):
            f.write(block)
        f.write(b"\tend\n")


@pytest.mark.slow
def test_a_huge_line_in_a_compressed_file_is_refused_while_streaming(tmp_path):
    """A small .xz holding one 256 MB line was read whole (4.5 GB for 2 GiB)."""
    path = tmp_path / "bomb.tsv.xz"
    _write_xz_with_huge_line(path, 256 << 20)
    assert path.stat().st_size < 1 << 20
    before = peak_rss_mb()
    pairs = read_pairs(path)
    assert next(pairs) == (1, ("Hallo", "Hello"))
    with pytest.raises(DataError, match=r"bomb.tsv.xz:2: line is longer than"):
        next(pairs)
    assert peak_rss_mb() - before < 100


def test_a_long_but_legal_line_is_read(tmp_path):
    path = tmp_path / "long.tsv"
    de = "Wort " * 10_000
    path.write_text(f"{de}\tword\n", "utf-8")
    assert next(read_pairs(path)) == (1, (de, "word"))
    assert len(de.encode()) < MAX_LINE_BYTES


@pytest.mark.parametrize("suffix", [".gz", ".xz"])
def test_truncated_compressed_file_names_the_line_reached(tmp_path, suffix):
    path = tmp_path / f"cut.tsv{suffix}"
    data = "".join(f"Satz {i}\tSentence {i}\n" for i in range(5000)).encode()
    packed = gzip.compress(data) if suffix == ".gz" else lzma.compress(data)
    path.write_bytes(packed[: len(packed) // 2])
    with pytest.raises(DataError, match=r"cut.tsv\.(gz|xz):\d+: cannot be read after line \d+"):
        for _ in read_pairs(path):
            pass


@pytest.mark.slow
def test_tmx_on_one_long_line_still_reads_and_a_giant_unit_is_refused(tmp_path):
    unit = '<tu><tuv xml:lang="de"><seg>Hallo</seg></tuv><tuv xml:lang="en"><seg>Hello</seg></tuv></tu>'
    ok = tmp_path / "one-line.tmx"
    ok.write_text(f'<tmx version="1.4"><body>{unit * 30_000}</body></tmx>', "utf-8")
    pairs = list(read_pairs(ok))
    assert len(pairs) == 30_000 and pairs[-1] == (1, ("Hallo", "Hello"))
    bad = tmp_path / "giant.tmx"
    with open(bad, "w", encoding="utf-8") as f:
        f.write('<tmx version="1.4"><body><tu><tuv xml:lang="de"><seg>')
        for _ in range(10):
            f.write("x" * (1 << 20))
        f.write("</seg></tuv></tu></body></tmx>")
    with pytest.raises(DataError, match="giant.tmx:1: a translation unit is longer than"):
        list(read_pairs(bad))


def test_a_tmx_of_empty_elements_between_units_is_refused_quickly_in_little_memory(tmp_path):
    """600 units each followed by 90,000 empty elements (245 KB gzipped) took 66 s and
    4.45 GB, then ended the fine-tune with std::bad_alloc: every element was kept."""
    import resource
    import time

    unit = '<tu><tuv xml:lang="de"><seg>Hallo</seg></tuv><tuv xml:lang="en"><seg>Hello</seg></tuv></tu>'
    path = tmp_path / "padded.tmx.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write('<tmx version="1.4"><body>')
        for _ in range(100):
            f.write(unit + "<x/>" * 90_000)
        f.write("</body></tmx>")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    with pytest.raises(DataError, match=r"padded\.tmx\.gz:1: more than 10,000 XML elements"):
        list(read_pairs(path))
    assert time.perf_counter() - started < 10
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KB


def test_units_with_inline_markup_and_notes_between_them_are_all_read(tmp_path):
    unit = '<tu><tuv xml:lang="de"><seg>Hallo <ph/>Welt</seg></tuv><tuv xml:lang="en"><seg>Hello <ph/>world</seg></tuv></tu>'
    path = tmp_path / "notes.tmx"
    path.write_text(
        f'<tmx version="1.4"><header><prop type="x">a</prop></header><body>'
        f"{(unit + '<note/>' * 50) * 1000}</body></tmx>",
        "utf-8",
    )
    pairs = [pair for _, pair in read_pairs(path)]
    assert pairs == [("Hallo Welt", "Hello world")] * 1000
