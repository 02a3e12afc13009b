"""RNN encoder-decoder with attention (Bahdanau et al. 2015; Luong et al. 2015).

Encoder: embedding -> bi-directional GRU/LSTM (packed, so padding never leaks into the
states). Decoder, one of two styles:

* ``bahdanau``: attend with the *previous* decoder state, feed the context into the RNN,
  predict from ``tanh(W [s_t; c_t; y_{t-1}])``.
* ``luong``: run the RNN first (with input feeding of the previous attentional vector),
  attend with the *current* state, predict from ``h~_t = tanh(W_c [c_t; s_t])``.

Shapes: B batch, S source length, T target length, E embedding, H hidden sizes.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from translator_app.core.models.attention import build_scorer
from translator_app.core.models.cells import CELL_TYPES, CellRNN
from translator_app.core.models.config import ModelConfig
from translator_app.core.models.seq2seq import EncoderDecoder, State, StepOutput


def _rnn(kind: str, input_size: int, hidden: int, layers: int, dropout: float, bidirectional: bool):
    """PyTorch's fused GRU or LSTM, or an LSTM variant of models/cells.py."""
    if kind in CELL_TYPES:
        return CellRNN(
            kind, input_size, hidden, layers, dropout if layers > 1 else 0.0, bidirectional
        )
    cls = nn.GRU if kind == "gru" else nn.LSTM
    return cls(
        input_size,
        hidden,
        num_layers=layers,
        batch_first=True,
        bidirectional=bidirectional,
        dropout=dropout if layers > 1 else 0.0,
    )


