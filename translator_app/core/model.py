"""``build_model(config)``: the one place that turns a :class:`ModelConfig` into a network."""

from __future__ import annotations

from .config import ModelConfig
from .rnn import RNNSeq2Seq
from .seq2seq import EncoderDecoder
from .transformer import TransformerSeq2Seq


def build_model(config: ModelConfig) -> EncoderDecoder:
    if config.arch == "rnn":
        return RNNSeq2Seq(config)
    return TransformerSeq2Seq(config)
