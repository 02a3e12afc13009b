"""``translator-app lookup WORD ...``: a German word's entries in the dictionary (Ding),
found for inflected forms and compounds too; one JSON object per word with ``--json``."""

from __future__ import annotations

import argparse
import json
import sys


def add_lookup(sub) -> None:
    look = sub.add_parser(
        "lookup",
        help="look a German word up in the dictionary (Ding)",
        description="Dictionary entries of German words, found for inflected forms and "
        "compounds too (ging -> gehen, Bürostühle -> Bürostuhl). The first look-up builds "
        "the dictionary's index in the cache (a few seconds, once).",
    )
    look.add_argument("words", nargs="+", metavar="WORD", help="German words")
    look.add_argument("--json", action="store_true", help="one JSON object per word")


def run_lookup(args: argparse.Namespace) -> int:
    """Print each word's dictionary entries; exit 1 where a word has none."""
    from dataclasses import asdict

    from translator_app.core.dictionary.lookup import ATTRIBUTION, Dictionary

    dictionary = Dictionary.bundled()
    if dictionary.ensure_index():  # a DictionaryError names the file: one line (cli.main)
        print("built the dictionary's index (once)", file=sys.stderr)
    results = [dictionary.lookup(w) for w in args.words]
    if dictionary.notice:
        print(dictionary.notice, file=sys.stderr)
    for r in results:
        if args.json:
            print(json.dumps(asdict(r) | {"found": r.found}, ensure_ascii=False))
            continue
        print(format_lookup(r))
    if not args.json:
        print(f"({ATTRIBUTION})")
    return 0 if all(r.found for r in results) else 1


def format_lookup(r) -> str:
    """A look-up as text: each sense with gender, register and an example."""
    if not r.found:
        return f"{r.word}: {r.note or 'not in the dictionary'}"
    lines = [r.word + (f" (→ {r.lemma})" if r.lemma != r.word else "")]
    if r.compound:
        lines[0] += f": a compound, {r.compound[0]} + {r.compound[1]}"
    for s in r.senses:
        lines.append(f"  {s.line}")
        if s.headword:
            lines.append(f"      form of: {s.headword}")
        for de, en in s.examples[:1]:
            lines.append(f"      e.g. {de} — {en}")
    if r.phrases:
        lines.append("  in phrases: " + "; ".join(f"{de} — {en}" for de, en in r.phrases[:3]))
    return "\n".join(lines)
