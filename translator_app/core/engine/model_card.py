"""One template for every model card (MODEL_CARD.md in a bundle): the bundled model's
(``scripts/model_card.py``, from the reports that measured it), a trained or fine-tuned
model's (``translator-train export``) and an imported Marian model's. A card is a title,
an opening paragraph and sections; the prose that is data (test sets and what each
stands for, published scores, architectures, licences, the users' summary) lives in
``resources/model_cards.json``."""

from __future__ import annotations

import functools
import json
import re
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


# ---------------------------------------------------------------- the app's view
# Sections a user reads in Model → Model card; the others (architecture, training
# schedule, configuration, engines, speed) stay in the file for developers.
USER_SECTIONS = (
    "in short",
    "test results",
    "scores",
    "validation",
    "names, numbers",
    "glossary",
    "training data",
    "origin, licence",
    "limitations",
)
# A sentence naming something only a developer with the repository can run or open.
DEVELOPER_MARKS = re.compile(r"`(?:scripts/|bench/|docs/|translator-train|python )|eval-reports/")
# The results table's columns a user needs, with the words the app shows for them.
USER_COLUMNS = {
    "test set": "test set",
    "pairs": "sentences",
    "bleu greedy": "score (BLEU)",
    "published (not re-measured)": "published models, trained on far more data",
}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def for_users(card: str) -> str:
    """The card as the app shows it: the title, the opening and the users' sections,
    without sentences about repository commands, and the results table cut to the test
    set, its size, the score and the published score (narrow columns broke words)."""
    title, *sections = re.split(r"(?m)^## ", card)
    kept = [_plain(title)]
    for section in sections:
        heading, _, body = section.partition("\n")
        if not heading.lower().startswith(USER_SECTIONS):
            continue
        if heading.lower().startswith("test results"):
            heading, body = "Test results", _users_table(body)
        kept.append(f"## {heading}\n\n{_plain(body)}")
    kept.append(
        "_How each figure was measured, the architecture and the training are in "
        "MODEL_CARD.md in the model's folder._"
    )
    text = "\n\n".join(k.strip() for k in kept if k.strip()) + "\n"
    # "<pad>" and the like are words here, not HTML: as a tag, Qt's Markdown hid the
    # rest of an imported model's card behind it.
    return _TAG_START.sub("&lt;", text)


_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")


def _plain(text: str) -> str:
    """``text`` without the sentences (or list items, table rows) that name repository
    commands or folders."""
    blocks = []
    for block in re.split(r"\n\s*\n", text):
        if block.lstrip().startswith(("|", "-", "*", "#", "`")):
            lines = [line for line in block.split("\n") if not DEVELOPER_MARKS.search(line)]
            blocks.append("\n".join(lines))
        else:
            sentences = SENTENCE_END.split(" ".join(block.split()))
            blocks.append(" ".join(s for s in sentences if not DEVELOPER_MARKS.search(s)))
    return "\n\n".join(b for b in blocks if b.strip())


def _users_table(body: str) -> str:
    """The results section as a table of the users' columns, one line on what the
    score means; the signatures and the beam-search notes stay in the file."""
    rows = [line for line in body.split("\n") if line.startswith("|")]
    if len(rows) < 3:
        return body
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    header = [h.lower() for h in cells[0]]
    keep = [i for i, h in enumerate(header) if h in USER_COLUMNS]
    table = [
        "| " + " | ".join(USER_COLUMNS[header[i]] for i in keep) + " |",
        "|" + "---|" * len(keep),
        *("| " + " | ".join(row[i] for i in keep) + " |" for row in cells[2:]),
    ]
    return (
        "BLEU measures the overlap with a human translation, from 0 to 100 (higher is "
        "better).\n\n" + "\n".join(table)
    )
