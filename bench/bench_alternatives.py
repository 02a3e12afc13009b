"""Word alternatives chosen in the real window with the bundled model (issue 48 §1).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_alternatives.py [--model DIR]

Opens the app's window (throwaway user folders), types each sentence of
bench/data/alternatives-de.txt, and for its first, middle and last English word opens
the word menu as a click does and chooses every alternative offered, each undone again
(bench/window_alternatives.py). A choice is right when the English is the model's words
up to that word, then the chosen word, then a decode. Prints the sentences, words,
alternatives tried, wrong ones (listed), and words with none offered (the menu must say
so). Floor (issue 48): no wrong choice in at least 30 sentences.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from window_alternatives import check_word, shown_after, wait_until  # noqa: E402

SENTENCES = Path(__file__).with_name("data") / "alternatives-de.txt"


def word_positions(text: str) -> list[int]:
    """Where the first, middle and last word of ``text`` start."""
    starts = [i for i, c in enumerate(text) if c.isalpha() and (i == 0 or text[i - 1] == " ")]
    picks = [starts[0], starts[len(starts) // 2], starts[-1]] if starts else []
    return sorted(set(picks))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="bundle (default: the bundled model)")
    args = ap.parse_args(argv)
    home = Path(tempfile.mkdtemp(prefix="bench-alternatives-"))
    for name in ("CONFIG", "DATA", "CACHE"):
        os.environ[f"TRANSLATOR_{name}_DIR"] = str(home / name.lower())
    from PySide6.QtWidgets import QApplication

    from translator_app.core import bundled_model_dir
    from translator_app.core.platform.hardware import describe_machine
    from translator_app.gui.shared.settings import Settings
    from translator_app.gui.window.window import MainWindow

    os.environ["TRANSLATOR_MODEL"] = str(args.model or bundled_model_dir())
    app = QApplication.instance() or QApplication([])
    settings = Settings.load()
    settings.debounce_ms = 10
    window = MainWindow(settings)
    window.show()
    wait_until(lambda: window.model_info is not None)
    sentences = [s for s in SENTENCES.read_text(encoding="utf-8").splitlines() if s and s[0] != "#"]
    words = tried = none = 0
    wrong: list[str] = []
    start = time.perf_counter()
    for german in sentences:
        shown = shown_after(window, lambda g=german: window.source_edit.setPlainText(g))
        for pos in word_positions(shown):
            check = check_word(window, german, pos)
            words += 1
            tried += check.tried
            none += not check.tried
            wrong += [f"{german} [{check.word}] {w}" for w in check.wrong]
            if not check.tried and not check.says_none:
                wrong.append(f"{german} [{check.word}] no alternative and no note saying so")
    window.session.worker.shutdown()
    app.processEvents()
    print(f"model {window.model_info.name}, {describe_machine()}")
    print(
        f"sentences {len(sentences)}, words {words}, alternatives chosen {tried}, "
        f"words with none offered {none}, wrong {len(wrong)} "
        f"({time.perf_counter() - start:.0f} s)"
    )
    for line in wrong:
        print("  wrong:", line)
    return 1 if wrong or len(sentences) < 30 else 0


if __name__ == "__main__":
    sys.exit(main())
