"""A tokenizer of two SentencePiece models and one shared vocabulary (Marian, OPUS-MT).

OPUS-MT models cut German with ``source.spm`` and English with ``target.spm``; both map
their pieces to ids through one vocabulary (``vocab.json``: piece -> id), because the
model has a single embedding matrix. Pieces missing from the vocabulary are ``<unk>``,
and the source always ends in ``</s>`` (the translator and the trainer append it).
There is no BOS: the decoder starts from the padding id.

It offers the interface of :class:`~.tokenizer.Tokenizer`, so the translator, the
alignment panel and the trainer use it unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sentencepiece as spm

from translator_app.core.limits import parse_json
from translator_app.core.text.tokenizer import (
    SPM_FILE,
    Pieces,
    SpecialIds,
    Tokenizer,
    pieces_from_proto,
    tidied,
)

SOURCE_SPM_FILE = "source.spm"
TARGET_SPM_FILE = "target.spm"
VOCAB_FILE = "vocab.json"
PAIR_FILES = (SOURCE_SPM_FILE, TARGET_SPM_FILE, VOCAB_FILE)


class VocabularyError(ValueError):
    """A vocabulary that cannot serve a model; the message says why."""


def parse_vocab(raw: bytes) -> dict[str, int]:
    """``vocab.json`` -> {piece: id}, checked: ids 0..N-1, each once, and the specials
    ``</s>``, ``<unk>`` and ``<pad>`` present."""
    try:
        data = parse_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:  # bad JSON, too deep, 5,000-digit ids
        raise VocabularyError(f"is not a JSON vocabulary ({e})") from None
    if not isinstance(data, dict) or not data:
        raise VocabularyError("must hold a JSON object of piece -> id")
    ids = list(data.values())
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        raise VocabularyError("holds an id that is not an integer")
    if sorted(ids) != list(range(len(ids))):
        raise VocabularyError(f"ids must be 0..{len(ids) - 1}, each used once")
    missing = [s for s in ("</s>", "<unk>", "<pad>") if s not in data]
    if missing:
        raise VocabularyError(f"lacks the special piece(s) {', '.join(missing)}")
    return data


class PairTokenizer(SpecialIds):
    """Source and target SentencePiece models mapped through one vocabulary."""

    def __init__(self, source_proto: bytes, target_proto: bytes, vocab_json: bytes) -> None:
        self.source_proto, self.target_proto = bytes(source_proto), bytes(target_proto)
        self.vocab_json = bytes(vocab_json)
        self.source = spm.SentencePieceProcessor(model_proto=self.source_proto)
        self.target = spm.SentencePieceProcessor(model_proto=self.target_proto)
        self.vocab = parse_vocab(self.vocab_json)
        self.pieces = [""] * len(self.vocab)
        for piece, i in self.vocab.items():
            self.pieces[i] = piece
        self.eos_id, self.unk_id = self.vocab["</s>"], self.vocab["<unk>"]
        self.pad_id = self.bos_id = self.vocab["<pad>"]
        self._specials = {self.pad_id, self.eos_id}

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def has_byte_fallback(self) -> bool:
        return self.source.piece_to_id("<0xF0>") != self.source.unk_id()

    def piece(self, token_id: int) -> str:
        i = int(token_id)
        return self.pieces[i] if 0 <= i < len(self.pieces) else "<unk>"

    def _ids(self, pieces: Iterable[str]) -> list[int]:
        unk = self.unk_id
        return [self.vocab.get(p, unk) for p in pieces]

    def encode(self, text: str) -> Pieces:
        """German ``text`` -> shared-vocabulary ids (no EOS), pieces and character spans."""
        p = pieces_from_proto(self.source.encode(text, out_type="proto"), text)
        return Pieces(p.text, tuple(self._ids(p.pieces)), p.pieces, p.spans)

    def encode_ids(self, texts: Sequence[str], side: str = "source") -> list[list[int]]:
        sp = self.source if side == "source" else self.target
        return [self._ids(pieces) for pieces in sp.encode(list(texts), out_type=str)]

    def decode(self, ids: Iterable[int]) -> Pieces:
        """English text from shared-vocabulary ids (padding and EOS dropped), detokenised
        by the target model, with pieces and spans. Ids keep their place: the spans line
        up with the ids given (a piece the target model lacks decodes as its unknown)."""
        ids = [int(i) for i in ids if int(i) not in self._specials]
        target_ids = [self.target.piece_to_id(self.piece(i)) for i in ids]
        proto = self.target.decode(target_ids, out_type="proto")
        p = tidied(pieces_from_proto(proto, proto.text))
        return Pieces(p.text, tuple(ids), p.pieces, p.spans)

    def files(self) -> dict[str, bytes]:
        return {
            SOURCE_SPM_FILE: self.source_proto,
            TARGET_SPM_FILE: self.target_proto,
            VOCAB_FILE: self.vocab_json,
        }


def tokenizer_from_files(files: dict[str, bytes]) -> Tokenizer | PairTokenizer:
    """The tokenizer that :meth:`files` wrote: one joint ``spm.model``, or the pair."""
    if SPM_FILE in files:
        return Tokenizer(files[SPM_FILE])
    missing = [f for f in PAIR_FILES if f not in files]
    if missing:
        raise ValueError(f"tokenizer files missing: {', '.join(missing)}")
    return PairTokenizer(files[SOURCE_SPM_FILE], files[TARGET_SPM_FILE], files[VOCAB_FILE])
