"""The app's light, dark or system colours (Settings → Appearance; issue 61 §5).

Fusion draws every widget from the application palette, so one palette is the whole
theme: "dark" and "light" set their own, "system" gives back the platform's. The alignment
panel and the Compare dialog read the palette when they draw, so they follow too; the
marks in the text boxes (highlighter.py) carry their own dark text on their pale
backgrounds, readable in either theme.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDockWidget,
    QProxyStyle,
    QStyle,
    QStyleFactory,
)

from translator_app.gui.shared.settings import THEMES

_DARK = {
    QPalette.ColorRole.Window: "#2b2b2b",
    QPalette.ColorRole.WindowText: "#e6e6e6",
    QPalette.ColorRole.Base: "#1e1e1e",
    QPalette.ColorRole.AlternateBase: "#333333",
    QPalette.ColorRole.ToolTipBase: "#3a3a3a",
    QPalette.ColorRole.ToolTipText: "#f0f0f0",
    QPalette.ColorRole.PlaceholderText: "#9a9a9a",
    QPalette.ColorRole.Text: "#e6e6e6",
    QPalette.ColorRole.Button: "#353535",
    QPalette.ColorRole.ButtonText: "#e6e6e6",
    QPalette.ColorRole.BrightText: "#ff6b6b",
    QPalette.ColorRole.Link: "#6fb3ff",
    QPalette.ColorRole.Highlight: "#3d7ad6",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.Mid: "#5a5a5a",
    QPalette.ColorRole.Light: "#4a4a4a",
    QPalette.ColorRole.Midlight: "#404040",
    QPalette.ColorRole.Dark: "#202020",
    QPalette.ColorRole.Shadow: "#101010",
}


# The platform's palette, as the app started: kept before the first change, since a
# default-constructed QPalette is the application's current one, not the platform's.
_STARTED_WITH: list[QPalette] = []


def palette_for(theme: str, app: QApplication) -> QPalette:
    """The palette of ``theme``: the platform's for "system", Fusion's own light one for
    "light", a dark one for "dark" (disabled text greyed in each)."""
    if not _STARTED_WITH:
        _STARTED_WITH.append(QPalette(app.palette()))
    if theme == "dark":
        palette = QPalette(_STARTED_WITH[0])
        for role, colour in _DARK.items():
            palette.setColor(role, QColor(colour))
        for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
            palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
        return palette
    if theme == "light":
        return app.style().standardPalette()
    return QPalette(_STARTED_WITH[0])


def apply_theme(theme: str) -> None:
    """Give the running application ``theme``'s colours (an unknown name: the system's)."""
    app = QApplication.instance()
    if app is None:
        return
    palette = palette_for(theme if theme in THEMES else "system", app)
    if palette == app.palette():
        return  # nothing changes: no widget to polish again (start-up, every setting saved)
    app.setPalette(palette)
    # A widget with a style sheet (the text boxes' borders) keeps the palette it was
    # polished with: polished again, it takes the new one.
    for widget in app.allWidgets():
        if widget.styleSheet():
            widget.setStyleSheet(widget.styleSheet())
    # A dock's title-bar buttons took their icons in the palette they were built with;
    # asked again once every widget has the new palette, they are drawn in its colours.
    QTimer.singleShot(0, _dock_icons_again)


def _dock_icons_again() -> None:
    for widget in QApplication.allWidgets():
        if isinstance(widget, QDockWidget):
            for name, icon in _DOCK_BUTTONS:
                button = widget.findChild(QAbstractButton, name)
                if button is not None:
                    button.setIcon(widget.style().standardIcon(icon, None, widget))


def _between(palette: QPalette, a: QPalette.ColorRole, b: QPalette.ColorRole) -> QColor:
    """The colour halfway between two of ``palette``'s roles."""
    x, y = palette.color(a), palette.color(b)
    return QColor(
        (x.red() + y.red()) // 2, (x.green() + y.green()) // 2, (x.blue() + y.blue()) // 2
    )


class OutlinedStyle(QProxyStyle):
    """Fusion, with the frame of a check box and a radio button made visible on a dark
    palette (Fusion outlines them in the window colour darkened, nearly invisible on
    #2b2b2b): a line halfway between the text and the base colour; and a dock's
    title-bar icons in the text colour. On a light palette it draws as Fusion."""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802 (Qt's)
        super().drawPrimitive(element, option, painter, widget)
        round_ = element == QStyle.PrimitiveElement.PE_IndicatorRadioButton
        if not (round_ or element == QStyle.PrimitiveElement.PE_IndicatorCheckBox):
            return
        if option.palette.color(QPalette.ColorRole.Window).lightnessF() >= 0.5:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, round_)
        painter.setPen(_between(option.palette, QPalette.ColorRole.Text, QPalette.ColorRole.Base))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        box = QRectF(option.rect).adjusted(0.5, 0.5, -1.5, -1.5)
        if round_:
            painter.drawEllipse(box)
        else:
            painter.drawRoundedRect(box, 1.5, 1.5)
        painter.restore()

    def standardIcon(self, icon, option=None, widget=None):  # noqa: N802 (Qt's)
        """A dock's float and close icons (dark grey pictures) in the text colour on a
        dark palette."""
        base = super().standardIcon(icon, option, widget)
        palette = widget.palette() if widget is not None else QApplication.palette()
        dark = palette.color(QPalette.ColorRole.Window).lightnessF() < 0.5
        if not dark or icon not in {i for _, i in _DOCK_BUTTONS}:
            return base
        tinted = QIcon()
        for size in base.availableSizes() or [QSize(16, 16)]:
            image = base.pixmap(size).toImage()
            painter = QPainter(image)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
            painter.fillRect(image.rect(), palette.color(QPalette.ColorRole.WindowText))
            painter.end()
            tinted.addPixmap(QPixmap.fromImage(image))
        return tinted


# Qt's names of a dock's title-bar buttons, and their icons.
_DOCK_BUTTONS = (
    ("qt_dockwidget_floatbutton", QStyle.StandardPixmap.SP_TitleBarNormalButton),
    ("qt_dockwidget_closebutton", QStyle.StandardPixmap.SP_TitleBarCloseButton),
)
