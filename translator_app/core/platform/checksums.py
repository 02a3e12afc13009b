"""The one way a file's SHA-256 is computed: bundles check their weights with it, the
CTranslate2 cache stamps its files with it, the dictionary index keys on it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

BLOCK_BYTES = 1 << 20  # a megabyte at a time: a 60 MB weights file never sits in memory


def sha256_file(path: Path, between_blocks: Callable[[], None] | None = None) -> str:
    """The hex SHA-256 of ``path``'s bytes. ``between_blocks`` runs after each block is
    read, before it is hashed (a load checks there whether it was cancelled, and raises
    to stop); an unreadable file raises :class:`OSError`."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(BLOCK_BYTES), b""):
            if between_blocks is not None:
                between_blocks()
            digest.update(block)
    return digest.hexdigest()
