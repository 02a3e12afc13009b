"""Frozen entry point: ``translator-app`` (the window, ``translate``), ``translator-app
train …`` (the trainer, which the app runs for fine-tuning, since a frozen app has one
executable), and ``translator-train`` when started through a link of that name (made by
build.sh). The dispatch to the trainer lives here, so that the app's own code never
imports the trainer."""

import multiprocessing
import sys
from pathlib import Path


def main(argv: list[str], program: str) -> int:
    if Path(program).stem == "translator-train":
        argv = ["train", *argv]
    if argv[:1] == ["train"]:
        from trainer.cli import main as train

        return train(argv[1:])
    from translator_app.cli import main as app

    return app(argv)


if __name__ == "__main__":
    multiprocessing.freeze_support()  # a frozen child process must not rerun main()
    sys.exit(main(sys.argv[1:], sys.argv[0]))
