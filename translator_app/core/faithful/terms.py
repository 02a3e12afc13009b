"""Inline term annotations (Dinu et al. 2019, "Training neural machine translation to
apply terminology constraints"), shared by the trainer and the translator (issue 30).

A German term is followed by the English it must become, between marker tokens:

    Die <term> Zauberpfanne <means> MagicPan </term> ist spülmaschinenfest.

A model trained on such annotations (trainer/term_data.py makes them from a dictionary)
copies the English into its output. The markers are SentencePiece pieces of their own
(user-defined symbols, always one piece each), added to an existing tokenizer by
:func:`with_term_markers`; the model's embedding grows by one row per marker.
"""

from __future__ import annotations

from collections.abc import Sequence

TERM_START, TERM_MEANS, TERM_END = "<term>", "<means>", "</term>"
MARKERS = (TERM_START, TERM_MEANS, TERM_END)


def has_term_markers(tokenizer) -> bool:
    """Whether ``tokenizer`` encodes each marker as one piece of its own."""
    sp = getattr(tokenizer, "sp", None)
    return sp is not None and all(sp.piece_to_id(m) != sp.unk_id() for m in MARKERS)


def with_term_markers(model_proto: bytes) -> bytes:
    """``model_proto`` (an ``spm.model``) with the markers appended as user-defined
    pieces (ids after every existing one, so the other ids are unchanged). Needs protobuf
    (training only: a model that has them loads without it)."""
    from sentencepiece import sentencepiece_model_pb2 as pb

    proto = pb.ModelProto()
    proto.ParseFromString(model_proto)
    have = {p.piece for p in proto.pieces}
    for marker in MARKERS:
        if marker not in have:
            piece = proto.pieces.add()
            piece.piece, piece.score = marker, 0.0
            piece.type = pb.ModelProto.SentencePiece.USER_DEFINED
    return proto.SerializeToString()


def annotation(source_term: str, target_term: str) -> str:
    return f"{TERM_START} {source_term} {TERM_MEANS} {target_term} {TERM_END}"


def mask_markers(text: str) -> str:
    """Marker strings typed by a user become look-alikes (‹term›, of the same length, so
    character spans hold): a user's text must not carry instructions to the model."""
    for marker in MARKERS:
        text = text.replace(marker, marker.replace("<", "\u2039").replace(">", "\u203a"))
    return text


def annotate_spans(text: str, spans: Sequence[tuple[int, int, str]]) -> str:
    """``text`` with each (start, end, English) span annotated; spans must not overlap."""
    out, pos = [], 0
    for start, end, english in sorted(spans):
        if start < pos:
            raise ValueError("term spans overlap")
        out += [text[pos:start], annotation(text[start:end], english)]
        pos = end
    out.append(text[pos:])
    return "".join(out)
