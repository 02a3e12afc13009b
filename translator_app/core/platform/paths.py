"""Where the app's files live (the bundled model, next to the sources or inside a frozen
app; the per-user folders), and how they are written without ever leaving half a file."""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path


def resources_dir() -> Path:
    """``resources/`` of the checkout, or of the PyInstaller bundle when frozen."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parents[3] / "resources"  # translator_app/core/platform/


def bundled_model_dir() -> Path:
    """The default model; ``TRANSLATOR_MODEL`` overrides it (tests, packaging checks)."""
    override = os.environ.get("TRANSLATOR_MODEL")
    return Path(override) if override else resources_dir() / "model"


def bundled_rnn_model_dir() -> Path:
    """The second bundled model (issue 51): the course's RNN encoder-decoder with additive
    attention, for Model → Compare models; ``TRANSLATOR_RNN_MODEL`` overrides it."""
    override = os.environ.get("TRANSLATOR_RNN_MODEL")
    return Path(override) if override else resources_dir() / "rnn-model"


APP_NAME = "translator-app"


def _user_dir(env: str, kind: str) -> Path:
    """A per-user folder: ``env`` overrides it (tests, portable installs), else
    platformdirs' ``user_<kind>_dir`` (imported late: the trainer runs without it)."""
    override = os.environ.get(env)
    if override:
        return Path(override)
    import platformdirs

    return Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME, appauthor=False))


def user_data_dir() -> Path:
    """History and fine-tuned models; ``TRANSLATOR_DATA_DIR`` overrides it."""
    return _user_dir("TRANSLATOR_DATA_DIR", "data")


def user_config_dir() -> Path:
    """Settings; ``TRANSLATOR_CONFIG_DIR`` overrides it."""
    return _user_dir("TRANSLATOR_CONFIG_DIR", "config")


def user_models_dir() -> Path:
    """Where fine-tuned bundles go and where the app looks for them."""
    return user_data_dir() / "models"


def safe_name(name: str, keep_spaces: bool = False) -> str:
    """A model name as a folder name: other characters become ``_``; never hidden or empty
    (the app does not list hidden folders)."""
    allowed = "-_. " if keep_spaces else "-_."
    return "".join(c if c.isalnum() or c in allowed else "_" for c in name).strip("._ ") or "model"


def free_model_folder(name: str) -> Path:
    """A new folder in the user's models folder: ``name``, or ``name-2``, ``name-3`` ..."""
    base = user_models_dir() / safe_name(name)
    out, n = base, 1
    while out.exists():
        n += 1
        out = base.with_name(f"{base.name}-{n}")
    return out


def user_cache_dir() -> Path:
    return _user_dir("TRANSLATOR_CACHE_DIR", "cache")


# In the name of every temporary this program writes beside a file, before the id of the
# process writing it: what a clean-up removes is what this program provably made, never
# a user's own "out.docx.99999.tmp".
TEMPORARY_MARK = "translator-"


def temporary_name(name: str, suffix: str, pid: int | None = None, hidden: bool = True) -> str:
    """The name of a temporary of ``name``'s: ".out.docx.translator-4242.tmp"."""
    dot = "." if hidden else ""
    return f"{dot}{name}.{TEMPORARY_MARK}{os.getpid() if pid is None else pid}.{suffix}"


def write_atomic(path: Path, data: str | bytes | memoryview) -> None:
    """Write ``data`` (text as UTF-8) to a temporary file beside ``path``, then rename it
    over ``path``: a crash mid-write leaves the previous file intact."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_dead_temporaries(path)
    # A plain open (not mkstemp, which makes 0600 files) so the file gets the umask's mode.
    tmp = path.with_name(temporary_name(path.name, "tmp"))
    try:
        with open(tmp, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def aside_path(path: Path) -> Path:
    """Where a damaged user file is kept: ``NAME.damaged-YYYYmmdd-HHMMSS`` beside it."""
    return path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")


def move_aside(path: Path) -> Path | None:
    """Move a damaged file out of the way; where it went, or None when it could not be
    moved (a read-only folder): then it is still at ``path`` and must not be overwritten."""
    aside = aside_path(path)
    try:
        os.replace(path, aside)
    except OSError:
        return None
    return aside


def current_umask() -> int:
    """The process umask, read without changing it where the OS tells it (Linux);
    elsewhere by the set-and-restore dance."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def apply_umask(folder: Path) -> None:
    """Give ``folder`` and the files in it the modes a plain ``mkdir``/``open`` would
    (some writers, such as safetensors and mkdtemp, make owner-only files)."""
    mask = current_umask()
    for f in folder.iterdir():
        if f.is_file() and not f.is_symlink():
            f.chmod(0o666 & ~mask)
    folder.chmod(0o777 & ~mask)


