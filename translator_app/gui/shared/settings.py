"""User settings, persisted as JSON in the user's config folder (platformdirs).

A damaged settings file never stops the app: it is moved aside (``settings.json.damaged-
<time>``), the defaults are used, and :attr:`Settings.problem` says so once. Unknown keys
are ignored and values of the wrong type fall back to their defaults, so that a settings
file written by a newer or older version still loads.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from translator_app.core.limits import parse_json
from translator_app.core.models.from_dict import from_dict
from translator_app.core.platform.hardware import DEVICES
from translator_app.core.platform.paths import move_aside, user_config_dir, write_atomic
from translator_app.core.postedit.pipeline import parse_steps

LAYOUTS = ("side-by-side", "stacked")
THEMES = ("system", "light", "dark")  # gui/shared/theme.py gives each its palette
MAX_SETTINGS_BYTES = 1024 * 1024
# What the window allows, the one place for the Settings dialog's spin boxes and for a
# settings file's values. The beam is capped below the engine's MAX_BEAM (core/limits.py)
# on purpose: the window translates as the user types; wider beams are for the command line.
BEAM_RANGE = (1, 16)
DEBOUNCE_RANGE_MS = (0, 5000)
FONT_SIZE_RANGE = (6, 48)
_NOT_SAVED = ("problem", "keep_file")


@dataclass
class Settings:
    device: str = "auto"
    model: str = ""  # bundle folder; empty: the bundled model
    extra_models: list[str] = field(default_factory=list)  # folders the user opened
    recent_files: list[str] = field(default_factory=list)  # File → Open Recent, newest first
    # None: the model's (its bundle's search settings, the one place for defaults).
    beam: int | None = None
    nbest: int | None = None
    debounce_ms: int = 150
    layout: str = "side-by-side"
    theme: str = "system"  # gui/shared/theme.py: system, light or dark
    font_size: int = 12
    geometry: str = ""  # QWidget.saveGeometry(), base64
    window_state: str = ""  # QMainWindow.saveState(), base64
    show_alignment: bool = True
    # The alignment panel grows to show the sentence's rows (gui/window/panel_room.py);
    # False once the user sized it by dragging.
    alignment_fits: bool = True
    coverage_hint: bool = False  # wavy marks on every weakly covered word distract; opt in
    history_enabled: bool = True
    # The post-editing steps (core/postedit/pipeline.parse_steps): "all", or "all" less
    # some ("all,-other-languages": a sentence in another language is translated too).
    steps: str = "all"

    problem: str = field(default="", repr=False, compare=False)  # set by load(), not saved
    # The file on disk could not be read or moved aside: never overwrite it.
    keep_file: bool = field(default=False, repr=False, compare=False)

    @classmethod
    def path(cls) -> Path:
        return user_config_dir() / "settings.json"

    @classmethod
    def load(cls) -> Settings:
        path = cls.path()
        if not path.exists():
            return cls()
        try:
            raw = path.read_bytes()
        except OSError as e:  # unreadable, not damaged: leave it, and do not overwrite it
            settings = cls(keep_file=True)
            settings.problem = (
                f"The settings file {path} cannot be read ({_short(e)}); defaults are used "
                "for this session and the file is left as it is."
            )
            return settings
        try:
            if len(raw) > MAX_SETTINGS_BYTES:
                raise ValueError(f"larger than {MAX_SETTINGS_BYTES // 1024} KB")
            data = parse_json(raw.decode("utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except (UnicodeDecodeError, ValueError) as e:
            aside = move_aside(path)
            settings = cls(keep_file=aside is None)
            kept = (
                f"the old file was kept as {aside.name}"
                if aside
                else "the file could not be moved aside, so it is left as it is and "
                "this session's settings will not be saved over it"
            )
            settings.problem = (
                f"The settings file {path} was damaged ({_short(e)}); defaults are used and {kept}."
            )
            return settings
        # Unknown keys (another version's) are ignored; a value of the wrong type falls
        # back to its default.
        settings = from_dict(
            cls, data, "settings", unknown="ignore", invalid="default", skip=_NOT_SAVED
        )
        settings.sanitise()
        return settings

    def sanitise(self) -> None:
        self.device = self.device if self.device in DEVICES else "auto"
        self.layout = self.layout if self.layout in LAYOUTS else "side-by-side"
        self.theme = self.theme if self.theme in THEMES else "system"
        self.beam = None if self.beam is None else _clamp(self.beam, BEAM_RANGE)
        self.nbest = None if self.nbest is None else _clamp(self.nbest, BEAM_RANGE)
        self.debounce_ms = _clamp(self.debounce_ms, DEBOUNCE_RANGE_MS)
        self.font_size = _clamp(self.font_size, FONT_SIZE_RANGE)
        self.extra_models = [m for m in self.extra_models if isinstance(m, str)]
        recent = [p for p in self.recent_files if isinstance(p, str) and p]
        self.recent_files = list(dict.fromkeys(recent))[:10]
        try:
            parse_steps(self.steps)
        except (ValueError, AttributeError):  # another version's step, or not a text
            self.steps = "all"

    def save(self) -> None:
        """Atomic write: a crash mid-save leaves the previous file intact."""
        if self.keep_file:
            return
        data = {k: v for k, v in dataclasses.asdict(self).items() if k not in _NOT_SAVED}
        write_atomic(self.path(), json.dumps(data, indent=2) + "\n")


def _short(e: Exception) -> str:
    return str(e).splitlines()[0][:120] if str(e) else type(e).__name__


def _clamp(value: int, bounds: tuple[int, int]) -> int:
    return min(max(value, bounds[0]), bounds[1])
