"""Frozen entry point: ``translator-app`` (the window, ``translate``, ``train``), and
``translator-train`` when started through a link of that name (made by build.sh)."""

import multiprocessing
import sys
from pathlib import Path

from translator_app.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a frozen child process must not rerun main()
    argv = sys.argv[1:]
    if Path(sys.argv[0]).stem == "translator-train":
        argv = ["train", *argv]
    sys.exit(main(argv))
