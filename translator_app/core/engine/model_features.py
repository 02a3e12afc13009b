"""Which of the app's features a model gets, and why not where it does not: one list that
the window shows on loading a model, the model card dialog lists, and README's feature ×
model table is written from (scripts/doc_tables.py).

    >>> [f.name for f in model_features(follows_glossary=False) if not f.works][:1]
    ['glossary']

A model trained on inline term annotations (core/faithful/terms.py: the bundled one) gets
all of them; a published model (OPUS-MT) gets those that compare the German with the
English or read the model's attention, and not those that annotate its input.
"""

from __future__ import annotations

from dataclasses import dataclass

NEEDS_ANNOTATIONS = "needs a model trained with term annotations ([data] terms)"


@dataclass(frozen=True)
class Feature:
    """``name``: as the window names it; ``what``: what it does; ``works``: on this
    model; ``why``: where it does not."""

    name: str
    what: str
    works: bool
    why: str = ""


# (name, what it does, needs a model trained on term annotations). Each is tested on an
# imported Marian model: tests/engine/test_imported_features.py.
FEATURES = (
    ("glossary", "your terms used in the English", True),
    ("taught terms", "the terms a Teach run learnt, used in every sentence", True),
    ("facts annotated", "numbers, names and places marked in the German while decoding", True),
    ("dictionary words", "the dictionary's English for German words the model copied", True),
    ("fact marks", "lost numbers, dates, times, prices and negations underlined", False),
    ("alignment panel", "the heat-map and linked highlights", False),
    ("word alternatives", "other words at a position, and the sentence after them", False),
    ("dictionary look-up", "a German word's dictionary entries", False),
    ("documents", ".txt, .docx and .odt translated with their formatting", False),
    ("Compare", "two models side by side", False),
    ("History", "what was translated, searchable", False),
    ("Teach", "fine-tuning on your own pairs, with a verdict", False),
)


def model_features(follows_glossary: bool) -> tuple[Feature, ...]:
    """Every feature, and whether a model that does (not) follow term annotations gets it."""
    out = []
    for name, what, needs in FEATURES:
        works = follows_glossary or not needs
        out.append(Feature(name, what, works, "" if works else NEEDS_ANNOTATIONS))
    return tuple(out)


def missing_text(model: str, features: tuple[Feature, ...]) -> str:
    """One sentence naming what ``model`` does not get and why; '' where it gets all.

    >>> missing_text("opus", model_features(False))[:40]
    'opus: no glossary, taught terms, facts a'
    """
    off = [f for f in features if not f.works]
    if not off:
        return ""
    names = (
        ", ".join(f.name for f in off[:-1]) + f" or {off[-1].name}" if len(off) > 1 else off[0].name
    )
    return f"{model}: no {names} (each {off[0].why}); everything else works"


def features_markdown(features: tuple[Feature, ...]) -> str:
    """The model card dialog's section: each feature, and why not where it is off."""
    lines = ["## What the app does with this model", ""]
    for f in features:
        lines.append(f"- **{f.name}** ({f.what}): " + ("yes" if f.works else f"no; it {f.why}"))
    return "\n".join(lines)
