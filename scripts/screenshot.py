"""Take docs/screenshot.png from the real window.

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="bundle folder (default: the bundled model)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    ap.add_argument("--word", default="Park", help="put the cursor on this German word")
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    tmp = tempfile.mkdtemp(prefix="translator-screenshot-")
    os.environ["TRANSLATOR_CONFIG_DIR"] = str(Path(tmp) / "config")
    os.environ["TRANSLATOR_DATA_DIR"] = str(Path(tmp) / "data")

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from translator_app.gui.settings import Settings
    from translator_app.gui.window import MainWindow

    app = QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    settings = Settings()
    settings.beam, settings.nbest = 4, 5
    window = MainWindow(settings, model=args.model)
    window.resize(1280, 800)
    window.show()
    state = {"done": False}

    def shown(_text: str) -> None:
        if state["done"] or not window.rendered or not window.rendered.complete:
            return
        state["done"] = True
        cursor = window.source_edit.textCursor()
        cursor.setPosition(TEXT.index(args.word) + 1)
        window.source_edit.setTextCursor(cursor)
        window.source_edit.setFocus()
        QTimer.singleShot(300, grab)

    def grab() -> None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(args.out))
        print(f"wrote {args.out}")
        app.exit(0)

    window.translation_shown.connect(shown)
    window.worker.load_failed.connect(lambda _id, msg: (print(msg), app.exit(1)))
    window.source_edit.setPlainText(TEXT)
    QTimer.singleShot(120_000, lambda: (print("timed out"), app.exit(2)))
    code = app.exec()
    window.close()
    return code


if __name__ == "__main__":
    sys.exit(main())
