"""Model → Get models…: the catalogue of published models, each with its size, licence,
authors and published scores; a download with its progress (bytes, speed, time left),
Cancel, and Resume; Remove. The transfer, its checks and the import run in
core/downloads in a thread; only immutable values (Progress, strings) cross to the GUI.
Nothing is contacted until the user presses Download."""

from __future__ import annotations

import html
import threading
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from translator_app.core.downloads.catalogue import CatalogueEntry
from translator_app.gui.shared.background_job import BackgroundJob
from translator_app.gui.shared.screen import fit_resize

COLUMNS = ("Model", "Download", "Published scores (BLEU)", "Licence", "Status")


class ModelDownloader(BackgroundJob):
    """One download at a time, in a thread: ``progress(Progress)``, then ``finished(path)``
    or ``failed(message)`` (a cancel is a failure whose message says so)."""

    progress = Signal(object)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.entry: CatalogueEntry | None = None
        self._stop = threading.Event()
        self.finished.connect(self._forget)
        self.failed.connect(self._forget)

    def start(self, entry: CatalogueEntry) -> None:
        from translator_app.core.downloads.getting import get_model
        from translator_app.core.downloads.transfer import DownloadError

        self.entry, self._stop = entry, threading.Event()
        stop = self._stop

        def explain(e: BaseException) -> str:
            if isinstance(e, DownloadError):
                return str(e)
            return f"The download of {entry.name} failed: {e}"  # the import's last resort

        self.run(
            lambda: get_model(entry, on_progress=self.progress.emit, cancelled=stop.is_set),
            explain,
            (DownloadError, OSError, ValueError, RuntimeError, MemoryError),
        )

    def cancel(self) -> None:
        self._stop.set()

    def _forget(self, _: str) -> None:
        self.entry = None


def status_of(entry: CatalogueEntry, installed: dict[str, Path]) -> str:
    """ "Installed", "Partly downloaded (12 MB)" or "Not installed"."""
    from translator_app.core.downloads.getting import staging_dir

    if entry.id in installed:
        return "Installed"
    held = sum(p.stat().st_size for p in staging_dir(entry).glob("*") if p.is_file())
    return f"Partly downloaded ({held / 1e6:.1f} MB)" if held else "Not installed"


def details_html(entry: CatalogueEntry) -> str:
    """The selected model's card in a few lines: what it is, who made it, its licence,
    its published scores with their source, and where its page is."""
    e = {k: html.escape(str(v)) for k, v in vars(entry).items() if isinstance(v, str)}
    scores = "; ".join(html.escape(f"{s.test} {s.bleu:.1f} ({s.source})") for s in entry.scores)
    return (
        f"<b>{e['name']}</b><br>{e['architecture']}; trained on {e['trained_on']}.<br>"
        f"Authors: {e['attribution']}.<br>Licence: {e['licence']}.<br>"
        f"Published BLEU: {scores}.<br>"
        f"{entry.download_mb:.0f} MB to download, about {entry.disk_mb:.0f} MB on disk. "
        f'Source: <a href="{e["page"]}">{e["page"]}</a>'
    )


