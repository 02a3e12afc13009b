"""Which models the app offers: the bundled Transformer, the bundled RNN (the course's
encoder-decoder with attention, issue 51), every bundle in the user's models folder
(where ``translator-train finetune`` writes) and folders the user opened."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from translator_app.core.platform.paths import (
    bundled_model_dir,
    bundled_rnn_model_dir,
    user_models_dir,
)


@dataclass(frozen=True)
class ModelEntry:
    label: str
    path: str
    origin: str  # "bundled" (the default model) | "bundled-rnn" | "user" | "opened"


def is_bundle(path: Path) -> bool:
    """A finished bundle: a half-written one (no config.json yet) is not offered."""
    return (path / "config.json").is_file() and (path / "model.safetensors").is_file()


def discover(extra: list[str] = ()) -> list[ModelEntry]:
    entries: list[ModelEntry] = []
    seen: set[str] = set()

    def add(path: Path, origin: str, label: str) -> None:
        key = str(path.resolve())
        if key not in seen and is_bundle(path):
            seen.add(key)
            entries.append(ModelEntry(label, str(path), origin))

    add(bundled_model_dir(), "bundled", "Bundled model")
    add(bundled_rnn_model_dir(), "bundled-rnn", "Bundled RNN (bi-GRU + attention)")
    folder = user_models_dir()
    if folder.is_dir():
        for child in sorted(folder.iterdir()):
            if child.is_dir() and not child.name.startswith("."):
                add(child, "user", child.name)
    for p in extra:
        add(Path(p), "opened", Path(p).name)
    return entries
