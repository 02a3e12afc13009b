"""A model source on 127.0.0.1 for the downloads' tests: it answers the two requests the
app makes of Hugging Face (the file list of a revision, and a file, with Range) for the
files of one folder, and can misbehave on demand.

    with ModelSource(folder, repo="test/tiny", revision="0" * 40) as source:
        source.cut_after["model.safetensors"] = 5000   # close the connection once there
        ...

Started and stopped by the test that uses it (a context manager); no other network.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

LFS_NAMES = (".safetensors", ".bin", ".npz")  # listed with an "lfs" block, as the Hub does


@dataclass
class Misbehaviour:
    """What the server does wrong, by file name: close the connection once after N bytes
    (``cut_after``), answer 404 (``missing``), send other bytes of the same size
    (``corrupt``), send fewer bytes than listed (``short``), send slowly (``delay_s`` a
    chunk), ignore Range requests (``no_ranges``)."""

    cut_after: dict[str, int] = field(default_factory=dict)
    missing: set[str] = field(default_factory=set)
    corrupt: set[str] = field(default_factory=set)
    short: set[str] = field(default_factory=set)
    delay_s: float = 0.0
    no_ranges: bool = False


class ModelSource:
    def __init__(self, folder: Path, repo: str, revision: str) -> None:
        self.folder, self.repo, self.revision = Path(folder), repo, revision
        self.bad = Misbehaviour()
        self.cut_after = self.bad.cut_after
        self.requests: list[tuple[str, str]] = []  # (path, Range header)
        self.server: ThreadingHTTPServer | None = None

    # ------------------------------------------------------------ what it serves
    def listing(self) -> list[dict]:
        out = []
        for p in sorted(self.folder.iterdir()):
            data = p.read_bytes()
            item = {"type": "file", "path": p.name, "size": len(data)}
            if p.name.endswith(LFS_NAMES):
                sha = hashlib.sha256(data).hexdigest()
                item |= {"oid": "1" * 40, "size": 134}
                item["lfs"] = {"oid": sha, "size": len(data), "pointerSize": 134}
            else:
                item["oid"] = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
            out.append(item)
        return out

    def entry(self, files=None, **overrides) -> dict:
        """A catalogue entry (raw, as the JSON holds it) for this source's files."""
        names = files or [p.name for p in sorted(self.folder.iterdir())]
        raw = {
            "id": "tiny-test",
            "name": "Tiny test model",
            "source": "huggingface",
            "repo": self.repo,
            "revision": self.revision,
            "page": f"{self.url}/{self.repo}",
            "files": {n: None for n in names},
            "download_mb": 1,
            "disk_mb": 1,
            "licence": "CC-BY-4.0",
            "attribution": "the tests",
            "architecture": "tiny",
            "trained_on": "nothing",
            "scores": [{"test": "nothing", "bleu": 1.0, "source": "the tests"}],
        }
        return raw | overrides

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    # ------------------------------------------------------------ the server
    def __enter__(self) -> ModelSource:
        source = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 (the http.server name)
                source.requests.append((self.path, self.headers.get("Range", "")))
                source.answer(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        assert self.server is not None
        self.server.shutdown()
        self.server.server_close()

    def answer(self, h: BaseHTTPRequestHandler) -> None:
        path = unquote(h.path.split("?")[0])
        if path == f"/api/models/{self.repo}/tree/{self.revision}":
            return self._send(h, 200, json.dumps(self.listing()).encode(), "application/json")
        m = re.fullmatch(rf"/{re.escape(self.repo)}/resolve/{self.revision}/([^/]+)", path)
        if not m or not (self.folder / m[1]).is_file() or m[1] in self.bad.missing:
            return self._send(h, 404, b"Entry not found", "text/plain")
        self._send_file(h, m[1])

    def _send(self, h, code: int, body: bytes, kind: str) -> None:
        h.send_response(code)
        h.send_header("Content-Type", kind)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def _send_file(self, h, name: str) -> None:
        data = (self.folder / name).read_bytes()
        if name in self.bad.corrupt:
            data = bytes(b ^ 0xFF for b in data[:64]) + data[64:]
        if name in self.bad.short:
            data = data[: len(data) // 2]
        start = 0
        m = re.fullmatch(r"bytes=(\d+)-", h.headers.get("Range", ""))
        if m and not self.bad.no_ranges:
            start = int(m[1])
            if start >= len(data):
                return self._send(h, 416, b"", "text/plain")
        body = data[start:]
        h.send_response(206 if start else 200)
        h.send_header("Content-Length", str(len(body)))
        if start:
            h.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        h.end_headers()
        cut = self.bad.cut_after.pop(name, None)
        sent = 0
        for i in range(0, len(body), 4096):
            piece = body[i : i + 4096]
            if cut is not None and start + sent + len(piece) > cut:
                h.wfile.write(piece[: max(cut - start - sent, 0)])
                h.wfile.flush()
                h.close_connection = True
                return
            h.wfile.write(piece)
            sent += len(piece)
            if self.bad.delay_s:
                time.sleep(self.bad.delay_s)
