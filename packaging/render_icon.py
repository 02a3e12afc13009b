"""Render the SVG app icon to a PNG: ``render_icon.py icon.svg out.png [SIZE]``."""

import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer


def main(svg: str, png: str, size: int = 256) -> int:
    _app = QGuiApplication(sys.argv[:1])  # fonts for the icon's text need an application
    renderer = QSvgRenderer(svg)
    if not renderer.isValid():
        print(f"render_icon: {svg} is not a valid SVG file", file=sys.stderr)
        return 1
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    if not image.save(png):
        print(f"render_icon: could not write {png}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], *(int(a) for a in sys.argv[3:4])))
