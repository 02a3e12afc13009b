"""Parallel text, Qt-free and torch-free, for the trainer and the app alike: reading TSV,
line-aligned ``x.de`` + ``x.en`` pairs and TMX (each optionally ``.gz`` or ``.xz``
compressed), filtering (empty sides, lengths, ratio, duplicates, test sentences) and the
held-out split.

Bad data is reported, never swallowed: every problem raises :class:`DataError`, whose
message names the file and the line.
"""

from __future__ import annotations

import gzip
import lzma
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from translator_app.core.limits import MAX_LINE_CHARS

Pair = tuple[str, str]
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


class DataError(Exception):
    """A problem in a data file: ``str()`` is ``FILE:LINE: problem``."""

    def __init__(self, path: str | Path, line: int | None, problem: str) -> None:
        self.path, self.line, self.problem = Path(path), line, problem
        where = f"{self.path}:{line}" if line else str(self.path)
        super().__init__(f"{where}: {problem}")


def open_binary(path: Path) -> BinaryIO:
    if not path.is_file():
        raise DataError(path, None, "no such file")
    if path.suffix == ".gz":
        return gzip.open(path, "rb")
    if path.suffix == ".xz":
        return lzma.open(path, "rb")
    return open(path, "rb")


def base_suffix(path: Path) -> str:
    """The format suffix, under any compression suffix: ``x.tsv.xz`` -> ``.tsv``."""
    return Path(path.stem).suffix if path.suffix in (".gz", ".xz") else path.suffix


# A line longer than this (in UTF-8 bytes) is not a sentence pair: the file is binary or
# broken. It is refused while streaming, so a 2 GiB line is never held in memory.
MAX_LINE_BYTES = 4 * MAX_LINE_CHARS
_CHUNK_BYTES = 1 << 20
# XML elements a TMX may hold in one translation unit, or between two: a unit has its
# variants and some inline markup; a file with 90,000 empty elements after each unit
# took minutes and gigabytes to read.
MAX_TMX_ELEMENTS = 10_000


class _Position:
    """The line a reader has reached, for messages about a file that breaks off."""

    def __init__(self) -> None:
        self.line = 0


def _read_error(path: Path, pos: _Position, e: BaseException) -> DataError:
    """A truncated or corrupt compressed file: say how far the reading got."""
    if pos.line:
        return DataError(path, pos.line + 1, f"cannot be read after line {pos.line} ({e})")
    return DataError(path, None, f"cannot be read ({e})")


def _bounded_lines(f: BinaryIO, path: Path, pos: _Position) -> Iterator[bytes]:
    while True:
        raw = f.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        pos.line += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            raise DataError(
                path,
                pos.line,
                f"line is longer than {MAX_LINE_CHARS:,} characters; not a text file of "
                "sentence pairs?",
            )
        yield raw


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    pos = _Position()
    try:
        with open_binary(path) as f:
            for raw in _bounded_lines(f, path, pos):
                try:
                    line = raw.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError as e:
                    raise DataError(
                        path, pos.line, f"invalid UTF-8 (byte {e.start} of the line)"
                    ) from None
                if "\x00" in line:
                    raise DataError(path, pos.line, "holds a NUL byte (binary data, not text)")
                yield pos.line, line
    except (OSError, EOFError, lzma.LZMAError) as e:
        raise _read_error(path, pos, e) from None


def read_tsv(path: Path) -> Iterator[tuple[int, Pair]]:
    """``german<TAB>english`` per line; blank lines are skipped."""
    for number, line in _lines(path):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) < 2:
            raise DataError(path, number, "no tab between the German and the English text")
        if len(parts) > 2:
            raise DataError(path, number, f"{len(parts) - 1} tabs; expected exactly one")
        yield number, (parts[0], parts[1])


def read_aligned(de_path: Path, en_path: Path) -> Iterator[tuple[int, Pair]]:
    """Line N of the German file translates to line N of the English file."""
    de_lines, en_lines = _lines(de_path), _lines(en_path)
    sentinel = (0, None)
    while True:
        (n_de, de), (n_en, en) = next(de_lines, sentinel), next(en_lines, sentinel)
        if de is None and en is None:
            return
        if de is None or en is None:
            short, long_path, n = (
                (de_path, en_path, n_en) if de is None else (en_path, de_path, n_de)
            )
            raise DataError(
                short,
                None,
                f"has fewer lines than {long_path.name} (which goes on at line {n}); "
                "aligned files must have the same number of lines",
            )
        yield n_de, (de, en)


