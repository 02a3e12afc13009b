"""How the window shares its height between the text boxes and the alignment panel.

The panel grows to show every English row of the sentence in view (its
``room_wanted``), as far as the text boxes can give: each keeps room for the lines it
holds and one more, at least ``MIN_TEXT_LINES`` and at most half the window. It never
shrinks by itself, so the text does not jump while the user types. Once the user drags
the line between text and panel, that height is theirs: the panel stops growing
(remembered; View → "Alignment panel fits the sentence" turns growing on again).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QDockWidget, QMainWindow, QPlainTextEdit

from translator_app.gui.views.alignment import AlignmentPanel

MIN_TEXT_LINES = 5  # the text boxes keep at least this many lines in view


def lines_in(edit: QPlainTextEdit) -> int:
    """The lines ``edit``'s text takes as laid out (wrapped lines counted)."""
    return max(1, round(edit.document().documentLayout().documentSize().height()))


class PanelRoom(QObject):
    """Gives ``dock`` (holding ``panel``) the room its map wants, taken from ``edits``.
    ``fits_changed(bool)`` when the user's drag or the menu switches growing."""

    fits_changed = Signal(bool)

    def __init__(
        self,
        window: QMainWindow,
        dock: QDockWidget,
        panel: AlignmentPanel,
        edits: tuple[QPlainTextEdit, ...],
        fits: bool,
    ) -> None:
        super().__init__(window)
        self.window, self.dock, self.panel, self.edits = window, dock, panel, edits
        self.fits = fits
        self._pressed_at: int | None = None  # the dock's height when a drag may begin
        panel.room_wanted.connect(self.give)
        window.installEventFilter(self)

    def set_fits(self, fits: bool) -> None:
        if fits != self.fits:
            self.fits = fits
            self.fits_changed.emit(fits)
            if fits:
                self.panel.redraw()  # asks for the room of the map in view

    def spare(self) -> int:
        """Pixels the text boxes can give up and keep their lines (see the module)."""
        half = self.window.height() // 2
        spare = []
        for edit in self.edits:
            line = edit.fontMetrics().lineSpacing()
            keep = max(MIN_TEXT_LINES, min(lines_in(edit) + 1, half // line))
            spare.append(edit.viewport().height() - keep * line)
        return max(0, min(spare, default=0))

    def give(self, panel_height: int) -> None:
        """Grow the dock so that the panel is ``panel_height`` high, or as near as the
        text allows; nothing where the user sized it, or it floats or is hidden."""
        dock = self.dock
        if not self.fits or dock.isFloating() or not dock.isVisible():
            return
        frame = dock.height() - self.panel.height()  # the dock's title bar
        target = min(panel_height + frame, dock.height() + self.spare())
        if target > dock.height():
            self.window.resizeDocks([dock], [target], Qt.Orientation.Vertical)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        """A press and release on the window itself that changed the dock's height was
        the user dragging the line between text and panel."""
        if obj is self.window:
            kind = event.type()
            if kind == QEvent.Type.MouseButtonPress:
                self._pressed_at = self.dock.height()
            elif kind == QEvent.Type.MouseButtonRelease and self._pressed_at is not None:
                if self.dock.height() != self._pressed_at:
                    self.set_fits(False)
                self._pressed_at = None
        return super().eventFilter(obj, event)
