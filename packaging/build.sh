#!/usr/bin/env bash
# Build the installable app folder with PyInstaller:
#   dist/translator-app/                 the app (translator-app, translator-train, resources/)
#   dist/translator-app-VERSION-linux-ARCH.tar.xz   that folder, the .desktop file and the
#                                        icon: what a user downloads
#   dist/size-report.txt                 the folder's size, its largest parts, the archive's
# The build log is build/pyinstaller.log; on failure its end is printed.
#
#   bash packaging/build.sh                     # CPU build of PyTorch (the default)
#   TORCH_VARIANT=cuda bash packaging/build.sh  # with the CUDA build of PyTorch
#   NO_ARCHIVE=1 bash packaging/build.sh        # the folder only (the smoke test's default)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --package
PY=.venv/bin/python
mkdir -p build dist
log=build/pyinstaller.log

# The PNG icon (the .desktop file, Windows/macOS icons) is rendered from the SVG.
QT_QPA_PLATFORM=offscreen $PY packaging/render_icon.py resources/icon.svg build/icon.png

echo "build: running PyInstaller (log: $log)"
start=$(date +%s)
if ! $PY -m PyInstaller packaging/translator.spec --noconfirm --clean \
        --distpath dist --workpath build/pyinstaller > "$log" 2>&1; then
    echo "build: PyInstaller failed; the end of $log:" >&2
    tail -n 60 "$log" >&2
    exit 1
fi
echo "build: PyInstaller took $(( $(date +%s) - start )) s"

app=dist/translator-app
# The symbol tables only debuggers read (the dynamic symbols the libraries are loaded by
# stay; the smoke test runs the result): libtorch_cpu.so 434 -> 345 MB, CTranslate2's
# extension 68 -> 1 MB, about 170 MB in all (measured on the 976 MB build; issue 49).
if command -v strip > /dev/null; then
    before=$(du -sm "$app" | cut -f1)
    # Not the libraries auditwheel vendored (numpy.libs/, pillow.libs/, ...): patchelf
    # rewrote their headers, and strip left numpy's OpenBLAS "not page-aligned" (the smoke
    # test caught it).
    find "$app/_internal" -type f \( -name "*.so" -o -name "*.so.*" \) \
        -not -path "*.libs/*" -print0 |
        xargs -0 -n 32 -P 2 strip --strip-unneeded 2>> "$log" ||
        echo "build: some libraries could not be stripped (see $log)"
    echo "build: stripped the libraries' symbol tables: $before -> $(du -sm "$app" | cut -f1) MB"
else
    echo "build: no strip program here; the libraries keep their symbol tables"
fi
# The trainer is the same executable started under another name (see the spec).
ln -sf translator-app "$app/translator-train"
install -m 644 build/icon.png "$app/translator-app.png"
install -m 644 packaging/translator-app.desktop "$app/translator-app.desktop"
install -m 755 packaging/install.sh "$app/install.sh"
$PY packaging/size_report.py "$app" | tee dist/size-report.txt

if [ -z "${NO_ARCHIVE:-}" ]; then
    version=$($PY -c "import importlib.metadata as m; print(m.version('translator-app'))")
    archive="dist/translator-app-$version-linux-$(uname -m).tar.xz"
    XZ_OPT="-6 -T0" tar -C dist -cJf "$archive" translator-app
    echo "download: $archive $(du -m "$archive" | cut -f1) MB (the folder: $(du -sm "$app" | cut -f1) MB)" |
        tee -a dist/size-report.txt
fi
