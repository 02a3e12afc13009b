"""Model → Get models… and ``translator-app models get``: a tiny Marian model served by a
test server on 127.0.0.1 is downloaded, checked and imported; every failure the issue
lists ends in one sentence and no half-model in the models folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from translator_app.core.downloads import getting, transfer
from translator_app.core.downloads.catalogue import (
    CatalogueError,
    _entry,
    find_entry,
    load_catalogue,
)
from translator_app.core.downloads.getting import (
    get_model,
    installed_models,
    remove_model,
    staging_dir,
)
from translator_app.core.downloads.transfer import DownloadCancelled, DownloadError
from translator_app.core.platform.paths import user_models_dir

pytest.importorskip("transformers")
from model_source import ModelSource  # noqa: E402

from tiny_marian import make_hf_model  # noqa: E402

REVISION = "ab" * 20
SHAPE = {"d_model": 16, "encoder_layers": 1, "decoder_layers": 1, "heads": 2, "ffn": 32}
WEIGHTS = "model.safetensors"


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("tiny-hf")
    make_hf_model(folder, SHAPE)
    for extra in ("generation_config.json",):  # the catalogue fetches only what it names
        (folder / extra).unlink(missing_ok=True)
    return folder


@pytest.fixture
def source(tiny_folder, tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSLATOR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(transfer, "RETRY_PAUSE_S", 0.0)
    monkeypatch.setattr(transfer, "CHUNK_BYTES", 4096)  # the tiny files come in many pieces
    with ModelSource(tiny_folder, repo="test/tiny", revision=REVISION) as s:
        monkeypatch.setenv("TRANSLATOR_MODEL_SOURCE", s.url)
        yield s


def entry_of(source: ModelSource, **overrides):
    return _entry(source.entry(**overrides), Path("catalogue.json"))


def no_model_installed() -> bool:
    folder = user_models_dir()
    return not folder.exists() or not any(p for p in folder.iterdir())


def test_the_packaged_catalogue_names_confirmed_models():
    entries = load_catalogue()
    opus = find_entry("OPUS-MT-DE-EN", entries)
    assert opus.repo == "Helsinki-NLP/opus-mt-de-en"
    assert opus.files["model.safetensors"]  # pinned to the checksum its page shows
    assert {"config.json", "source.spm", "target.spm", "vocab.json"} <= set(opus.files)
    assert "newstest2019 40.1" in opus.score_text()
    with pytest.raises(CatalogueError, match="no model called 'deepl'.*opus-mt-de-en"):
        find_entry("deepl", entries)


def test_a_malformed_catalogue_is_named(tmp_path):
    bad = tmp_path / "catalogue.json"
    bad.write_text(json.dumps({"models": [{"id": "x"}]}))
    with pytest.raises(CatalogueError, match=r"catalogue\.json: an entry lacks"):
        load_catalogue(bad)
    bad.write_text(json.dumps({"models": []}))
    with pytest.raises(CatalogueError, match=r"catalogue\.json: lists no models"):
        load_catalogue(bad)
    bad.write_text("{ not json")
    with pytest.raises(CatalogueError, match=r"catalogue\.json: cannot be read"):
        load_catalogue(bad)


def test_a_whole_download_becomes_a_model_with_its_card(source):
    reports = []
    out = get_model(entry_of(source), on_progress=reports.append)
    assert out.parent == user_models_dir()
    card = (out / "MODEL_CARD.md").read_text()
    assert "Fetched from" in card and "CC-BY-4.0" in card and "nothing 1.0 BLEU" in card
    config = json.loads((out / "config.json").read_text())
    assert config["origin"]["catalogue_id"] == "tiny-test"
    assert config["origin"]["revision"] == REVISION
    speed = json.loads((out / "metrics.json").read_text())["speed_here"]
    assert speed["ms_per_sentence"] > 0 and speed["cpu"] and speed["engine"]
    assert reports[-1].stage == "measuring"
    assert installed_models() == {"tiny-test": out}
    assert not staging_dir(entry_of(source)).exists()  # nothing left in the cache
    total = sum(p.stat().st_size for p in source.folder.iterdir())
    done = [r for r in reports if r.stage == "downloading"]
    assert done and done[-1].done == total == done[-1].total
    # It translates.
    from translator_app.core.api.translator import Translator

    [result] = Translator.load(out, device="cpu").translate(["Der Hund läuft."])
    assert isinstance(result.text, str)


def test_a_connection_cut_halfway_is_resumed_with_a_range_request(source):
    size = (source.folder / WEIGHTS).stat().st_size
    source.cut_after[WEIGHTS] = size // 2
    out = get_model(entry_of(source))
    assert (out / "config.json").is_file()
    ranges = [r for p, r in source.requests if p.endswith(WEIGHTS)]
    assert ranges[0] == "" and ranges[1].startswith("bytes=") and int(ranges[1][6:-1]) > 0


def test_a_cancelled_download_resumes_after_the_app_was_closed(source):
    total = sum(p.stat().st_size for p in source.folder.iterdir())
    asked = []

    def cancel_halfway() -> bool:  # asked before each piece is written
        asked.append(1)
        return len(asked) * transfer.CHUNK_BYTES > total / 2

    with pytest.raises(DownloadCancelled, match="Get resumes them"):
        get_model(entry_of(source), cancelled=cancel_halfway)
    assert no_model_installed()
    parts = list(staging_dir(entry_of(source)).glob("*.part"))
    assert parts and parts[0].stat().st_size > 0
    held = parts[0].stat().st_size
    source.requests.clear()
    get_model(entry_of(source))  # a new call, as a new app would make it
    assert f"bytes={held}-" in [r for _, r in source.requests]


@pytest.mark.parametrize(
    ("fault", "says"),
    [
        ("missing", r"has no model\.safetensors \(404\)"),
        ("short", r"model\.safetensors arrived with \d+ bytes where the source lists \d+"),
        ("corrupt", r"model\.safetensors arrived damaged"),
    ],
)
def test_a_bad_file_gives_one_sentence_and_no_half_model(source, fault, says):
    getattr(source.bad, fault).add(WEIGHTS)
    with pytest.raises(DownloadError, match=says) as e:
        get_model(entry_of(source))
    assert "\n" not in str(e.value)
    assert no_model_installed()
    assert not list(staging_dir(entry_of(source)).glob(f"{WEIGHTS}*"))  # the bad file went
    setattr(source.bad, fault, set())
    assert (get_model(entry_of(source)) / "config.json").is_file()  # and a retry works


def test_a_checksum_other_than_the_published_one_is_refused(source):
    raw = source.entry()
    raw["files"][WEIGHTS] = "0" * 64
    with pytest.raises(DownloadError, match="differs from the one its publisher showed"):
        get_model(_entry(raw, Path("catalogue.json")))
    assert no_model_installed()


def test_a_source_that_ignores_ranges_starts_the_file_again(source):
    size = (source.folder / WEIGHTS).stat().st_size
    source.cut_after[WEIGHTS] = size // 3
    source.bad.no_ranges = True
    assert (get_model(entry_of(source)) / "config.json").is_file()


def test_no_network_is_one_sentence(source, monkeypatch):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("TRANSLATOR_MODEL_SOURCE", f"http://127.0.0.1:{port}")
    with pytest.raises(DownloadError, match=r"127\.0\.0\.1:\d+ could not be reached"):
        get_model(entry_of(source))
    assert no_model_installed()


def test_too_little_disk_space_is_found_before_the_first_byte(source, monkeypatch):
    usage = shutil.disk_usage("/")
    monkeypatch.setattr(getting.shutil, "disk_usage", lambda p: usage._replace(free=1_000_000))
    with pytest.raises(DownloadError, match=r"needs \d+ MB in .* which has 1 MB free"):
        get_model(entry_of(source))
    assert not any(p.endswith(WEIGHTS) for p, _ in source.requests)


def test_a_disk_that_fills_up_midway_is_one_sentence(source, monkeypatch, tmp_path):
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("a small tmpfs needs root (CI runs as root)")
    small = tmp_path / "small"
    small.mkdir()
    size = (source.folder / WEIGHTS).stat().st_size
    if subprocess.call(["mount", "-t", "tmpfs", "-o", f"size={size // 2}", "tmpfs", str(small)]):
        pytest.skip("this sandbox cannot mount a tmpfs")
    try:
        monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(small))
        monkeypatch.setattr(getting, "_check_space", lambda *a: None)  # let it start
        with pytest.raises(DownloadError, match=r"The disk holding .* is full"):
            get_model(entry_of(source))
        assert no_model_installed()
    finally:
        subprocess.call(["umount", str(small)])


def test_a_folder_that_cannot_be_written_is_named(source, monkeypatch, tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache should be")
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(blocked))
    with pytest.raises(DownloadError, match=r"Cannot write .*not-a-folder"):
        get_model(entry_of(source))


def test_a_second_download_of_the_same_model_is_refused_while_the_first_runs(source):
    source.bad.delay_s = 0.002
    first: dict = {}
    started = threading.Event()

    def run():
        try:
            first["out"] = get_model(entry_of(source), on_progress=lambda p: started.set())
        except DownloadError as e:  # pragma: no cover - reported below
            first["error"] = e

    t = threading.Thread(target=run)
    t.start()
    assert started.wait(30)
    with pytest.raises(DownloadError, match="already being downloaded"):
        get_model(entry_of(source))
    t.join(60)
    assert "error" not in first and (first["out"] / "config.json").is_file()
    with pytest.raises(DownloadError, match="already installed"):
        get_model(entry_of(source))


def test_remove_takes_the_model_and_any_unfinished_download(source):
    out = get_model(entry_of(source))
    staging_dir(entry_of(source)).mkdir(parents=True)
    (staging_dir(entry_of(source)) / "vocab.json.part").write_text("{")
    gone = remove_model(entry_of(source))
    assert out in gone and not out.exists()
    assert not staging_dir(entry_of(source)).exists()
    with pytest.raises(DownloadError, match="is not installed"):
        remove_model(entry_of(source))


def test_the_command_line_lists_gets_and_removes(source, tmp_path):
    catalogue = tmp_path / "catalogue.json"
    catalogue.write_text(json.dumps({"models": [source.entry()]}))
    env = os.environ | {"TRANSLATOR_CATALOGUE": str(catalogue)}

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "translator_app", "models", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    listed = run("list")
    assert listed.returncode == 0, listed.stderr
    assert "tiny-test" in listed.stdout and "not installed" in listed.stdout
    got = run("get", "tiny-test")
    assert got.returncode == 0, got.stderr
    assert "installed in" in got.stdout
    assert "ms per sentence here" in run("list").stdout
    missing = run("get", "nothing-like-it")
    assert missing.returncode != 0 and "no model called 'nothing-like-it'" in missing.stderr
    assert "Traceback" not in missing.stderr
    removed = run("remove", "tiny-test")
    assert removed.returncode == 0 and "removed" in removed.stdout


def test_a_proxy_that_fails_is_one_sentence(source, monkeypatch):
    import socket

    with socket.socket() as s:  # a proxy port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("NO_PROXY", "")
    monkeypatch.setenv("no_proxy", "")
    with pytest.raises(DownloadError, match="the proxy did not pass the connection"):
        get_model(entry_of(source))
    assert no_model_installed()


def test_a_tls_failure_is_one_sentence(source, monkeypatch):
    # The source speaks plain HTTP: asked for HTTPS, the TLS handshake fails.
    monkeypatch.setenv("TRANSLATOR_MODEL_SOURCE", source.url.replace("http://", "https://"))
    with pytest.raises(DownloadError, match="no secure connection to 127.0.0.1:\\d+ could be made"):
        get_model(entry_of(source))
    assert no_model_installed()
