"""What ``translator-app translate`` says of each sentence: its ``--json`` record, and the
warnings on stderr for a fact it may have lost, a sentence given back as it came or
kept as written (another language), or one whose English came out empty."""

from __future__ import annotations

import re
import sys

from translator_app.core.faithful.fact_check import describe_fact
from translator_app.core.language.identify import language_name

_WORD = re.compile(r"[^\W_]")  # a letter or a digit: text that must not come out empty


def sentence_json(t) -> dict:
    """One translated sentence as ``--json`` writes it (a Translation's text, pieces,
    attention, n-best, missing facts, terms and words not carried)."""
    return {
        "source": t.source,
        "translation": t.text,
        "score": round(t.score, 4),
        "source_pieces": list(t.source_pieces),
        "target_pieces": list(t.target_pieces),
        "attention": [[round(float(w), 4) for w in row] for row in t.attention],
        "nbest": [{"translation": c.text, "score": round(c.score, 4)} for c in t.nbest],
        # Numbers, times and dates of the source that the translation does not keep.
        "missing_numbers": [f.text for f in t.issues],
        # The same facts with their kind (number, unit, date, negation, limit, ...) and
        # the English each needs.
        "missing_facts": [{"text": f.text, "kind": f.kind, "english": f.english} for f in t.issues],
        # The language the source is written in where it is not German: kept as written.
        "language": t.language or None,
        "terms": [{"source": u.source, "target": u.target, "kept": u.kept} for u in t.terms],
        # Content words of the source that no English word seems to carry (character
        # offsets in "source"); null where the sentence could not be checked.
        "not_carried": None
        if t.not_carried is None
        else [{"text": w.text, "start": w.span[0], "end": w.span[1]} for w in t.not_carried],
    }


def warn_missing(doc, first_line: str = "", line: int = 1) -> int:
    """Warn of facts a sentence may have lost and of a sentence given back as it came
    (naming ``first_line``'s kind of line, "standard input line", and its number counted
    from ``line``); report each sentence with words whose translation is empty as an
    error. Returns how many were empty."""
    empty = 0
    for seg, t in zip(doc.segments, doc.translations, strict=True):
        where = f"{first_line} {line + seg.line}: " if first_line else ""
        if t is not None and t.failed:
            print(
                f"warning: {where}{seg.text!r} could not be translated ({t.failed}); "
                "it is written as it came",
                file=sys.stderr,
            )
        elif t is not None and t.language:
            print(
                f"note: {where}{seg.text!r} looks like {language_name(t.language)}: kept as "
                "written, not translated (--steps all,-other-languages translates it)",
                file=sys.stderr,
            )
        elif t is not None and _WORD.search(seg.text) and not t.text.strip():
            empty += 1
            print(f"error: the model wrote nothing for {seg.text!r}", file=sys.stderr)
        elif t is not None and t.issues:
            facts = t.issues
            lost = ", ".join(describe_fact(f) for f in facts if not f.added)
            added = ", ".join(f.text for f in facts if f.kind == "added")
            denied = ", ".join(f'"{f.text}"' for f in facts if f.kind == "added negation")
            said = [f"it may not keep {lost}"] if lost else []
            said += [f"it writes {added}, which the German does not hold"] if added else []
            said += [f"it says {denied}, a negation the German does not hold"] if denied else []
            print(
                f"warning: check the translation of {seg.text!r}: {'; '.join(said)}",
                file=sys.stderr,
            )
    return empty
