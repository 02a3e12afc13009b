"""The tables scripts/doc_tables.py writes from a bench's JSON in docs/figures (the
English variants, the spelling check, made-up alternatives, Teach), and the bundled
model card's paragraph on its English.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "figures"


def _figures(name: str) -> dict:
    """A bench's JSON figures in docs/figures."""
    return json.loads((FIGURES / name).read_text("utf-8"))


CARD = ROOT / "resources" / "model" / "MODEL_CARD.md"
CARD_ENGLISH = "Its English mixes"


def card_with_english(text: str) -> str:
    """The bundled model's card with the paragraph on its English (the one
    scripts/card_sections.py writes at the end of "Limitations") as the figures say:
    the card itself is written from reports that live outside the repository."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from card_benches import english_paragraph

    paragraph = english_paragraph(_figures("english_variant.json"))
    kept = [p for p in text.rstrip("\n").split("\n\n") if not p.startswith(CARD_ENGLISH)]
    return "\n\n".join([*kept, paragraph]) + "\n"


def english_variant_table() -> str:
    """docs/postedit.md's figures of the steps british and american, from
    bench/bench_english_variant.py."""
    r = _figures("english_variant.json")
    model = [
        f"| {name} | {s['sentences']} | "
        + " | ".join(
            f"{s['forms'][k]['american']} / {s['forms'][k]['british']}"
            for k in ("spelling", "title", "date")
        )
        + " |"
        for name, s in r["model"].items()
    ]
    refs = [
        f"| {name} ({s['variant']}) | {s['sentences']} | {s['words']:,} | {s['edits']} "
        f"({s['edits_per_1000_words']} per 1,000 words) | "
        + (", ".join(f"{e} ×{n}" for e, n in s["edited"][:5]) or "none")
        + " | "
        + (", ".join(f"{w} ×{n}" for w, n in s["round_trip_lost"][:3]) or "none")
        + " |"
        for name, s in r["references"].items()
    ]
    return "\n".join(
        [
            f"`{r['command']}` ({r['cpu']}).",
            "",
            "The bundled model's own English (forms American / British):",
            "",
            "| set | sentences | spellings | titles | dates |",
            "|---|---:|---:|---:|---:|",
            *model,
            "",
            "English already written in one variant, made into that variant (each edit changes "
            "a text already so written: an upper bound of false alarms), and made into the "
            "other and back (what does not come back):",
            "",
            "| reference | lines | words | edits | what | lost in the round trip |",
            "|---|---:|---:|---:|---|---|",
            *refs,
        ]
    )


def spelling_table() -> str:
    """docs/postedit.md's figures of the spelling check, from bench/bench_spelling.py."""
    r = _figures("spelling.json")
    rows = [
        f"| {name} | {s['sentences']} | {s['marked']} ({s['marked_per_1000_words']} per "
        f"1,000 words) | {', '.join(m for m, _ in s['most_marked'][:4])} "
        f"| {s['slips_marked']} of {s['slips_made']} | {s['meant_word_first']} "
        f"| {s['meant_word_in_three']} | {s['ms_per_sentence']:.2f} |"
        for name, s in r["sets"].items()
    ]
    return "\n".join(
        [
            f"`{r['command']}` ({r['cpu']}); the list loads in {r['load_seconds']} s.",
            "",
            "| set | sentences | words marked as written | most marked | slips marked "
            "| word meant first | among three | ms a sentence |",
            "|---|---:|---|---|---:|---:|---:|---:|",
            *rows,
        ]
    )


def teach_table() -> str:
    """docs/benchmarks.md's Teach figures, from bench/bench_teach.py's JSON (one file
    per effort in docs/figures)."""
    rows, cpu = [], ""
    for effort in ("quick", "thorough"):
        r = _figures(f"teach-{effort}.json")
        b, a, s = r["before"], r["after"], r.get("sentences") or {}
        split = "{better} better, {worse} worse, {same} the same (p {p})".format(**s) if s else ""
        rows.append(
            f"| {effort} | {r['minutes']:.1f} | {b['term_use']} → {a['term_use']} % "
            f"| {b['heldout_bleu']} → {a['heldout_bleu']} "
            f"| {b['general_bleu']} → {a['general_bleu']} | {split} | {r['verdict']} |"
        )
        cpu = r["cpu"]
    return "\n".join(
        [
            f"`python bench/bench_teach.py --effort quick|thorough --json "
            f"docs/figures/teach-EFFORT.json` (bundle in resources/model; {cpu}).",
            "",
            "| effort | minutes | term use | held-out BLEU | general BLEU | held-out "
            "sentences | the dialog's words on terms |",
            "|---|---:|---|---|---|---|---|",
            *rows,
        ]
    )


def made_up_words_table() -> str:
    """docs/benchmarks.md's figures of the word menu's check for made-up words, from
    bench/bench_made_up_words.py."""
    r = _figures("made_up_words.json")
    rows = [
        f"| {name} | {s['sentences']} | {s['alternatives_offered_without_the_check']} "
        f"| {s['dropped']} | {s['dropped_words_english_writes']} "
        f"| {', '.join(s['other_dropped_words'][:6])} "
        f"| {s['ms_per_call_without']:.1f} → {s['ms_per_call_with']:.1f} |"
        for name, s in r["sets"].items()
    ]
    return "\n".join(
        [
            f"`{r['command']}` ({r['cpu']}).",
            "",
            "| set | sentences | alternatives offered | left out | of them words English "
            "writes | some left out | ms a call, without → with |",
            "|---|---:|---:|---:|---:|---|---|",
            *rows,
        ]
    )


_HOW_OFTEN_KINDS = (
    "factor",
    "frequency",
    "ordinal day",
    "weekday and time of day",
    "open or closed",
)


def how_often_table() -> str:
    """docs/postedit.md's figures of the frequency, factor, ordinal-day, weekday-and-time
    and open-or-closed readers, from bench/bench_how_often.py."""
    r = _figures("how_often.json")
    rows = [
        f"| {kind} | {k['facts']} | {k.get('kept', 0)} | {k.get('marked', 0)} "
        f"| {k.get('silent', 0)} | {k.get('references_marked', 0)} |"
        for kind, k in r["kinds"].items()
    ]
    unread = [
        f"| {name.split('/')[0]} | "
        + " | ".join(
            f"{k.get(kind, {}).get('references_marked', 0)} of {k.get(kind, {}).get('facts', 0)}"
            for kind in _HOW_OFTEN_KINDS
        )
        + " |"
        for name, k in r["unread_references"].items()
    ]
    return "\n".join(
        [
            f"`{r['command']}` ({r['cpu']}): {r['sentences']} sentences of the held-out sets "
            f"hold one, translated in {r['seconds']:.1f} s.",
            "",
            "| kind | facts | kept | marked | lost without a mark | references marked |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
            "",
            "References marked (false alarms) on three other corpora (not read for the first"
            " three readers; read while the last two were written):",
            "",
            "| corpus | " + " | ".join(_HOW_OFTEN_KINDS) + " |",
            "|---|" + "---:|" * len(_HOW_OFTEN_KINDS),
            *unread,
        ]
    )
