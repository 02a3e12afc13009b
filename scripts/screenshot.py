"""Take docs/screenshot.png from the real window (--teach: docs/teach.png, the Teach
dialog's result page after fine-tuning on tests/data/tiny_pairs.tsv for 2 epochs).

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot.py [--model DIR] [--out PNG]

Opens the main window with throw-away settings and history (so the user's own are neither
used nor changed), types a German text, waits for its translation, puts the cursor on a
word so that the linked highlights and the heatmap show, and grabs the window.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TEXT = (
    "Das Wetter ist heute sehr schön.\n"
    "Wir gehen am Nachmittag mit den Kindern in den Park.\n\n"
    "Kannst du mir bitte helfen?"
)


def parse_args() -> argparse.Namespace:
    """The options; the app's folders go to a fresh temporary place (no user settings,
    history or corrections in the picture)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="bundle folder (default: the bundled model)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    ap.add_argument("--word", default="Park", help="put the cursor on this German word")
    ap.add_argument("--teach", action="store_true", help="the Teach dialog instead")
    args = ap.parse_args()
    if args.teach and args.out == ROOT / "docs" / "screenshot.png":
        args.out = ROOT / "docs" / "teach.png"
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    tmp = tempfile.mkdtemp(prefix="translator-screenshot-")
    os.environ["TRANSLATOR_CONFIG_DIR"] = str(Path(tmp) / "config")
    os.environ["TRANSLATOR_DATA_DIR"] = str(Path(tmp) / "data")
    os.environ["TRANSLATOR_CACHE_DIR"] = str(Path(tmp) / "cache")
    return args


def main() -> int:
    args = parse_args()

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from translator_app.gui.shared.settings import Settings
    from translator_app.gui.window.window import MainWindow

    app = QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    settings = Settings()
    settings.beam, settings.nbest = 4, 5
    window = MainWindow(settings, model=args.model)
    window.resize(1280, 800)
    window.show()
    state = {"done": False}

    def shown(_text: str) -> None:
        if state["done"] or not window.highlighter.shown or not window.highlighter.shown.complete:
            return
        state["done"] = True
        if args.teach:
            teach()
            return
        cursor = window.source_edit.textCursor()
        cursor.setPosition(TEXT.index(args.word) + 1)
        window.source_edit.setTextCursor(cursor)
        window.source_edit.setFocus()
        QTimer.singleShot(300, grab)

    def teach() -> None:
        dialog = window.dialogs.teach_dialog()
        dialog.device.setCurrentText("cpu")
        dialog.sentence_box.currentIndexChanged.connect(
            lambda i: i == 1 and QTimer.singleShot(300, lambda: grab(dialog))
        )

        def start() -> None:  # once the files are read (off the GUI thread)
            if dialog.preview is None or dialog.run is not None:
                return
            dialog.start()
            dialog.run.finished.connect(lambda ok, m: ok or (print(m), app.exit(1)))

        dialog.preview_ready.connect(start)
        dialog.add_files([str(ROOT / "tests" / "data" / "tiny_pairs.tsv")])
        timer = QTimer(window)
        timer.timeout.connect(
            lambda: (
                dialog.sentence_box.count() > 1
                and dialog.sentence_box.currentIndex() == 0
                and dialog.sentence_box.setCurrentIndex(1)
            )
        )
        timer.start(200)

    def grab(widget=None) -> None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        (widget or window).grab().save(str(args.out))
        print(f"wrote {args.out}")
        app.exit(0)

    window.translation_shown.connect(shown)
    window.session.load_failed.connect(lambda failure: (print(failure.message), app.exit(1)))
    window.source_edit.setPlainText(TEXT)
    QTimer.singleShot(300_000, lambda: (print("timed out"), app.exit(2)))
    code = app.exec()
    window.close()
    return code


if __name__ == "__main__":
    sys.exit(main())
