"""Parallel text from users' files (TSV, TMX, line-aligned pairs, compressed) and the
store of the user's corrections."""
