"""The one length-bucketed batcher and padding routine of the translator and the trainer."""

from __future__ import annotations

import random

from translator_app.core.engine.batching import length_batches, pad_rows


def test_batches_cover_every_item_once_within_the_budget():
    rng = random.Random(0)
    widths = [rng.randint(1, 40) for _ in range(500)]
    batches = length_batches(widths, max_tokens=200, max_items=16)
    assert sorted(i for b in batches for i in b) == list(range(500))
    for b in batches:
        assert len(b) <= 16
        assert len(b) == 1 or max(widths[i] for i in b) * len(b) <= 200
    # Sorted by width, so each batch holds neighbours: little padding.
    slots = sum(max(widths[i] for i in b) * len(b) for b in batches)
    assert 1 - sum(widths) / slots < 0.1


def test_an_item_wider_than_the_budget_gets_a_batch_of_its_own():
    assert length_batches([5, 500, 5], max_tokens=100) == [[0, 2], [1]]


def test_a_given_order_is_kept():
    assert length_batches([3, 1, 2], max_tokens=100, order=[2, 0, 1]) == [[2, 0, 1]]


def test_pad_rows_pads_and_masks():
    ids, mask = pad_rows([[5, 6, 7], [8]], pad=0)
    assert ids.tolist() == [[5, 6, 7], [8, 0, 0]]
    assert mask.tolist() == [[True, True, True], [True, False, False]]
