"""Training bounds oneDNN's and ideep's per-shape caches (issue 47 §6): under bf16
autocast every new batch shape otherwise kept 1-2 MB until a fine-tune was killed."""

from __future__ import annotations

import os
import subprocess
import sys

from trainer.allocator import NATIVE_CACHE_ENTRIES, NATIVE_CACHES

# The trainer's entry point, then what the process's environment says.
PROBE = (
    "import os\n"
    "from trainer import cli\n"
    "try:\n"
    "    cli.main(['recipe', '--help'])\n"
    "except SystemExit:\n"
    "    pass\n"
    f"print(','.join(os.environ.get(n, '') for n in {NATIVE_CACHES!r}))\n"
)


def _caches_after_main(env: dict) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env)
    return out.stdout.strip().splitlines()[-1]


def test_the_trainer_bounds_both_caches_and_keeps_a_users_value():
    env = {k: v for k, v in os.environ.items() if k not in NATIVE_CACHES}
    assert _caches_after_main(env) == ",".join([NATIVE_CACHE_ENTRIES] * 2)
    env[NATIVE_CACHES[0]] = "8"
    assert _caches_after_main(env) == f"8,{NATIVE_CACHE_ENTRIES}"