def read_tmx(path: Path) -> Iterator[tuple[int, Pair]]:
    """Translation units with a German and an English variant (``xml:lang`` de*/en*).
    Read in bounded parts (a TMX may be one long line); a unit larger than MAX_LINE_BYTES
    is refused."""
    pos = _Position()  # lines fully read, for messages
    try:
        with open_binary(path) as f:
            parser = ET.XMLPullParser(events=("start", "end"))
            unit_bytes = 0
            open_elements = []  # from the root to the element being read
            units_open = elements = 0  # elements: since the last unit began
            # Lines, or 1 MB parts of a longer line: line numbers stay exact.
            while chunk := f.readline(_CHUNK_BYTES):
                parser.feed(chunk)
                unit_bytes += len(chunk)
                line = pos.line + 1
                for event, elem in parser.read_events():
                    if event == "start":
                        open_elements.append(elem)
                        elements = 0 if elem.tag == "tu" else elements + 1
                        if elements > MAX_TMX_ELEMENTS:
                            raise DataError(
                                path,
                                line,
                                f"more than {MAX_TMX_ELEMENTS:,} XML elements in or between "
                                "translation units; refused",
                            )
                        if elem.tag == "tu":
                            units_open += 1
                            unit_bytes = 0
                        continue
                    open_elements.pop()
                    if elem.tag == "tu":
                        units_open -= 1
                        texts = _unit_texts(elem)
                        if "de" in texts and "en" in texts:
                            yield line, (texts["de"], texts["en"])
                    if not units_open and open_elements:
                        # Nothing is kept outside a unit: a body of millions of empty
                        # elements between units took gigabytes (issue 86 §3).
                        open_elements[-1].remove(elem)
                if unit_bytes > MAX_LINE_BYTES:
                    raise DataError(
                        path,
                        line,
                        f"a translation unit is longer than {MAX_LINE_CHARS:,} characters",
                    )
                pos.line += chunk.endswith(b"\n")
            parser.close()
    except ET.ParseError as e:
        line = e.position[0] if e.position else None
        raise DataError(path, line, f"malformed TMX ({str(e).split(':')[0]})") from None
    except (OSError, EOFError, lzma.LZMAError) as e:
        raise _read_error(path, pos, e) from None


def _unit_texts(unit: ET.Element) -> dict[str, str]:
    """The German and English segments of a TMX translation unit, by language."""
    texts = {}
    for tuv in unit.iter("tuv"):
        lang = (tuv.get(_XML_LANG) or tuv.get("lang") or "").lower()[:2]
        seg = tuv.find("seg")
        if seg is not None and lang in ("de", "en"):
            texts[lang] = "".join(seg.itertext())
    return texts


def partner(path: Path, lang_suffix: str) -> Path:
    """``x.de.gz`` -> ``x.en.gz`` (for ``lang_suffix=".en"``) and the other way round."""
    comp = path.suffix if path.suffix in (".gz", ".xz") else ""
    base = path.name[: len(path.name) - len(comp)]
    return path.with_name(base[:-3] + lang_suffix + comp)


def read_pairs(path: Path) -> Iterator[tuple[int, Pair]]:
    """Pairs of one data file, by its suffix. A ``.de`` file is read with the ``.en`` file
    beside it (same name, same compression)."""
    path = Path(path)
    kind = base_suffix(path)
    if kind == ".tmx":
        return read_tmx(path)
    if kind == ".de":
        en = partner(path, ".en")
        if not en.is_file():
            raise DataError(path, None, f"has no English side: expected {en.name} next to it")
        return read_aligned(path, en)
    if kind == ".en":
        raise DataError(
            path, None, "is an English side; give the .de file (its .en partner is found)"
        )
    return read_tsv(path)


def read_each(paths: Sequence[Path]) -> Iterator[tuple[int, Pair]]:
    """Every pair of every file, in order, with the index in ``paths`` of its file.
    ``x.en`` partners of given ``x.de`` files are skipped if listed too."""
    given = {Path(p) for p in paths}
    for i, p in enumerate(paths):
        p = Path(p)
        if base_suffix(p) == ".en" and partner(p, ".de") in given:
            continue
        for _, pair in read_pairs(p):
            yield i, pair


def read_all(paths: Sequence[Path]) -> Iterator[Pair]:
    """Every pair of every file, in order (:func:`read_each` without the file index)."""
    for _, pair in read_each(paths):
        yield pair


