"""One template for every model card (MODEL_CARD.md in a bundle): the bundled model's
(``scripts/model_card.py``, from the reports that measured it), a trained or fine-tuned
model's (``translator-train export``) and an imported Marian model's. A card is a title,
an opening paragraph and sections; the prose that is data (test sets and what each
stands for, published scores, architectures, licences, the users' summary) lives in
``resources/model_cards.json``."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence

from translator_app.core.models.config import ModelConfig
from translator_app.core.platform.paths import resources_dir

CARD_DATA_FILE = "model_cards.json"


@functools.cache
def card_data() -> dict:
    """``resources/model_cards.json`` (in the checkout or the installed app)."""
    return json.loads((resources_dir() / CARD_DATA_FILE).read_text("utf-8"))


def render(
    title: str, opening: Sequence[str], sections: Sequence[tuple[str, Sequence[str]]]
) -> str:
    """The card: ``# title``, the opening lines, then each ``## heading`` and its lines
    (a section without lines is left out); one blank line between blocks."""
    blocks = [f"# {title}", *(["\n".join(opening)] if opening else [])]
    blocks += [f"## {heading}\n\n" + "\n".join(lines) for heading, lines in sections if lines]
    return "\n\n".join(blocks) + "\n"


def architecture_lines(config: ModelConfig, n_params: int) -> list[str]:
    """What the network is, in one or two bullet points, from its configuration."""
    if config.arch == "transformer":
        what = (
            f"Transformer ({config.norm}-norm), {config.enc_layers} encoder and "
            f"{config.dec_layers} decoder layers, d_model {config.d_model}, "
            f"{config.n_heads} heads, feed-forward {config.ff_dim} ({config.activation})"
        )
    else:
        what = (
            f"RNN encoder-decoder, bi-{config.rnn_type.upper()} encoder "
            f"({config.enc_layers} layers), {config.decoder_style} decoder with "
            f"{config.attention} attention"
        )
    return [
        f"- {what}, {n_params / 1e6:.1f} M parameters",
        f"- vocabulary of {config.vocab_size} SentencePiece pieces",
    ]


def config_block(config: dict) -> list[str]:
    """The configuration as a JSON code block (what rebuilds the network)."""
    return ["```json", json.dumps(config, indent=2), "```"]


def in_short(scores_by_label: dict[str, float]) -> list[str]:
    """The users' summary: what the model is good and weak at, from the greedy BLEU of
    each kind of text measured (best first), with the data file's words."""
    data = card_data()
    kinds = {t["label"]: t["kind"] for t in data["test_sets"] if "kind" in t}
    scored = sorted(
        (
            (scores_by_label[label], kind)
            for label, kind in kinds.items()
            if label in scores_by_label
        ),
        reverse=True,
    )
    if not scored:
        return []
    text = data["in_short"]
    good = [f"{kind} ({bleu:.0f})" for bleu, kind in scored if bleu >= text["good_from_bleu"]]
    weak = [f"{kind} ({bleu:.0f})" for bleu, kind in scored if bleu < text["good_from_bleu"]]
    lines = [text["intro"], ""]
    if good:
        lines.append(f"- **Good at:** {', '.join(good)}.")
    if weak:
        lines.append(f"- **Weak at:** {', '.join(weak)}: {text['weak_note']}")
    return lines + [f"- {line}" for line in text["always"]]
