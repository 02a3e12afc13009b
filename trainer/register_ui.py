"""The short text of screens, shops, forms, e-mails and signs (issue 46): buttons and menu
entries, form labels, status messages, notices, e-mail lines, each on its own and inside
a few frames ("Klicken Sie auf „Speichern“." -> 'Click "Save".').

The bundled model translates whole sentences of this register better than the fragments
around them: „Vorname“ came out as "previous name", „Zur Kasse gehen“ as "go to cash".
The LibreOffice and gettext catalogues are software strings; these are what a shop, an
office, an authority and a building write. Written for this project; none is a sentence
of the register dev or test set (tests/trainer/test_register_corpus.py: the eleven phrases that
were one, found by that check, are not here), and scripts/prepare_data.py removes any
pair that matches a dev or test sentence.

    python -m trainer.register_ui --pairs 3000 --seed 1 > register-ui.tsv
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

from trainer.register_corpus import pairs_command
from trainer.tables import rows

ACTIONS = rows("register-ui", "actions")
LABELS = rows("register-ui", "labels")
MESSAGES = rows("register-ui", "messages")
SIGNS = rows("register-ui", "signs")
MAIL = rows("register-ui", "mail")
FRAMES = rows("register-ui", "frames")
KINDS = {"action": ACTIONS, "label": LABELS, "sign": SIGNS, "message": MESSAGES}


def ui_pairs(n: int, seed: int = 1) -> Iterator[tuple[str, str]]:
    """Every phrase on its own first, then ``n`` pairs in all, the rest in frames."""
    alone = [*ACTIONS, *LABELS, *MESSAGES, *SIGNS, *MAIL]
    seen: set[tuple[str, str]] = set()
    for pair in alone[:n]:
        seen.add(pair)
        yield pair
    rng = random.Random(seed)
    possible = sum(len(KINDS[kind]) for kind, *_ in FRAMES) + len(alone)
    while len(seen) < min(n, possible):
        kind, frame_de, frame_en = rng.choice(FRAMES)
        de, en = rng.choice(KINDS[kind])
        pair = (frame_de.format(de=de.rstrip(".!")), frame_en.format(en=en.rstrip(".!")))
        if pair not in seen:
            seen.add(pair)
            yield pair


def main(argv: list[str] | None = None) -> int:
    return pairs_command(ui_pairs, __doc__.split("\n\n")[0], 3000, argv)


if __name__ == "__main__":
    sys.exit(main())