class GetModelsDialog(QDialog):
    """The catalogue as a table; Download / Cancel / Remove for the selected model.
    ``downloader`` is the window's; ``on_installed(path)`` is called when a model has
    been imported, ``on_removed(path)`` when one was deleted. The window keeps one dialog
    and shows it again."""

    def __init__(
        self, entries, downloader: ModelDownloader, on_installed, on_removed, parent=None
    ) -> None:
        super().__init__(parent)
        self.entries, self.downloader = list(entries), downloader
        self.on_installed, self.on_removed = on_installed, on_removed
        self.setWindowTitle("Get models")
        self.setAccessibleName("Get models")
        fit_resize(self, 900, 480)
        intro = QLabel(
            "Published German→English models, better than the bundled one on news and long "
            "sentences. The app stays offline until you press Download; each file is "
            "checked against its published size and checksum before it is used."
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(len(self.entries), len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setAccessibleName("Published models")
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setOpenExternalLinks(True)
        self.details.setTextInteractionFlags(Qt.TextBrowserInteraction)
        self.bar = QProgressBar()
        self.bar.setAccessibleName("Download progress")
        self.bar.setTextVisible(True)
        self.bar.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Download status")
        self.download = QPushButton("&Download")
        self.download.clicked.connect(self.start_or_cancel)
        self.remove = QPushButton("&Remove")
        self.remove.clicked.connect(self.remove_selected)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.download)
        row.addWidget(self.remove)
        row.addStretch(1)
        row.addWidget(close)
        layout = QVBoxLayout(self)
        for w in (intro, self.table, self.details, self.bar, self.status):
            layout.addWidget(w)
        layout.addLayout(row)
        downloader.progress.connect(self.show_progress)
        downloader.finished.connect(self.show_installed)
        downloader.failed.connect(self.show_failure)
        self.table.itemSelectionChanged.connect(self.refresh_buttons)
        self.refresh()
        if self.entries:
            self.table.selectRow(0)

    # ---------------------------------------------------------------- the table
    def selected(self) -> CatalogueEntry | None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        return self.entries[min(rows)] if rows else None

    def refresh(self) -> None:
        from translator_app.core.downloads.getting import installed_models

        self.installed = installed = installed_models()
        for r, e in enumerate(self.entries):
            downloading = self.downloader.entry is not None and self.downloader.entry.id == e.id
            cells = (
                e.name,
                f"{e.download_mb:.0f} MB",
                e.score_text().removesuffix(" BLEU"),
                e.licence.split(" (")[0],
                "Downloading…" if downloading else status_of(e, installed),
            )
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.refresh_buttons()

    def refresh_buttons(self) -> None:
        from translator_app.core.downloads.getting import speed_text

        entry = self.selected()
        where = self.installed.get(entry.id) if entry else None
        speed = speed_text(where) if where else ""
        self.details.setText(
            (details_html(entry) + (f"<br>Measured: {html.escape(speed)}." if speed else ""))
            if entry
            else ""
        )
        status = self.table.item(self.table.currentRow(), len(COLUMNS) - 1)
        state = status.text() if status and entry else ""
        busy = self.downloader.busy
        if busy:
            self.download.setText("&Cancel download")
        else:
            self.download.setText("&Resume download" if state.startswith("Partly") else "&Download")
        self.download.setEnabled(busy or (entry is not None and state != "Installed"))
        self.remove.setEnabled(not busy and entry is not None and state != "Not installed")

    # ---------------------------------------------------------------- downloading
    def start_or_cancel(self) -> None:
        if self.downloader.busy:
            self.downloader.cancel()
            self.status.setText("Cancelling…")
            return
        entry = self.selected()
        if entry is None:
            return
        self.bar.setRange(0, 0)  # busy until the listing gives the size
        self.bar.setFormat("Asking the source for the files…")
        self.bar.show()
        self.status.setText(f"Downloading {entry.name}…")
        self.downloader.start(entry)
        self.refresh()

    def show_progress(self, p) -> None:
        if p.stage != "downloading":
            self.bar.setRange(0, 0)
        else:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(1000 * p.done / max(p.total, 1)))
        self.bar.setFormat(p.text())

    def show_installed(self, path: str) -> None:
        self.bar.hide()
        self.status.setText(f"Installed in {path}.")
        self.refresh()
        self.on_installed(path)

    def show_failure(self, message: str) -> None:
        self.bar.hide()
        self.status.setText(message)
        self.refresh()

    def remove_selected(self) -> None:
        from translator_app.core.downloads.getting import remove_model
        from translator_app.core.downloads.transfer import DownloadError

        entry = self.selected()
        if entry is None:
            return
        try:
            gone = remove_model(entry)
        except (DownloadError, OSError) as e:
            self.status.setText(str(e))
            return
        self.status.setText(f"Removed {entry.name}.")
        self.refresh()
        for path in gone:
            self.on_removed(str(path))

    def reject(self) -> None:
        """Close, Esc and the window's close button: while a download runs, ask first;
        stopping keeps what arrived for Resume."""
        if self.downloader.busy:
            answer = QMessageBox.question(
                self,
                "Stop the download?",
                "Stop the download? What has arrived is kept, and Download resumes it.",
            )
            if answer != QMessageBox.Yes:
                return
            self.downloader.cancel()
        super().reject()
