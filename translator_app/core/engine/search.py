"""Greedy and beam search as pure functions over an :class:`EncoderDecoder`.

Both are batched over sentences, decode incrementally (the model carries RNN states or
key/value caches in its decoding state) and return, for every hypothesis, the attention
matrix [target tokens x source tokens]; in beam search the attention history is
reordered together with the beams. ``should_stop`` is polled before every step so a
stale request can be abandoned mid-sentence; it raises :class:`SearchCancelled`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch

from translator_app.core.engine.search_types import (  # noqa: F401 - re-exported
    GREEDY,
    Hypothesis,
    SearchCancelled,
    SearchOptions,
    length_penalty,
    with_choices,
)
from translator_app.core.models.config import ModelConfig
from translator_app.core.models.seq2seq import EncoderDecoder, select_state


def max_lengths(src_mask: torch.Tensor, a: float, b: int, cap: int) -> torch.Tensor:
    """Per-sentence limit on output tokens (EOS included): min(a * |src| + b, cap)."""
    lengths = src_mask.sum(1).float()
    return (lengths * a + b).floor().long().clamp(min=1, max=cap)


def _constrain(
    logp: torch.Tensor,
    step: int,
    limits: torch.Tensor,
    forced: torch.Tensor | None,
    cfg: ModelConfig,
) -> torch.Tensor:
    """Never emit padding, BOS or UNK (byte fallback makes UNK unnecessary); force EOS
    where a row reached its length limit, and the prefix token where a row still has a
    forced prefix. logp: [N, V]; limits: [N]; forced: [N, P] (-1 = free)."""
    logp[:, [cfg.pad_id, cfg.bos_id, cfg.unk_id]] = float("-inf")
    eos = cfg.eos_id
    keep = torch.full_like(limits, -1)
    keep = torch.where(step + 1 >= limits, torch.full_like(keep, eos), keep)
    if forced is not None and step < forced.size(1):
        keep = torch.where(forced[:, step] >= 0, forced[:, step], keep)
    rows = keep >= 0
    if not bool(rows.any()):
        return logp
    kept = logp.gather(1, keep.clamp(min=0).unsqueeze(1))
    masked = torch.full_like(logp, float("-inf")).scatter(1, keep.clamp(min=0).unsqueeze(1), kept)
    return torch.where(rows.unsqueeze(1), masked, logp)


def _forced_tensor(prefixes: Sequence[Sequence[int]] | None, n: int, device) -> torch.Tensor | None:
    if not prefixes or not any(prefixes):
        return None
    if len(prefixes) != n:
        raise ValueError(f"got {len(prefixes)} prefixes for {n} sentences")
    width = max(len(p) for p in prefixes)
    forced = torch.full((n, width), -1, dtype=torch.long, device=device)
    for i, p in enumerate(prefixes):
        if p:
            forced[i, : len(p)] = torch.tensor(list(p), dtype=torch.long, device=device)
    return forced


def _stop_if_asked(should_stop: Callable[[], bool] | None) -> None:
    if should_stop is not None and should_stop():
        raise SearchCancelled()


@torch.inference_mode()
def greedy_search(
    model: EncoderDecoder,
    src: torch.Tensor,
    src_mask: torch.Tensor,
    options: SearchOptions = GREEDY,
    *,
    max_len_cap: int = 1024,
    prefixes: Sequence[Sequence[int]] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> list[list[Hypothesis]]:
    """Pick the most probable token at every step (``options.beam`` is not used; scores
    use its length penalty). src, src_mask: [B, S].

    Returns one list holding one :class:`Hypothesis` per sentence.
    """
    cfg = model.config
    all_layers, alpha = options.all_layers, options.length_penalty
    batch, src_len = src.shape
    device = src.device
    limits = max_lengths(src_mask, options.max_len_a, options.max_len_b, max_len_cap)
    forced = _forced_tensor(prefixes, batch, device)
    state = model.start(src, src_mask)
    prev = torch.full((batch,), cfg.start_id, dtype=torch.long, device=device)
    logprob = torch.zeros(batch, device=device)
    # Rows still decoding; a finished sentence leaves the batch, so the model only runs
    # on live ones (garbage input makes some rows run to the length limit).
    active = torch.arange(batch, device=device)
    tokens, attns, layers = [], [], []
    for step in range(int(limits.max())):
        _stop_if_asked(should_stop)
        out = model.step(state, prev, all_layers)
        logp = torch.log_softmax(out.logits.float(), -1)
        logp = _constrain(
            logp, step, limits[active], forced[active] if forced is not None else None, cfg
        )
        best_lp, tok = logp.max(-1)
        logprob[active] += best_lp
        tok_all = torch.full((batch,), cfg.eos_id, dtype=torch.long, device=device)
        tok_all[active] = tok
        tokens.append(tok_all)
        attn_all = torch.zeros(batch, src_len, device=device)
        attn_all[active] = out.attention.float()
        attns.append(attn_all)
        if all_layers:
            layer_all = out.layers.new_zeros((batch, *out.layers.shape[1:]), dtype=torch.float32)
            layer_all[active] = out.layers.float()
            layers.append(layer_all)
        live = tok != cfg.eos_id
        if not bool(live.any()):
            break
        if bool(live.all()):
            prev, state = tok, out.state
        else:
            keep = live.nonzero().flatten()
            active, prev, state = active[keep], tok[keep], select_state(out.state, keep)

    tok_mat = torch.stack(tokens, 1).cpu()
    attn_mat = torch.stack(attns, 1).cpu()
    layer_mat = torch.stack(layers, 1).cpu() if all_layers else None
    src_lens = src_mask.sum(1).tolist()
    results = []
    for i in range(batch):
        row = tok_mat[i].tolist()
        n = row.index(cfg.eos_id) + 1
        lp = float(logprob[i])
        s = src_lens[i]
        results.append(
            [
                Hypothesis(
                    tokens=tuple(row[:n]),
                    logprob=lp,
                    score=lp / length_penalty(n, alpha),
                    attention=attn_mat[i, :n, :s].clone(),
                    layers=layer_mat[i, :n, ..., :s].clone() if layer_mat is not None else None,
                )
            ]
        )
    return results


@torch.inference_mode()
def beam_search(
    model: EncoderDecoder,
    src: torch.Tensor,
    src_mask: torch.Tensor,
    options: SearchOptions,
    *,
    max_len_cap: int = 1024,
    prefixes: Sequence[Sequence[int]] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> list[list[Hypothesis]]:
    """Beam search with a GNMT length penalty. src, src_mask: [B, S].

    Returns, per sentence, up to ``options.nbest`` hypotheses, best first. A sentence is
    finished when ``options.beam`` hypotheses have ended; a beam of 1 is greedy search.
    """
    cfg = model.config
    k, nbest = options.beam, options.nbest
    all_layers, alpha = options.all_layers, options.length_penalty
    batch, src_len = src.shape
    device = src.device
    limits = max_lengths(src_mask, options.max_len_a, options.max_len_b, max_len_cap)
    limits = limits.repeat_interleave(k)
    forced = _forced_tensor(prefixes, batch, device)
    if forced is not None:
        forced = forced.repeat_interleave(k, 0)
    expand = torch.arange(batch, device=device).repeat_interleave(k)
    state = select_state(model.start(src, src_mask), expand)
    src_lens = src_mask.sum(1).tolist()

    # Only the first beam of each sentence is alive at the start.
    scores = torch.full((batch, k), float("-inf"), device=device)
    scores[:, 0] = 0.0
    prev = torch.full((batch * k,), cfg.start_id, dtype=torch.long, device=device)
    hist_tokens = torch.zeros(batch * k, 0, dtype=torch.long, device=device)
    hist_attn = torch.zeros(batch * k, 0, src_len, device=device)
    hist_layers = None
    finished: list[list[Hypothesis]] = [[] for _ in range(batch)]
    # Sentences still decoding (their original index); a finished sentence leaves the
    # batch, so later steps and the history tensors only hold live ones.
    active = list(range(batch))
    rank = torch.arange(2 * k, device=device)

    for step in range(int(limits.max())):
        _stop_if_asked(should_stop)
        n = len(active)
        out = model.step(state, prev, all_layers)
        logp = torch.log_softmax(out.logits.float(), -1)
        logp = _constrain(logp, step, limits, forced, cfg)
        vocab = logp.size(-1)
        attn_all = torch.cat([hist_attn, out.attention.float().unsqueeze(1)], 1)
        layers_all = None
        if all_layers:
            new = out.layers.float().unsqueeze(1)
            layers_all = new if hist_layers is None else torch.cat([hist_layers, new], 1)

        cand = (scores.view(-1, 1) + logp).view(n, k * vocab)
        top_scores, top_idx = cand.topk(2 * k, dim=1)
        row_base = (torch.arange(n, device=device) * k).unsqueeze(1)
        rows = row_base + torch.div(top_idx, vocab, rounding_mode="floor")  # [n, 2K]
        toks = top_idx % vocab
        is_eos = toks == cfg.eos_id

        # Hypotheses ending here, among the K best candidates of a live sentence.
        ending = (is_eos[:, :k] & torch.isfinite(top_scores[:, :k])).nonzero().tolist()
        for b, j in ending:
            orig = active[b]
            if len(finished[orig]) >= k:
                continue
            r = int(rows[b, j])
            lp = float(top_scores[b, j])
            s = src_lens[orig]
            finished[orig].append(
                Hypothesis(
                    tokens=tuple(hist_tokens[r].tolist()) + (cfg.eos_id,),
                    logprob=lp,
                    score=lp / length_penalty(step + 1, alpha),
                    # clone: a view (and .cpu() of a CPU tensor is one) would keep the
                    # whole step history of every beam alive with each hypothesis.
                    attention=attn_all[r, :, :s].clone().cpu(),
                    layers=layers_all[r, ..., :s].clone().cpu() if layers_all is not None else None,
                )
            )

        # The K best candidates that did not end continue.
        alive = (is_eos.long() * 2 * k + rank).topk(k, dim=1, largest=False).indices.sort(1).values
        scores = top_scores.gather(1, alive)
        # A sentence is done with K finished hypotheses, or when its live beams all have
        # probability 0 (past its length limit, or a forced prefix leaving one path).
        dead = (~torch.isfinite(scores).any(1)).tolist()
        keep = [b for b in range(n) if not dead[b] and len(finished[active[b]]) < k]
        if not keep:
            break
        sel = rows.gather(1, alive).view(-1)
        prev = toks.gather(1, alive).view(-1)
        state = select_state(out.state, sel)
        hist_tokens = torch.cat([hist_tokens.index_select(0, sel), prev.unsqueeze(1)], 1)
        hist_attn = attn_all.index_select(0, sel)
        if layers_all is not None:
            hist_layers = layers_all.index_select(0, sel)
        del out, attn_all, layers_all
        if len(keep) < n:  # free what the finished sentences held
            beams = torch.tensor(
                [b * k + j for b in keep for j in range(k)], dtype=torch.long, device=device
            )
            active = [active[b] for b in keep]
            scores = scores[torch.tensor(keep, device=device)]
            state = select_state(state, beams)
            prev, limits = prev[beams], limits[beams]
            hist_tokens, hist_attn = hist_tokens[beams], hist_attn[beams]
            if hist_layers is not None:
                hist_layers = hist_layers[beams]
            if forced is not None:
                forced = forced[beams]

    return [sorted(f, key=lambda h: -h.score)[:nbest] for f in finished]
