"""SentencePiece tokenizer: one joint German+English model with byte fallback.

Byte fallback means no input is ever "unknown": characters outside the vocabulary are
spelled as UTF-8 byte pieces (``<0xF0>`` ...) and decode back to the same characters.
Text is NFKC-normalised by SentencePiece's ``nmt_nfkc`` rule (which also turns control
characters into spaces). :meth:`Tokenizer.encode` also returns, for every piece, its
character span in the *original* text, which the app uses to highlight aligned words.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import sentencepiece as spm

PAD_ID, UNK_ID, BOS_ID, EOS_ID = 0, 1, 2, 3
SPM_FILE = "spm.model"
PIECE_MARK = "\u2581"  # SentencePiece's "a word starts here" (▁)
EOS_PIECE = "</s>"  # how the end of a sentence is shown among the pieces
Span = tuple[int, int]
REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class Pieces:
    """Token ids, their visible pieces and their [start, end) character spans in ``text``."""

    text: str
    ids: tuple[int, ...]
    pieces: tuple[str, ...]
    spans: tuple[Span, ...]


def _byte_to_char(text: str) -> list[int] | None:
    """Map UTF-8 byte offsets of ``text`` to character offsets (None when ASCII)."""
    raw_len = len(text.encode("utf-8"))
    if raw_len == len(text):
        return None
    table = [0] * (raw_len + 1)
    pos = 0
    for i, ch in enumerate(text):
        n = len(ch.encode("utf-8", "surrogatepass"))
        for j in range(n):
            table[pos + j] = i
        pos += n
    table[raw_len] = len(text)
    return table


def pieces_from_proto(proto, text: str) -> Pieces:
    table = _byte_to_char(text)
    ids, pieces, spans = [], [], []
    for p in proto.pieces:
        ids.append(p.id)
        pieces.append(p.piece)
        begin, end = p.begin, p.end
        if table is not None:
            begin, end = table[min(begin, len(table) - 1)], table[min(end, len(table) - 1)]
        spans.append((begin, end))
    return Pieces(text, tuple(ids), tuple(pieces), tuple(spans))


# A full stop right after "a.m." / "p.m.": English writes one ("at 2 p.m."), while a model
# copying the annotated time "2 p.m." and then ending the sentence or clause writes two.
_CLOCK_DOUBLE_STOP = re.compile(r"(?<=\b[ap]\.m\.)\.")
# "the the": a model writing its own article before a glossary term that was asked for
# with one („im Vertrag“ -> "in the the agreement"; core/faithful/glossary.py). English
# never doubles it, so every "the" after the first goes (the first keeps a sentence's
# capital; a dictionary term after „im“ gave "in the the the ground floor").
_DOUBLE_THE = re.compile(r"\b[Tt]he((?: the)+)\b")


def tidied(p: Pieces) -> Pieces:
    """``p`` with every U+FFFD, every doubled stop after a.m./p.m. and the second of a
    doubled "the" removed from its text, and its spans shifted to match."""
    drop = {m.start() for m in _CLOCK_DOUBLE_STOP.finditer(p.text)}
    for m in _DOUBLE_THE.finditer(p.text):
        drop.update(range(m.start(1), m.end(1)))
    if REPLACEMENT in p.text:  # rare: the common decode skips the per-character scan
        drop.update(i for i, ch in enumerate(p.text) if ch == REPLACEMENT)
    if not drop:
        return p
    before = [0] * (len(p.text) + 1)  # dropped characters before each offset
    for i in range(len(p.text)):
        before[i + 1] = before[i] + (i in drop)
    spans = tuple((b - before[b], e - before[e]) for b, e in p.spans)
    text = "".join(ch for i, ch in enumerate(p.text) if i not in drop)
    return Pieces(text, p.ids, p.pieces, spans)


class SpecialIds:
    """The special ids of a tokenizer, under the names the model config gives them."""

    pad_id: int
    unk_id: int
    bos_id: int
    eos_id: int

    def special_ids(self) -> dict[str, int]:
        return {
            "pad_id": self.pad_id,
            "unk_id": self.unk_id,
            "bos_id": self.bos_id,
            "eos_id": self.eos_id,
        }


class Tokenizer(SpecialIds):
    """A loaded SentencePiece model. Build from bytes (``spm.model`` content)."""

    def __init__(self, model_proto: bytes) -> None:
        self.model_proto = bytes(model_proto)
        self.sp = spm.SentencePieceProcessor(model_proto=self.model_proto)
        self.pad_id, self.unk_id = self.sp.pad_id(), self.sp.unk_id()
        self.bos_id, self.eos_id = self.sp.bos_id(), self.sp.eos_id()
        self._specials = {self.pad_id, self.bos_id, self.eos_id}

    @classmethod
    def from_file(cls, path: str | Path) -> Tokenizer:
        return cls(Path(path).read_bytes())

    @property
    def vocab_size(self) -> int:
        return self.sp.vocab_size()

    def has_byte_fallback(self) -> bool:
        return self.sp.piece_to_id("<0xF0>") != self.unk_id

    def piece(self, token_id: int) -> str:
        return self.sp.id_to_piece(int(token_id))

    def encode(self, text: str) -> Pieces:
        """Ids (no BOS/EOS), pieces and character spans of ``text``."""
        return pieces_from_proto(self.sp.encode(text, out_type="proto"), text)

    def encode_ids(self, texts: Sequence[str], side: str = "source") -> list[list[int]]:
        """Fast batch encoding to ids (training). One joint model serves both sides."""
        return self.sp.encode(list(texts), out_type=int)

    def files(self) -> dict[str, bytes]:
        """The files a bundle or checkpoint stores to rebuild this tokenizer."""
        return {SPM_FILE: self.model_proto}

    def decode(self, ids: Iterable[int]) -> Pieces:
        """Text as SentencePiece detokenises it, with pieces and their spans in that text.
        BOS/EOS/padding are dropped. Byte pieces that do not form valid UTF-8 (a model can
        emit the first bytes of "€" and then a word) decode to U+FFFD in SentencePiece;
        those characters are removed, so that no replacement character reaches the user;
        so is a second stop after "a.m."/"p.m." (``tidied``)."""
        ids = [int(i) for i in ids if int(i) not in self._specials]
        if not ids:  # an empty output; sentencepiece <= 0.2.2 raises TypeError on []
            return Pieces(text="", ids=(), pieces=(), spans=())
        proto = self.sp.decode(ids, out_type="proto")
        return tidied(pieces_from_proto(proto, proto.text))


def train_sentencepiece(
    sentences: Iterable[str],
    vocab_size: int,
    model_type: str = "unigram",
    character_coverage: float = 0.9999,
    input_sentence_size: int = 2_000_000,
    num_threads: int = 2,
    seed_sentencepiece_size: int = 1_000_000,
) -> bytes:
    """Train a joint model with the project's special ids and byte fallback; returns the
    serialized model (the content of ``spm.model``)."""
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(sentences),
        model_writer=out,
        vocab_size=vocab_size,
        model_type=model_type,
        character_coverage=character_coverage,
        byte_fallback=True,
        normalization_rule_name="nmt_nfkc",
        pad_id=PAD_ID,
        unk_id=UNK_ID,
        bos_id=BOS_ID,
        eos_id=EOS_ID,
        input_sentence_size=input_sentence_size,
        shuffle_input_sentence=True,
        seed_sentencepiece_size=seed_sentencepiece_size,
        num_threads=num_threads,
        hard_vocab_limit=False,
        minloglevel=2,
    )
    return out.getvalue()