# ---------------------------------------------------------------- filters and splits
def normalise(text: str) -> str:
    """The "normalised match" used to find test sentences: NFKC, case- and
    whitespace-insensitive."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@dataclass
class FilterReport:
    read: int = 0
    kept: int = 0
    dropped: Counter = field(default_factory=Counter)

    def lines(self) -> list[str]:
        out = [f"read {self.read} pairs, kept {self.kept}"]
        out += [f"  dropped {n:>8}  {why}" for why, n in self.dropped.most_common()]
        return out


class Blocklist:
    """Test sentences, which must never be trained on: a pair is out when either side
    matches a test pair's side, exactly or after :func:`normalise`. The one rule of
    scripts/prepare_data.py and the trainer's ``exclude_test``."""

    def __init__(self, pairs: Iterable[Pair] = ()) -> None:
        self.exact_de: set[str] = set()
        self.exact_en: set[str] = set()
        self.norm_de: set[str] = set()
        self.norm_en: set[str] = set()
        self.add(pairs)

    def add(self, pairs: Iterable[Pair]) -> None:
        for de, en in pairs:
            self.exact_de.add(de.strip())
            self.exact_en.add(en.strip())
            self.norm_de.add(normalise(de))
            self.norm_en.add(normalise(en))

    def match(self, de: str, en: str) -> str | None:
        """ "exact", "normalised" or None."""
        if de.strip() in self.exact_de or en.strip() in self.exact_en:
            return "exact"
        if normalise(de) in self.norm_de or normalise(en) in self.norm_en:
            return "normalised"
        return None


def test_sentences(paths: Sequence[Path]) -> Blocklist:
    """The pairs of test files, to keep out of training data."""
    return Blocklist(pair for p in paths for pair in read_all([p]))


# What filter_pairs keeps by default, and a training config's [data] max_chars/max_ratio.
MAX_PAIR_CHARS = 1000
MAX_LENGTH_RATIO = 3.0


def filter_pairs(
    pairs: Iterable[Pair],
    *,
    max_chars: int = MAX_PAIR_CHARS,
    max_ratio: float = MAX_LENGTH_RATIO,
    exclude: Blocklist | None = None,
    report: FilterReport | None = None,
) -> list[Pair]:
    """Keep the usable pairs. ``exclude``: test pairs (either side, exact or normalised)."""
    report = report if report is not None else FilterReport()
    seen: set[Pair] = set()
    kept: list[Pair] = []
    for de, en in pairs:
        report.read += 1
        de, en = de.strip(), en.strip()
        if not de or not en:
            report.dropped["empty side"] += 1
        elif len(de) > max_chars or len(en) > max_chars:
            report.dropped[f"longer than {max_chars} characters"] += 1
        elif max(len(de), len(en)) > max_ratio * min(len(de), len(en)) + 10:
            report.dropped[f"length ratio above {max_ratio}"] += 1
        elif exclude is not None and exclude.match(de, en):
            report.dropped["in a test set"] += 1
        elif (de, en) in seen:
            report.dropped["exact duplicate"] += 1
        else:
            seen.add((de, en))
            kept.append((de, en))
    report.kept = len(kept)
    return kept


MAX_HELDOUT = 200  # pairs a fine-tune holds out to stop on, and as many to report on


def heldout_size(pairs: int) -> int:
    """How many of a fine-tune's ``pairs`` it holds out for each of its held-out sets
    (choosing when to stop; reporting): a tenth, at least 2 and at most 200."""
    return min(MAX_HELDOUT, max(2, pairs // 10))


def split_heldout(pairs: list[Pair], size: int, seed: int) -> tuple[list[Pair], list[Pair]]:
    """A reproducible held-out split: (train, held-out)."""
    size = max(0, min(size, len(pairs) // 5 if len(pairs) >= 5 else 0))
    import torch  # its generator: the same split as every earlier run for a seed

    g = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(pairs), generator=g).tolist()
    held = sorted(order[:size])
    held_set = set(held)
    return [p for i, p in enumerate(pairs) if i not in held_set], [pairs[i] for i in held]


def finetune_split(
    pairs: list[Pair], stop_size: int, seed: int
) -> tuple[list[Pair], list[Pair], list[Pair]]:
    """A fine-tune's pairs in three, split alike by the app's Teach and by
    ``translator-train finetune`` (same seed: same report pairs): (train, stop, report).
    The report pairs (:func:`heldout_size`) are held out first and play no part in
    choosing the model, so the verdict on them is honest; the stop pairs (``stop_size``)
    choose the checkpoint."""
    rest, report = split_heldout(list(pairs), heldout_size(len(pairs)), seed)
    train, stop = split_heldout(rest, stop_size, seed + 1)
    return train, stop, report
