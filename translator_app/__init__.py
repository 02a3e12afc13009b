"""Offline German→English translator: desktop app, command line and engine (``core``)."""

__version__ = "0.1.0"
