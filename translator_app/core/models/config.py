"""Model configuration: one frozen dataclass saved with every checkpoint and bundle.

The fields are exactly the constructor arguments of the models (nanoGPT style), so a
config read back from ``config.json`` rebuilds the same network. Unknown keys are an
error that lists the valid ones, because a silently ignored typo in a training config
costs hours.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from translator_app.core.limits import MAX_HEADS, MAX_LAYERS, MAX_POSITIONS, MAX_VOCAB, MAX_WIDTH
from translator_app.core.models.from_dict import from_dict

ARCHITECTURES = ("rnn", "transformer")
RNN_TYPES = ("gru", "lstm", "lstm_peephole", "lstm_coupled")  # the last two: models/cells.py
SCORERS = ("additive", "dot", "general", "concat", "scaled_dot", "cosine")
# Where the RNN decoder may attend (Luong et al. 2015): every source position, or a window
# of 2 * window + 1 positions around the target step (local-m) or a predicted position
# (local-p, with a Gaussian of sd window / 2).
LOCALITIES = ("global", "local-m", "local-p")
DECODER_STYLES = ("bahdanau", "luong")
# "sinusoidal": sines and cosines interleaved (Vaswani et al.); "sinusoidal_halves": all
# sines first, then all cosines (Marian and the OPUS-MT models).
POSITION_KINDS = ("sinusoidal", "learned", "sinusoidal_halves")
NORM_PLACEMENTS = ("pre", "post")
ACTIVATIONS = ("relu", "silu", "gelu")
DECODER_STARTS = ("bos", "pad")


_CAPS = {
    "vocab_size": MAX_VOCAB,
    "enc_layers": MAX_LAYERS,
    "dec_layers": MAX_LAYERS,
    "n_heads": MAX_HEADS,
    "max_positions": MAX_POSITIONS,
}


class ConfigError(ValueError):
    """A model configuration that cannot build a model; the message says which field."""


@dataclass(frozen=True)
class ModelConfig:
    arch: str = "transformer"
    vocab_size: int = 16000
    pad_id: int = 0
    unk_id: int = 1
    bos_id: int = 2
    eos_id: int = 3
    dropout: float = 0.1
    # One embedding matrix for source, target and output projection (joint vocabulary).
    tie_embeddings: bool = True
    enc_layers: int = 3
    dec_layers: int = 3

    # RNN encoder-decoder.
    rnn_type: str = "gru"
    emb_dim: int = 256
    enc_hidden: int = 256  # per direction; the encoder is bi-directional
    dec_hidden: int = 512
    attention: str = "additive"
    decoder_style: str = "bahdanau"
    attn_dim: int = 256  # hidden size of the additive / concat scorers
    locality: str = "global"  # global, local-m or local-p (LOCALITIES)
    window: int = 10  # D of local attention: positions on each side of the centre

    # Transformer.
    d_model: int = 256
    n_heads: int = 4
    ff_dim: int = 1024
    positions: str = "sinusoidal"
    max_positions: int = 1024
    # Which decoder layer's cross-attention is the alignment (negative counts from the
    # top); the second to last layer aligns best in the literature (Garg et al., 2019).
    alignment_layer: int = -2
    # Which head of that layer; -1 averages the heads. Models trained with guided
    # alignment (OPUS-MT) put the alignment into one head.
    alignment_head: int = -1
    # Layer normalisation before each sublayer (with a final norm; our models) or after the
    # residual sum (the original Transformer and Marian, no final norm).
    norm: str = "pre"
    activation: str = "relu"  # of the feed-forward sublayer; Marian's "swish" is silu
    scale_embeddings: bool = True  # token embeddings times sqrt(d_model)
    output_bias: bool = False  # a bias on the output layer (Marian's final_logits_bias)
    # The first decoder input: BOS (our models) or padding (Marian, which has no BOS; its
    # bos_id then equals pad_id).
    decoder_start: str = "bos"

    def __post_init__(self) -> None:
        problems = self._problems()
        if problems:
            raise ConfigError("invalid model config: " + "; ".join(problems))

    def _problems(self) -> list[str]:
        p: list[str] = []

        def choice(name: str, options: tuple[str, ...]) -> None:
            value = getattr(self, name)
            if value not in options:
                p.append(f"{name}={value!r} is not one of {', '.join(options)}")

        def positive(*names: str) -> None:
            """Positive integers, at most the limit of their kind (core/limits)."""
            for name in names:
                value = getattr(self, name)
                cap = _CAPS.get(name, MAX_WIDTH)
                if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                    p.append(f"{name}={value!r} must be a positive integer")
                elif value > cap:
                    p.append(f"{name}={value!r} is larger than the limit {cap}")

        choice("arch", ARCHITECTURES)
        positive("vocab_size", "enc_layers", "dec_layers")
        if not 0.0 <= float(self.dropout) < 1.0:
            p.append(f"dropout={self.dropout!r} must be in [0, 1)")
        choice("decoder_start", DECODER_STARTS)
        specials = (self.pad_id, self.unk_id, self.bos_id, self.eos_id)
        inside = all(isinstance(s, int) and 0 <= s < max(self.vocab_size, 1) for s in specials)
        if self.decoder_start == "pad":
            distinct = len({self.pad_id, self.unk_id, self.eos_id}) == 3
            if self.bos_id != self.pad_id:
                p.append('decoder_start="pad" models have no BOS: bos_id must equal pad_id')
        else:
            distinct = len(set(specials)) == 4
        if not (inside and distinct):
            p.append("pad_id, unk_id, bos_id and eos_id must be distinct ids inside the vocabulary")
        if self.arch == "rnn":
            choice("rnn_type", RNN_TYPES)
            choice("attention", SCORERS)
            choice("decoder_style", DECODER_STYLES)
            choice("locality", LOCALITIES)
            positive("emb_dim", "enc_hidden", "dec_hidden", "attn_dim", "window")
            if self.attention in ("dot", "scaled_dot") and self.dec_hidden != 2 * self.enc_hidden:
                p.append(
                    f"attention={self.attention!r} compares decoder and encoder states directly, "
                    f"so dec_hidden ({self.dec_hidden}) must equal 2 * enc_hidden ({2 * self.enc_hidden})"
                )
        elif self.arch == "transformer":
            choice("positions", POSITION_KINDS)
            choice("norm", NORM_PLACEMENTS)
            choice("activation", ACTIVATIONS)
            if not -1 <= self.alignment_head < max(self.n_heads, 1):
                p.append(
                    f"alignment_head={self.alignment_head} must be -1 (all heads) or one of "
                    f"the {self.n_heads} heads"
                )
            positive("d_model", "n_heads", "ff_dim", "max_positions")
            if self.n_heads > 0 and self.d_model % self.n_heads:
                p.append(f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads})")
            if not -self.dec_layers <= self.alignment_layer < self.dec_layers:
                p.append(
                    f"alignment_layer={self.alignment_layer} is outside the {self.dec_layers} decoder layers"
                )
        return p

    @property
    def attention_shape(self) -> tuple[int, int, int, int]:
        """(decoder layers, heads, the alignment's layer, its head; -1: the heads' mean)
        of the cross-attention a translation carries: a Transformer's, or an RNN's one
        distribution, (0, 0, 0, -1)."""
        if self.arch != "transformer":
            return (0, 0, 0, -1)
        return (self.dec_layers, self.n_heads, self.alignment_layer_index, self.alignment_head)

    @property
    def alignment_layer_index(self) -> int:
        """The alignment layer as a non-negative index (1-layer decoders use layer 0)."""
        if self.dec_layers == 1:
            return 0
        return self.alignment_layer % self.dec_layers

    @property
    def start_id(self) -> int:
        """The decoder's first input token."""
        return self.pad_id if self.decoder_start == "pad" else self.bos_id

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelConfig:
        return from_dict(cls, data, "model config", error=ConfigError)
