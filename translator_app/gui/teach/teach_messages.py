"""What the Teach dialog (teach_dialog.py) says in words: the new model's free name, the
training's progress, and the verdict with advice that can be followed.
"""

from __future__ import annotations

import html

from translator_app.core.platform.paths import user_models_dir


def free_name(stem: str) -> str:
    """``stem``, or ``stem-2``, ``stem-3`` …: the first name no user model has yet."""
    taken = {p.name for p in user_models_dir().iterdir()} if user_models_dir().is_dir() else set()
    n = 1
    while (name := stem if n == 1 else f"{stem}-{n}") in taken:
        n += 1
    return name


def progress_text(step: int, total: int, eta_s: float | None) -> str:
    """The training page's line, in words: how far, and how long still."""
    done = f"Learning from your sentences: {100 * step // max(1, total)} % done"
    if not eta_s:
        return done
    minutes = round(eta_s / 60)
    return f"{done}, about {minutes} min left" if minutes >= 1 else f"{done}, under a minute left"


def verdict(
    base_bleu: float | None, new_bleu: float | None, epochs: int = 0, summary: str = ""
) -> str:
    """Plain advice from the held-out scores (margins under half a point are noise on a
    few hundred sentences); only advice that can be followed (fewer epochs only where
    the user chose several). ``summary``: the fine-tune's own words on the user's terms
    and everyday sentences ("uses 9 of your 10 terms (before: 1); everyday sentences
    unchanged"), said first."""
    if summary.startswith("uses"):
        said = f"The new model {html.escape(summary)}.<br>"
    else:  # no terms among the held-out pairs: "Everyday sentences unchanged."
        said = f"{html.escape(summary[:1].upper() + summary[1:])}.<br>" if summary else ""
    return said + _advice(base_bleu, new_bleu, epochs)


def _advice(base_bleu: float | None, new_bleu: float | None, epochs: int) -> str:
    if base_bleu is None or new_bleu is None:
        return "There were too few sentences aside to score the models."
    if new_bleu < base_bleu - 0.5:
        fewer = (
            f", or fewer epochs than {epochs} (it may have learnt your pairs by heart "
            "instead of their style)"
            if epochs > 1
            else ""
        )
        return (
            "<b>The new model translates your sentences worse than the base model.</b> "
            "Keep using the base model. To do better: give it more sentence pairs "
            f"(a few hundred at least){fewer}; then delete this one."
        )
    if new_bleu > base_bleu + 0.5:
        return "<b>The new model translates your sentences better.</b> Use this model to switch."
    return (
        "The two models score about the same on your sentences: compare them below "
        "before switching. More sentence pairs usually make the difference."
    )
