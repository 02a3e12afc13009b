"""A bundle's files read and written safely: every read bounded, no file followed out
of the folder, header and values checked before a tensor is used, and a folder that only
ever appears whole and belongs to one writer (bundle.py reads bundles with these,
bundle_torch.py writes them). Every problem is a :class:`BundleError` naming the file.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from safetensors import SafetensorError, safe_open

from translator_app.core.limits import MAX_WEIGHT_ABS
from translator_app.core.platform.paths import free_bytes, pid_alive, pid_in


class BundleError(Exception):
    """A bundle that cannot be used; ``str()`` names the file and the problem."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def holds_files(folder: Path) -> bool:
    """Whether ``folder`` exists as anything but an empty folder (one a run claimed)."""
    if not folder.exists():
        return False
    try:
        return not folder.is_dir() or any(folder.iterdir())
    except FileNotFoundError:  # removed meanwhile
        return False


def rename_no_replace(tmp: Path, out_dir: Path) -> None:
    """Put ``tmp`` in place unless another writer got there first: of two exports or
    fine-tunes into one folder exactly one wins, and the other says the folder exists. A
    rename never replaces a folder that holds files (it may replace an empty one, which
    a fine-tune creates to claim its folder)."""
    try:
        if os.name == "nt" and out_dir.is_dir() and not any(out_dir.iterdir()):
            out_dir.rmdir()  # Windows renames onto no existing folder at all
        os.rename(tmp, out_dir)
    except OSError:
        if out_dir.exists():
            raise BundleError(
                out_dir,
                "already exists: another export or fine-tune wrote it first "
                "(choose another output directory)",
            ) from None
        raise


# Beyond the weights: the tokenizer, the shortlist and the files a bundle carries.
_BUNDLE_MARGIN_BYTES = 16 * 1024 * 1024


def check_free_space(folder: Path, needed_bytes: int) -> None:
    """Refuse, naming the folder, before writing ``needed_bytes`` (and the rest of a
    bundle) where the disk has less room: a full disk found halfway is a lost export."""
    free = free_bytes(folder)
    needed = needed_bytes + _BUNDLE_MARGIN_BYTES
    if free is not None and free < needed:
        raise BundleError(
            folder,
            f"has {free / 1e6:.0f} MB free and needs {needed / 1e6:.0f} MB; "
            "free some space or choose another folder",
        )


def claim_folder(out_dir: Path) -> list[Path]:
    """Create ``out_dir`` for a long job that will write a bundle there, so that a second
    job into the same folder is refused at once, not after it has trained. The claim is
    a marker beside the folder naming this process: an empty folder whose job is gone
    (killed before it wrote the bundle) is taken over, not refused. Returns the folders
    it created, deepest first, for :func:`release_folder`."""
    created = [p for p in (out_dir, *out_dir.parents) if not p.exists()]
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    marker = _claim_marker(out_dir)
    try:
        out_dir.mkdir()
    except FileExistsError:
        owner = pid_in(marker)
        if holds_files(out_dir) or owner is None or pid_alive(owner):
            running = f" and a running job (process {owner}) writes into it" if owner else ""
            raise BundleError(
                out_dir, f"already exists{running} (choose another output directory)"
            ) from None
    marker.write_text(str(os.getpid()), encoding="utf-8")
    return created


def release_folder(created: list[Path], out_dir: Path | None = None) -> None:
    """Give back what :func:`claim_folder` created, where it is still empty, and the
    claim on ``out_dir``: a failed job leaves nothing behind."""
    if out_dir is not None:
        unclaim(out_dir)
    for folder in created:
        try:
            folder.rmdir()
        except OSError:  # not empty (the bundle, or another job's files): kept
            return


def unclaim(out_dir: Path) -> None:
    """The job that claimed ``out_dir`` is done with it (its bundle is there, or not)."""
    _claim_marker(out_dir).unlink(missing_ok=True)


