"""The PySide6 desktop app. The engine it drives is :mod:`translator_app.core` (Qt-free)."""
