"""``build_model(config)``: the one place that turns a :class:`ModelConfig` into a network."""

from __future__ import annotations

from translator_app.core.models.config import ModelConfig
from translator_app.core.models.rnn import RNNSeq2Seq
from translator_app.core.models.seq2seq import EncoderDecoder
from translator_app.core.models.transformer import TransformerSeq2Seq


def build_model(config: ModelConfig) -> EncoderDecoder:
    if config.arch == "rnn":
        return RNNSeq2Seq(config)
    return TransformerSeq2Seq(config)