def _claim_marker(out_dir: Path) -> Path:
    return out_dir.parent / f".{out_dir.name}.claim"


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, refusing a file larger than ``limit`` without reading it
    whole (``stat`` can be fooled by a growing file or a device; the read is bounded)."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise BundleError(path, f"cannot be read ({e.strerror or e})") from None
    if len(data) > limit:
        raise BundleError(path, f"is larger than {size_text(limit)}; not a bundle file")
    return data


def size_text(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


def inside(path: Path, name: str) -> Path:
    """``path / name``, refusing a symlink that leads out of the bundle folder (a card
    linked to a system file must not be shown, a weights file linked to a device must
    not be read)."""
    target = path / name
    try:
        real, root = target.resolve(strict=True), path.resolve(strict=True)
    except (OSError, RuntimeError):  # missing, or a symlink loop
        raise BundleError(target, "is missing from the model directory") from None
    if not real.is_relative_to(root):
        raise BundleError(target, "is a link to a file outside the model directory; refused")
    if not real.is_file():
        raise BundleError(target, "is not a regular file")
    return target


def first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0][:200] if text else type(e).__name__


# Name -> (shape, floating point) of each tensor a config needs.
Expected = dict[str, tuple[tuple[int, ...], bool]]


def check_header(path: Path, expected: Expected) -> None:
    """Compare the weights file's header (names, shapes, dtypes) with the config before
    any tensor is read."""
    try:
        with safe_open(str(path), framework="numpy") as f:
            slices = {k: f.get_slice(k) for k in f.keys()}  # noqa: SIM118 - not a dict
            shapes = {k: tuple(v.get_shape()) for k, v in slices.items()}
            dtypes = {k: v.get_dtype() for k, v in slices.items()}
    except (SafetensorError, OSError, ValueError, RuntimeError) as e:
        raise BundleError(path, f"weights are truncated or corrupt ({first_line(e)})") from None
    missing = sorted(set(expected) - set(shapes))
    unexpected = sorted(set(shapes) - set(expected))
    if missing or unexpected:
        parts = []
        if missing:
            parts.append(
                f"missing tensors {', '.join(missing[:5])}" + (" ..." if len(missing) > 5 else "")
            )
        if unexpected:
            parts.append(
                f"unexpected tensors {', '.join(unexpected[:5])}"
                + (" ..." if len(unexpected) > 5 else "")
            )
        raise BundleError(path, "weights do not match config.json: " + "; ".join(parts))
    for k, (shape, want_float) in expected.items():
        if shapes[k] != shape:
            raise BundleError(
                path, f"tensor {k} has shape {shapes[k]}, config.json implies {shape}"
            )
        floating = dtypes[k].startswith(("F", "BF"))
        if floating != want_float:
            kind = "floating-point" if want_float else "integer"
            raise BundleError(path, f"tensor {k} has dtype {dtypes[k]}, expected {kind}")


def check_values_numpy(path: Path) -> None:
    """Every weight finite and of sane size, read with NumPy (no PyTorch): the checks of
    the PyTorch loader (bundle_torch.py), for a file of float16/float32 tensors."""
    from safetensors.numpy import load_file

    try:
        arrays = load_file(str(path))
    except (SafetensorError, OSError, ValueError, RuntimeError, MemoryError, TypeError) as e:
        raise BundleError(path, f"weights cannot be read ({first_line(e)})") from None
    for k, a in arrays.items():
        if a.dtype.kind != "f" or not a.size:
            continue
        if not np.isfinite(a).all():
            raise BundleError(path, f"tensor {k} contains NaN or infinite values")
        # Finite but absurd values (1e30) break int8 quantisation at translate time.
        if float(np.abs(a).max()) > MAX_WEIGHT_ABS:
            raise BundleError(
                path, f"tensor {k} holds values beyond ±{MAX_WEIGHT_ABS:g}; the file is corrupt"
            )
