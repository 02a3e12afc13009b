"""The steps "british" and "american": a candidate's English written in the variant the
user chose (Settings → English), its pieces and attention kept in step with the text
(engine/respell.py); the edits are language/variants.py's.
"""

from __future__ import annotations

from translator_app.core.engine.respell import respelled
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.language.variants import AMERICAN, BRITISH, edits
from translator_app.core.text.tokenizer import Tokenizer


def in_variant(tokenizer: Tokenizer, cand: Candidate, variant: str) -> Candidate:
    """``cand`` with every edit of ``variant`` made that whole pieces allow (one that
    would split a piece is left out), from the last to the first so that the earlier
    ones' places hold."""
    for begin, end, new in reversed(edits(cand.text, variant)):
        cand = respelled(tokenizer, cand, begin, end, new)
    return cand


def british_rewrite(tokenizer: Tokenizer, t: Translation, cand: Candidate) -> Candidate:
    return in_variant(tokenizer, cand, BRITISH)


def american_rewrite(tokenizer: Tokenizer, t: Translation, cand: Candidate) -> Candidate:
    return in_variant(tokenizer, cand, AMERICAN)
