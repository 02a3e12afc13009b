"""Every bound the engine puts on what a user, a settings file or a downloaded bundle can
ask of it, in one place (README's "Limits" table lists them).

Each limit is far above what real use meets and far below what would fill the memory of
a desktop machine: a bad value becomes one clear error (or a bounded split) instead of
gigabytes of allocation or a crash deep inside PyTorch.
"""

from __future__ import annotations

import json
import math

# ---------------------------------------------------------------- search settings
MAX_BEAM = 64  # translateLocally and Marian use 4-12; a beam of 100,000 needed 6.4 GB
MAX_LEN_A = 10.0  # output tokens per source token (the default is 1.5)
MAX_LEN_B = 1024  # extra output tokens
MAX_LENGTH_PENALTY = 10.0  # GNMT alpha; 0.6-1.0 in practice
MAX_COVERAGE_PENALTY = 10.0  # GNMT beta; 0.2-0.4 in practice
MAX_SOURCE_TOKENS = 4096  # chunk size a bundle may ask for

# ---------------------------------------------------------------- input text
# Sentences longer than this are cut at clause or word boundaries before translating, so
# that every piece is one the model can translate and the attention kept for the panel
# stays small (a 500-character piece is at most 2,000 byte pieces long).
MAX_SEGMENT_CHARS = 500
# ... and at most this many UTF-8 bytes after NFKC normalisation, which bounds its tokens
# (every token covers at least one byte; emoji are 4-8 byte pieces each, and NFKC can turn
# one character into 18). So a document's sentence never exceeds MAX_SENTENCE_TOKENS.
MAX_SEGMENT_BYTES = 1990
# One text given to Translator.translate (no sentence splitting) may be this many
# SentencePiece tokens long; translate_document splits any longer text.
MAX_SENTENCE_TOKENS = 2000

# ---------------------------------------------------------------- bundle files
MAX_CONFIG_BYTES = 4 * 1024 * 1024  # config.json, metrics.json
MAX_CARD_BYTES = 1024 * 1024  # MODEL_CARD.md
MAX_SHORTLIST_BYTES = 64 * 1024 * 1024  # vmap.txt.xz, packed and unpacked (the base's: 6 MB)
MAX_SPM_BYTES = 64 * 1024 * 1024  # spm.model (a 64 k vocabulary is about 1.5 MB)
# A Marian vocabulary (piece: id per line; opus-mt-de-en's 58 k pieces are about 1 MB):
# YAML parses at about 1.3 MB/s, so a 60 MB one took 46 s and 3.4 GB before it was refused.
MAX_VOCAB_YML_BYTES = 8 * 1024 * 1024
# When the translator annotates a sentence's numbers, dates, names and places
# (core/faithful/protect.py): never, where the plain decode lost a number, or always.
PROTECT_MODES = ("off", "retry", "always")


def check_protect(mode: str) -> None:
    if mode not in PROTECT_MODES:
        raise ValueError(f"protect must be one of {', '.join(PROTECT_MODES)}")


MAX_JSON_DEPTH = 64  # nesting of any JSON file we read (settings, bundles)
MAX_WEIGHT_ABS = 1e4  # a trained weight this large is corruption, not a model
# Model shapes: far above the bundled 9.6 M-parameter model; parameters are also checked
# against what the weights file holds before anything is allocated.
MAX_LAYERS = 64
MAX_WIDTH = 16384  # d_model, ff_dim, emb_dim, hidden sizes
MAX_VOCAB = 1_000_000
MAX_POSITIONS = 65536
MAX_HEADS = 256

# ---------------------------------------------------------------- training data
MAX_LINE_CHARS = 100_000  # one line of a training file (a sentence pair is < 1,000)


def check_number(
    name: str, value, low: float, high: float, *, integer: bool = False
) -> float | int:
    """``value`` if it is a finite number in [low, high] (an int when ``integer``), else a
    ValueError naming ``name`` and the allowed range."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok and integer:
        ok = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if ok:
        ok = math.isfinite(value) and low <= value <= high
    if not ok:
        kind = "an integer" if integer else "a number"
        raise ValueError(f"{name} must be {kind} from {low:g} to {high:g}, got {value!r}")
    return int(value) if integer else float(value)


def check_search(
    *,
    beam: int | None = None,
    nbest: int | None = None,
    max_len_a: float | None = None,
    max_len_b: int | None = None,
    length_penalty: float | None = None,
    coverage_penalty: float | None = None,
) -> None:
    """Validate the user-controlled search settings that are given (None: not given)."""
    if beam is not None:
        check_number("beam", beam, 1, MAX_BEAM, integer=True)
    if nbest is not None:
        check_number("nbest", nbest, 1, MAX_BEAM, integer=True)
    if max_len_a is not None:
        check_number("max_len_a", max_len_a, 0, MAX_LEN_A)
    if max_len_b is not None:
        check_number("max_len_b", max_len_b, 0, MAX_LEN_B, integer=True)
    if length_penalty is not None:
        check_number("length_penalty", length_penalty, 0, MAX_LENGTH_PENALTY)
    if coverage_penalty is not None:
        check_number("coverage_penalty", coverage_penalty, 0, MAX_COVERAGE_PENALTY)


def json_depth(data, limit: int = MAX_JSON_DEPTH) -> int:
    """Nesting depth of parsed JSON, counted without recursion; stops past ``limit``."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            children = node.values() if isinstance(node, dict) else node
            stack.extend((c, depth + 1) for c in children)
    return deepest


def parse_json(text: str | bytes):
    """``json.loads`` that turns nesting deeper than :data:`MAX_JSON_DEPTH` (which makes
    the parser itself raise RecursionError) and integers of thousands of digits (Python's
    own limit, whose message advises a call no user can make) into a ValueError like any
    other bad JSON."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(f"JSON nested more than {MAX_JSON_DEPTH} levels deep") from None
    except ValueError as e:
        if "integer string conversion" in str(e):
            raise ValueError("it holds a number of thousands of digits") from None
        raise
    if json_depth(data) > MAX_JSON_DEPTH:
        raise ValueError(f"JSON nested more than {MAX_JSON_DEPTH} levels deep")
    return data
