"""Translating off the window's thread: the session (latest request wins) and its worker."""
