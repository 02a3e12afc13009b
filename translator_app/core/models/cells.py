"""LSTM variants as recurrent cells in plain PyTorch (issue 51), for the encoder and the
decoder of core/models/rnn.py:

* ``lstm_peephole`` (Gers & Schmidhuber 2000): the gates also see the cell state through
  diagonal "peephole" weights; the input and forget gates the previous cell, the output
  gate the new one::

      i = σ(W_i x + U_i h + p_i ⊙ c_prev + b_i)      f = σ(W_f x + U_f h + p_f ⊙ c_prev + b_f)
      g = tanh(W_g x + U_g h + b_g)                   c = f ⊙ c_prev + i ⊙ g
      o = σ(W_o x + U_o h + p_o ⊙ c + b_o)            h = o ⊙ tanh(c)

* ``lstm_coupled`` (the coupled input-forget gate of Greff et al. 2017): one gate forgets
  what it lets in, f = 1 − i, so there is no forget gate of its own::

      i = σ(W_i x + U_i h + b_i)   g = tanh(W_g x + U_g h + b_g)   c = (1 − i) ⊙ c_prev + i ⊙ g
      o = σ(W_o x + U_o h + b_o)   h = o ⊙ tanh(c)

A Python loop over time steps is much slower than the fused LSTM kernels of oneDNN or
cuDNN (the model card says by how much); :class:`CellRNN` runs them like ``nn.LSTM``
(layers, both directions, ``batch_first``), holding each sentence's state still on its
padding so that padding never leaks into the states, as packing does for ``nn.LSTM``.

Shapes: B batch, T time steps, I input size, H hidden size, L layers, D directions.
"""

from __future__ import annotations

import torch
from torch import nn

CELL_TYPES = ("lstm_peephole", "lstm_coupled")


class PeepholeLSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden: int) -> None:
        super().__init__()
        self.x2g = nn.Linear(input_size, 4 * hidden)  # i, f, g, o
        self.h2g = nn.Linear(hidden, 4 * hidden, bias=False)
        self.peep = nn.Parameter(torch.zeros(3, hidden))  # p_i, p_f, p_o
        self.hidden = hidden

    def forward(self, x, h, c):
        """x: [B, I]; h, c: [B, H] -> new h, c."""
        i, f, g, o = (self.x2g(x) + self.h2g(h)).chunk(4, dim=-1)
        i = torch.sigmoid(i + self.peep[0] * c)
        f = torch.sigmoid(f + self.peep[1] * c)
        c = f * c + i * torch.tanh(g)
        o = torch.sigmoid(o + self.peep[2] * c)
        return o * torch.tanh(c), c


class CoupledLSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden: int) -> None:
        super().__init__()
        self.x2g = nn.Linear(input_size, 3 * hidden)  # i, g, o
        self.h2g = nn.Linear(hidden, 3 * hidden, bias=False)
        self.hidden = hidden

    def forward(self, x, h, c):
        """x: [B, I]; h, c: [B, H] -> new h, c."""
        i, g, o = (self.x2g(x) + self.h2g(h)).chunk(3, dim=-1)
        i = torch.sigmoid(i)
        c = (1 - i) * c + i * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c


def make_cell(kind: str, input_size: int, hidden: int) -> nn.Module:
    if kind == "lstm_peephole":
        return PeepholeLSTMCell(input_size, hidden)
    if kind == "lstm_coupled":
        return CoupledLSTMCell(input_size, hidden)
    raise ValueError(f"unknown recurrent cell {kind!r}; use one of {', '.join(CELL_TYPES)}")


class CellRNN(nn.Module):
    """Layers of a cell over time, like ``nn.LSTM(batch_first=True)``: returns the top
    layer's outputs [B, T, D·H] and (h_n, c_n), each [L·D, B, H]."""

    def __init__(
        self,
        kind: str,
        input_size: int,
        hidden: int,
        num_layers: int = 1,
        dropout: float = 0.0,
        bidirectional: bool = False,
    ) -> None:
        super().__init__()
        self.hidden, self.num_layers = hidden, num_layers
        self.directions = 2 if bidirectional else 1
        self.cells = nn.ModuleList(
            make_cell(kind, input_size if layer == 0 else self.directions * hidden, hidden)
            for layer in range(num_layers)
            for _ in range(self.directions)
        )
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, state=None, lengths=None):
        """x: [B, T, I]; state: (h0, c0) [L·D, B, H] or None (zeros); lengths: [B] real
        steps of each sentence (None: all T)."""
        b, t, _ = x.shape
        if lengths is None:
            lengths = torch.full((b,), t, dtype=torch.long)
        lengths = lengths.to(x.device)
        steps = torch.arange(t, device=x.device)
        valid = steps[None, :] < lengths[:, None]  # [B, T]
        # Each sentence reversed within its length, for the backward direction.
        rev = torch.where(valid, lengths[:, None] - 1 - steps[None, :], steps[None, :])
        zeros = x.new_zeros(self.num_layers * self.directions, b, self.hidden)
        h0, c0 = state if state is not None else (zeros, zeros)
        finals_h, finals_c = [], []
        inputs = x
        for layer in range(self.num_layers):
            outs = []
            for d in range(self.directions):
                k = layer * self.directions + d
                seq = inputs if d == 0 else _gather_time(inputs, rev)
                out, h, c = self._run(self.cells[k], seq, h0[k], c0[k], valid)
                outs.append(out if d == 0 else _gather_time(out, rev))
                finals_h.append(h)
                finals_c.append(c)
            inputs = torch.cat(outs, dim=-1)
            if layer < self.num_layers - 1:
                inputs = self.dropout(inputs)
        return inputs, (torch.stack(finals_h), torch.stack(finals_c))

    @staticmethod
    def _run(cell, seq, h, c, valid):
        """One direction of one layer: outputs [B, T, H] (zero on padding) and the state
        after each sentence's last real step."""
        outs = []
        for step in range(seq.size(1)):
            new_h, new_c = cell(seq[:, step], h, c)
            keep = valid[:, step, None]
            h, c = torch.where(keep, new_h, h), torch.where(keep, new_c, c)
            outs.append(torch.where(keep, new_h, torch.zeros_like(new_h)))
        return torch.stack(outs, 1), h, c


def _gather_time(x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """x[b, index[b, t]] for every b, t. x: [B, T, F]; index: [B, T]."""
    return x.gather(1, index[:, :, None].expand(-1, -1, x.size(-1)))