class RNNEncoder(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.rnn = _rnn(
            cfg.rnn_type, cfg.emb_dim, cfg.enc_hidden, cfg.enc_layers, cfg.dropout, True
        )
        # Initial decoder state from the last layer's final forward and backward states.
        self.bridge = nn.Linear(2 * cfg.enc_hidden, cfg.dec_layers * cfg.dec_hidden)
        self.dec_layers = cfg.dec_layers
        self.dec_hidden = cfg.dec_hidden

    def forward(self, emb: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """emb: [B, S, E] -> memory [B, S, 2He], initial decoder hidden [B, Ld, Hd]."""
        lengths = mask.sum(1).clamp(min=1).cpu()
        if isinstance(self.rnn, CellRNN):  # holds each sentence still on its padding
            memory, final = self.rnn(emb, lengths=lengths)
        else:
            packed = pack_padded_sequence(emb, lengths, batch_first=True, enforce_sorted=False)
            out, final = self.rnn(packed)
            memory, _ = pad_packed_sequence(out, batch_first=True, total_length=emb.size(1))
        h_n = final[0] if isinstance(final, tuple) else final  # [layers*2, B, He]
        last = torch.cat([h_n[-2], h_n[-1]], dim=-1)  # [B, 2He]
        init = torch.tanh(self.bridge(last)).view(-1, self.dec_layers, self.dec_hidden)
        return memory, init


class RNNDecoder(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.style = cfg.decoder_style
        self.is_lstm = cfg.rnn_type.startswith("lstm")  # a cell state besides the hidden
        key_dim = 2 * cfg.enc_hidden
        self.scorer = build_scorer(
            cfg.attention, cfg.dec_hidden, key_dim, cfg.attn_dim, cfg.locality, cfg.window
        )
        self.dropout = nn.Dropout(cfg.dropout)
        if self.style == "bahdanau":
            self.rnn = _rnn(
                cfg.rnn_type,
                cfg.emb_dim + key_dim,
                cfg.dec_hidden,
                cfg.dec_layers,
                cfg.dropout,
                False,
            )
            self.readout = nn.Linear(cfg.dec_hidden + key_dim + cfg.emb_dim, cfg.emb_dim)
        else:
            # Input feeding: the previous attentional vector (size E) joins the embedding.
            self.rnn = _rnn(
                cfg.rnn_type, 2 * cfg.emb_dim, cfg.dec_hidden, cfg.dec_layers, cfg.dropout, False
            )
            self.readout = nn.Linear(key_dim + cfg.dec_hidden, cfg.emb_dim)

    def _run_rnn(self, x: torch.Tensor, state: State) -> tuple[torch.Tensor, State]:
        """One RNN step. x: [B, In] -> top-layer output [B, Hd] and the new hidden state."""
        h = state["hidden"].transpose(0, 1).contiguous()  # [Ld, B, Hd]
        if self.is_lstm:
            c = state["cell"].transpose(0, 1).contiguous()
            out, (h, c) = self.rnn(x.unsqueeze(1), (h, c))
            return out[:, 0], {"hidden": h.transpose(0, 1), "cell": c.transpose(0, 1)}
        out, h = self.rnn(x.unsqueeze(1), h)
        return out[:, 0], {"hidden": h.transpose(0, 1)}

    def step(self, emb: torch.Tensor, state: State) -> tuple[torch.Tensor, torch.Tensor, State]:
        """emb: [B, E] embedding of the previous token -> readout [B, E], weights [B, S]."""
        memory, mask, keys, step = state["memory"], state["mask"], state["keys"], state["step"]
        new_state = dict(state)
        new_state["step"] = step + 1  # the target position, for local attention
        if self.style == "bahdanau":
            query = state["hidden"][:, -1]
            context, weights = self.scorer(query, memory, mask, keys, step)
            out, rnn_state = self._run_rnn(torch.cat([emb, context], dim=-1), state)
            readout = torch.tanh(self.readout(torch.cat([out, context, emb], dim=-1)))
        else:
            out, rnn_state = self._run_rnn(torch.cat([emb, state["feed"]], dim=-1), state)
            context, weights = self.scorer(out, memory, mask, keys, step)
            readout = torch.tanh(self.readout(torch.cat([context, out], dim=-1)))
            new_state["feed"] = readout
        new_state.update(rnn_state)
        return self.dropout(readout), weights, new_state


class RNNSeq2Seq(EncoderDecoder):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.config = cfg
        self.embedding = nn.Embedding(cfg.vocab_size, cfg.emb_dim, padding_idx=cfg.pad_id)
        # N(0, 1/E) rather than PyTorch's N(0, 1): with tied output weights, unit-variance
        # embeddings give initial logits of std ~sqrt(E) and a loss near 20 instead of ln(V).
        nn.init.normal_(self.embedding.weight, std=cfg.emb_dim**-0.5)
        with torch.no_grad():
            self.embedding.weight[cfg.pad_id].zero_()
        self.emb_dropout = nn.Dropout(cfg.dropout)
        self.encoder = RNNEncoder(cfg)
        self.decoder = RNNDecoder(cfg)
        self.output = nn.Linear(cfg.emb_dim, cfg.vocab_size, bias=True)
        if cfg.tie_embeddings:
            self.output.weight = self.embedding.weight

    def start(self, src: torch.Tensor, src_mask: torch.Tensor) -> State:
        memory, init = self.encoder(self.emb_dropout(self.embedding(src)), src_mask)
        state: State = {
            "memory": memory,
            "mask": src_mask,
            "keys": self.decoder.scorer.prepare_keys(memory),
            "hidden": init,
            "step": torch.zeros(src.size(0), device=src.device),
        }
        if self.decoder.is_lstm:
            state["cell"] = torch.zeros_like(init)
        if self.decoder.style == "luong":
            state["feed"] = memory.new_zeros(src.size(0), self.config.emb_dim)
        return state

    def step(self, state: State, prev_tokens: torch.Tensor, all_layers: bool = False) -> StepOutput:
        emb = self.emb_dropout(self.embedding(prev_tokens))
        readout, weights, state = self.decoder.step(emb, state)
        layers = weights[:, None, None, :] if all_layers else None  # one layer, one "head"
        return StepOutput(self.output(readout), weights, layers, state)

    def forward(self, src, src_mask, tgt_in):
        state = self.start(src, src_mask)
        embs = self.emb_dropout(self.embedding(tgt_in))
        readouts, attns = [], []
        for t in range(tgt_in.size(1)):
            readout, weights, state = self.decoder.step(embs[:, t], state)
            readouts.append(readout)
            attns.append(weights)
        # One output projection over all steps is much faster than T small ones.
        return self.output(torch.stack(readouts, 1)), torch.stack(attns, 1)
