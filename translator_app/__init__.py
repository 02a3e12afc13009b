"""Offline German→English translator: desktop app, command line and engine (``core``)."""

import os as _os

__version__ = "0.1.0"

# PyTorch and CTranslate2 each bring an OpenMP thread pool whose idle threads spin-wait by
# default; in one process the two pools then take the cores from each other (issue 61 §4:
# on 2 cores the panel's attention took 703 ms after a 17 ms translation, 34 ms with
# passive waits). The policy is read when a library loads, so it is set here, which every
# start path (window, command line, installed app, the Python API) imports first; a value
# set by the user is kept. bench/bench_followups.py measures it.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