# ------------------------------------------------------------- leftovers of killed runs
OWNER_FILE = ".owner-pid"
# save_bundle's temporary folder: ".NAME.translator-PID.RANDOM" beside the bundle.
_EXPORT_TMP = re.compile(rf"^\..+\.{TEMPORARY_MARK}(\d+)\.[0-9a-f]{{8}}$")


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists. On Windows, where signal 0 would end the process,
    every pid counts as alive (leftovers are then kept, never a live run's files lost)."""
    if os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, owned by someone else
        return True
    return True


def export_tmp_name(name: str) -> str:
    return temporary_name(name, os.urandom(4).hex())


def claim(folder: Path) -> None:
    """Mark ``folder`` as this process's work (see :func:`remove_orphans`)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / OWNER_FILE).write_text(str(os.getpid()))


def pid_in(path: Path) -> int | None:
    """The process id a lock, claim or owner file holds; None where it cannot be read
    (missing, empty: being written this instant, or not a number)."""
    try:
        return int(Path(path).read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None


def _owner(folder: Path) -> int | None:
    m = _EXPORT_TMP.match(folder.name)
    return int(m.group(1)) if m else pid_in(folder / OWNER_FILE)


# What a writer of NAME leaves while it works (temporary_name, PID the writer's):
# ".NAME.translator-PID.tmp" (write_atomic), "NAME.translator-PID.tmp" (the dictionary
# index), ".NAME.translator-PID.part" (a streamed translation) and
# ".NAME.translator-PID.RANDOM" folders (save_bundle).
_TEMPORARY = re.compile(
    rf"^\.?(?P<name>.+)\.{TEMPORARY_MARK}(?P<pid>\d+)\.(?:tmp|part|[0-9a-f]{{8}})$"
)


def remove_dead_temporaries(path: Path) -> list[Path]:
    """Remove the temporaries that killed processes left while writing ``path`` (a
    kill -9 runs no clean-up); a running process's are kept. Returns what went."""
    path = Path(path)
    removed: list[Path] = []
    if not path.parent.is_dir():
        return removed
    for child in path.parent.glob(f"*{glob.escape(path.name)}.*"):
        m = _TEMPORARY.match(child.name)
        if not m or m["name"] != path.name:
            continue
        pid = int(m["pid"])
        if pid == os.getpid() or pid_alive(pid):
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
        removed.append(child)
    return removed


def remove_orphans(parent: Path) -> list[Path]:
    """Remove the folders in ``parent`` left by processes that were killed: export
    temporaries (``.NAME.translator-PID.RANDOM``) and claimed work folders whose process is gone.
    Folders of running processes, and anything without an owner, are kept."""
    removed = []
    if not parent.is_dir():
        return removed
    for child in parent.iterdir():
        if not child.is_dir() or child.is_symlink():
            continue
        pid = _owner(child)
        if pid is not None and pid != os.getpid() and not pid_alive(pid):
            shutil.rmtree(child, ignore_errors=True)
            removed.append(child)
    return removed


# A lock file that names no process after this long is no lock being taken but a
# leftover (what a power cut between creating it and writing the id leaves).
OWNERLESS_LOCK_S = 1.0


def file_age(path: Path) -> float:
    """Seconds since ``path`` was last changed; 0 where it is gone."""
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0


def create_lock(lock: Path) -> bool:
    """Create ``lock`` holding this process's id, whole or not at all (a hard link of a
    written file, which fails where the lock exists), so no other process ever reads it
    empty; False where it exists. Where the file system has no hard links (FAT, some
    network shares), created exclusively and then written."""
    tmp = lock.with_name(temporary_name(lock.name, "tmp"))
    tmp.write_text(str(os.getpid()), encoding="utf-8")
    try:
        os.link(tmp, lock)
        return True
    except FileExistsError:
        return False
    except OSError:
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        return True
    finally:
        tmp.unlink(missing_ok=True)


def free_bytes(folder: Path) -> int | None:
    """Bytes free on the disk holding ``folder``; None where that cannot be told (then
    the write itself will say)."""
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def stale_lock(lock: Path) -> bool:
    """Whether ``lock`` is a leftover to take over: its process was killed, or it names
    no process a second after it was made (a power cut leaves it empty; a holder writes
    its id at once)."""
    owner = pid_in(lock) or 0
    if owner:
        return owner != os.getpid() and not pid_alive(owner)
    return file_age(lock) > OWNERLESS_LOCK_S


def special_file(path: Path) -> bool:
    """Whether ``path`` exists and is no regular file once links are followed: a named
    pipe hangs a reader, a device (/dev/zero, /dev/urandom) never ends, a folder."""
    path = Path(path)
    return path.exists() and not path.resolve().is_file()


@contextlib.contextmanager
def file_lock(path: Path, wait: float = 3.0) -> Iterator[None]:
    """Hold ``.NAME.lock`` beside ``path`` while one process reads, changes and rewrites
    the file, so that two windows' changes are both kept. A lock left by a killed process
    is taken over, and so is one that names no process a second after it was made (a
    power cut leaves it empty; a holder writes its id at once); a live holder is waited
    for up to ``wait`` seconds, then OSError."""
    path = Path(path)
    lock = path.with_name(f".{path.name}.lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + wait
    while not create_lock(lock):
        if stale_lock(lock):
            lock.unlink(missing_ok=True)
            continue
        if time.monotonic() > deadline:
            owner = pid_in(lock) or 0
            raise OSError(errno.EBUSY, f"{path} is being changed by process {owner}") from None
        time.sleep(0.02)
    try:
        yield
    finally:
        lock.unlink(missing_ok=True)
