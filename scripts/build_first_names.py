"""Write resources/lists/german-first-names.tsv: the first names of German-speaking
countries, from Faker's person providers for de_DE, de_AT and de_CH (MIT licence;
https://github.com/joke2k/faker), for telling a first name that opens a sentence from a
German word written alike („Malte hat …“ is a name, „malte“ also a verb;
core/faithful/copied_words.py).

    .venv/bin/pip install faker==40.54.0   # only to build the list, not to run the app
    .venv/bin/python scripts/build_first_names.py

One name a line, sorted; the header names the source and its version.
"""

from __future__ import annotations

import sys
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "lists" / "german-first-names.tsv"
LOCALES = ("de_DE", "de_AT", "de_CH")


def first_names() -> tuple[list[str], str]:
    """The first names of Faker's German-speaking locales, and Faker's version."""
    try:
        faker = import_module("faker")
    except ImportError:
        sys.exit("needs Faker to build the list: .venv/bin/pip install faker==40.54.0")
    names: set[str] = set()
    for locale in LOCALES:
        provider = import_module(f"faker.providers.person.{locale}").Provider
        for attr in ("first_names_male", "first_names_female", "first_names"):
            found = getattr(provider, attr, ())
            names |= set(found.keys() if isinstance(found, dict) else found)
    return sorted(n for n in names if n.isalpha()), faker.VERSION


def main() -> int:
    names, version = first_names()
    header = f"# first name (Faker {version}, locales {', '.join(LOCALES)}; MIT licence)\n"
    OUT.write_text(header + "".join(f"{n}\n" for n in names), "utf-8")
    print(f"wrote {len(names)} first names to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
