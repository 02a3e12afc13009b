"""Starting the desktop app: ``translator-app`` (or ``translator-app gui``)."""

from __future__ import annotations

import argparse
import os
import sys
import time

from translator_app.core.platform.hardware import DEVICES


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", help="a German text file to open (UTF-8)")
    p.add_argument("--model", help="bundle folder to load (default: the last used, or bundled)")
    p.add_argument("--device", choices=DEVICES, help="overrides the setting")
    p.add_argument("--text", help="German text to put into the input box at start")
    p.add_argument(
        "--exit-after-first-translation",
        action="store_true",
        help="quit with status 0 once the first translation is displayed (smoke tests), "
        "saying on stderr when it was (first-english-shown-at SECONDS-SINCE-EPOCH: what a "
        "user waits for, before the exit waits for work in progress); status 1 if a model "
        "error comes first",
    )


def _shown_then_exit(app) -> None:
    """Say when the first English was shown (bench/bench_startup.py reads it: closing
    then waits for a PyTorch model build in progress), and quit with status 0."""
    from PySide6.QtCore import QTimer

    print(f"first-english-shown-at {time.time():.3f}", file=sys.stderr, flush=True)
    QTimer.singleShot(0, lambda: app.exit(0))


def run_gui(args: argparse.Namespace) -> int:
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("QT_QPA_PLATFORM")
    ):
        print(
            "translator-app: no display found. Translate on the command line with\n"
            '  translator-app translate "Guten Morgen!"\n'
            "or run the window offscreen with QT_QPA_PLATFORM=offscreen.",
            file=sys.stderr,
        )
        return 1
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from translator_app.core.platform.paths import resources_dir
    from translator_app.gui.shared.settings import Settings
    from translator_app.gui.shared.theme import OutlinedStyle
    from translator_app.gui.window.window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("translator-app")
    app.setApplicationDisplayName("German → English Translator")
    # Fusion follows the system light/dark colour scheme on every platform; its check
    # boxes and dock buttons are outlined so that they show on a dark palette too.
    app.setStyle(OutlinedStyle())
    app.setWindowIcon(QIcon(str(resources_dir() / "icon.svg")))
    settings = Settings.load()
    if args.device:
        settings.device = args.device
    window = MainWindow(settings, model=args.model)
    if args.exit_after_first_translation:
        window.translation_shown.connect(lambda _: _shown_then_exit(app))
        window.session.load_failed.connect(lambda *_: app.exit(1))
        window.session.failed.connect(lambda *_: app.exit(1))
        QTimer.singleShot(120_000, lambda: app.exit(2))  # never hang a smoke test
    window.show()
    if args.file:
        window.files.open(args.file)  # a problem shows in the status bar
    elif args.text:
        window.source_edit.setPlainText(args.text)
    code = app.exec()
    window.close()
    return code
