"""One file from a model's source to the disk: ``RemoteFile`` → a checked file.

    fetch(session, remote, Path("vocab.json"), on_bytes=print, cancelled=lambda: False)

The bytes go to ``NAME.part`` first; a cut connection is retried from where it stopped
(an HTTP Range request), and so is a later call after a closed app. Only a file of the
listed size whose SHA-256 (or git blob id) matches is renamed to ``NAME``. The transfer
is the ``requests`` library's; every failure is one :class:`DownloadError` sentence.
"""

from __future__ import annotations

import errno
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import requests

CHUNK_BYTES = 1 << 16  # what is written (and may be cancelled) at a time
CONNECT_TIMEOUT_S, READ_TIMEOUT_S = 15, 60
RETRIES = 3  # a connection cut mid-file is resumed this many times before giving up
RETRY_PAUSE_S = 0.5
USER_AGENT = "translator-app (offline German-English translator; model download)"


class DownloadError(Exception):
    """A download that cannot go on: ``str()`` is one sentence saying what happened and
    what the user can do; nothing half-fetched is ever offered as a model."""


class DownloadCancelled(DownloadError):
    """The user cancelled; what arrived is kept, and the next Get resumes it."""


@dataclass(frozen=True)
class RemoteFile:
    """A file to fetch: its name, address, size in bytes and the checksum to hold it to
    (``sha256``, or ``git_oid``, the SHA-1 git gives a file's content)."""

    name: str
    url: str
    size: int
    sha256: str | None = None
    git_oid: str | None = None


def host_of(url: str) -> str:
    return urlsplit(url).netloc or url


def new_session() -> requests.Session:
    """A session that takes proxies and certificates from the environment, as requests
    does (HTTPS_PROXY, REQUESTS_CA_BUNDLE)."""
    session = requests.Session()
    session.headers["User-Agent"] = USER_AGENT
    return session


def network_problem(e: requests.RequestException, url: str) -> str:
    """What a failed request means to a user, in words (no exception names)."""
    host = host_of(url)
    if isinstance(e, requests.exceptions.ProxyError):
        return f"the proxy did not pass the connection to {host} on ({_reason(e)})"
    if isinstance(e, requests.exceptions.SSLError):
        return f"no secure connection to {host} could be made (a certificate or TLS problem)"
    if isinstance(e, requests.Timeout):
        return f"{host} did not answer in time"
    if isinstance(e, requests.ConnectionError):
        return f"{host} could not be reached (no network, or the address is unknown)"
    return f"the request to {host} failed ({_reason(e)})"


def _reason(e: Exception) -> str:
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return text[:160]


def http_problem(response: requests.Response, what: str) -> str:
    code = response.status_code
    if code == 404:
        return (
            f"{host_of(response.url)} has no {what} (404): the catalogue entry may be out of date"
        )
    if code in (401, 403):
        return f"{host_of(response.url)} refused {what} ({code})"
    return f"{host_of(response.url)} answered {code} for {what}"


def _write_failure(e: OSError, part: Path) -> DownloadError:
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return DownloadError(
            f"The disk holding {part.parent} is full; free some space and Get the model "
            "again (it resumes where it stopped)."
        )
    return DownloadError(f"Cannot write {part}: {e.strerror or e}.")


def file_checksum_ok(path: Path, remote: RemoteFile) -> bool:
    """Whether ``path``'s content hashes to the checksum ``remote`` gives (True where it
    gives none; the size is checked apart)."""
    if remote.sha256:
        h = hashlib.sha256()
    elif remote.git_oid:
        h = hashlib.sha1()
        h.update(b"blob %d\0" % path.stat().st_size)
    else:
        return True
    with path.open("rb") as f:
        while block := f.read(CHUNK_BYTES):
            h.update(block)
    return h.hexdigest() == (remote.sha256 or remote.git_oid)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _one_request(
    session: requests.Session,
    remote: RemoteFile,
    part: Path,
    on_bytes: Callable[[int], None],
    cancelled: Callable[[], bool],
) -> None:
    """Append what the source sends after ``part``'s bytes (all of it where the source
    ignores the Range); network errors propagate for the caller to retry."""
    have = _size(part)
    headers = {"Range": f"bytes={have}-"} if have else {}
    with session.get(
        remote.url,
        headers=headers,
        stream=True,
        timeout=(CONNECT_TIMEOUT_S, READ_TIMEOUT_S),
    ) as r:
        if r.status_code == 416:  # what we hold is not a prefix of theirs: start over
            part.unlink(missing_ok=True)
            on_bytes(-have)
            return
        if r.status_code >= 400:
            raise DownloadError(f"The download stopped: {http_problem(r, remote.name)}.")
        if have and r.status_code != 206:  # the whole file came back: start over
            on_bytes(-have)
            have = 0
        try:
            with part.open("ab" if have else "wb") as f:
                for chunk in r.iter_content(CHUNK_BYTES):
                    if cancelled():
                        raise DownloadCancelled(
                            f"Cancelled; the {_size(part) / 1e6:.0f} MB of {remote.name} "
                            "fetched so far are kept, and Get resumes them."
                        )
                    f.write(chunk)
                    on_bytes(len(chunk))
        except requests.RequestException:
            raise  # an OSError too: the network's, for fetch to retry
        except OSError as e:
            raise _write_failure(e, part) from None


def fetch(
    session: requests.Session,
    remote: RemoteFile,
    dest: Path,
    *,
    on_bytes: Callable[[int], None] = lambda n: None,
    cancelled: Callable[[], bool] = lambda: False,
    retries: int = RETRIES,
) -> Path:
    """Bring ``remote`` to ``dest``, resuming ``dest.part`` where an earlier try left it,
    and check its size and checksum; returns ``dest``. ``on_bytes(n)`` is told of every
    ``n`` bytes written (negative when a part is dropped to start over)."""
    if _size(dest) == remote.size and dest.is_file():
        return dest  # checked before it was renamed there
    part = dest.with_name(dest.name + ".part")
    problem: requests.RequestException | None = None
    for attempt in range(retries + 1):
        if _size(part) > remote.size:
            on_bytes(-_size(part))
            part.unlink(missing_ok=True)
        if _size(part) == remote.size:
            break
        before = _size(part)
        try:
            _one_request(session, remote, part, on_bytes, cancelled)
            problem = None
        except requests.RequestException as e:  # unreachable, timed out, or cut mid-file
            problem = e
            unreachable = isinstance(e, requests.ConnectionError) and before == 0 == _size(part)
            if attempt == 0 and unreachable:
                break  # no connection at all (no network): no use retrying at once
            time.sleep(RETRY_PAUSE_S)
    got = _size(part)
    if got != remote.size:
        if problem is not None and got == 0:
            raise DownloadError(
                f"The download could not start: {network_problem(problem, remote.url)}."
            )
        if problem is not None:
            raise DownloadError(
                f"The connection to {host_of(remote.url)} dropped during {remote.name} after "
                f"{got / 1e6:.1f} of {remote.size / 1e6:.1f} MB; Get the model again to "
                "resume where it stopped."
            )
        part.unlink(missing_ok=True)
        raise DownloadError(
            f"{remote.name} arrived with {got} bytes where the source lists {remote.size}; "
            "it was deleted: Get the model again."
        )
    if not file_checksum_ok(part, remote):
        part.unlink(missing_ok=True)
        raise DownloadError(
            f"{remote.name} arrived damaged (its checksum is not the published one); it was "
            "deleted: Get the model again, and if it happens again the source has changed."
        )
    try:
        part.replace(dest)
    except OSError as e:
        raise _write_failure(e, dest) from None
    return dest
