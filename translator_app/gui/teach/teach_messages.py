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


# Held-out sentences below which the verdict does not call either model better: a sign
# test cannot tell from fewer (all of 5 one way happens by chance 1 time in 16).
FEW_TO_TELL = 10
SURE_P = 0.05  # a split by chance less often than 1 time in 20: a difference


def verdict(
    base_bleu: float | None,
    new_bleu: float | None,
    epochs: int = 0,
    summary: str = "",
    sentences: dict | None = None,
) -> str:
    """Plain advice from the held-out sentences, as strong as they allow; only advice
    that can be followed (fewer epochs only where the user chose several). ``summary``:
    the fine-tune's own words on the user's terms and everyday sentences ("learnt 8
    terms from your pairs; …; everyday sentences unchanged"), said first.
    ``sentences``: the held-out sentences one by one ({"better", "worse", "same", "p"},
    trainer/teach_recipe.compare_sentences); without it (a fine-tune of an older
    version) the BLEU scores decide, where they differ by more than half a point."""
    if summary.startswith(("learnt", "uses")):
        said = f"The new model {html.escape(summary)}.<br>"
    else:  # no terms: "Everyday sentences unchanged."
        said = f"{html.escape(summary[:1].upper() + summary[1:])}.<br>" if summary else ""
    if sentences:
        return said + _sentence_advice(sentences, epochs)
    return said + _advice(base_bleu, new_bleu, epochs)


def _worse(epochs: int) -> str:
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


BETTER = "<b>The new model translates your sentences better.</b> Use this model to switch."


def _sentence_advice(s: dict, epochs: int) -> str:
    better, worse, same, p = s["better"], s["worse"], s["same"], s["p"]
    total = better + worse + same
    split = (
        f"Of {total} held-out sentence{'s' if total != 1 else ''}, {better} came closer to "
        f"your English with the new model, {worse} less close, {same} about the same"
    )
    if p < SURE_P and better != worse:
        chance = f"{split}; a split this uneven comes by chance in {_odds(p)} (sign test)."
        return f"{chance}<br>" + (BETTER if better > worse else _worse(epochs))
    if total < FEW_TO_TELL:
        return (
            f"{split}: too few to tell yet whether the new model is better (Teach sets "
            f"aside a tenth of your pairs; {10 * FEW_TO_TELL} pairs or more give "
            f"{FEW_TO_TELL}). Compare them below before switching."
        )
    return (
        f"{split}: no clear difference (a split like this comes by chance in {_odds(p)}). "
        "Compare them below before switching; more sentence pairs usually make the "
        "difference."
    )


def _odds(p: float) -> str:
    """A sign test's p in words: 0.021 → 'about 1 case in 48'."""
    if p >= 0.5:
        return "half the cases or more"
    return f"about 1 case in {round(1 / max(p, 1e-6)):,}"


def _advice(base_bleu: float | None, new_bleu: float | None, epochs: int) -> str:
    if base_bleu is None or new_bleu is None:
        return "There were too few sentences aside to score the models."
    if new_bleu < base_bleu - 0.5:
        return _worse(epochs)
    if new_bleu > base_bleu + 0.5:
        return BETTER
    return (
        "The two models score about the same on your sentences: compare them below "
        "before switching. More sentence pairs usually make the difference."
    )
