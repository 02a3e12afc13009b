#!/usr/bin/env bash
# Create (or update) the project's virtual environment in .venv. Idempotent: a second
# run with nothing changed returns in a second.
#
#   bash scripts/setup.sh            # app + engine + trainer, CPU build of PyTorch 2.13
#   bash scripts/setup.sh --dev      # ... plus pytest, pytest-qt and ruff
#   bash scripts/setup.sh --package  # ... plus PyInstaller (packaging/build.sh)
#   TORCH_VARIANT=cuda bash scripts/setup.sh   # CUDA build of PyTorch 2.13 instead
#
# TORCH_INDEX_URL, when set, is the package index PyTorch is taken from (for a CPU build
# on a machine without a local wheel, point it at PyTorch's CPU index).
set -euo pipefail
cd "$(dirname "$0")/.."

gui=1  # the app's extra (PySide6, matplotlib): always here; `pip install -e .` alone omits it
dev=0
package=0
for arg in "$@"; do
    case "$arg" in
        --dev) dev=1 ;;
        --package) package=1 ;;
        --cuda) TORCH_VARIANT=cuda ;;
        *) echo "setup.sh: unknown option $arg (use --dev, --package, --cuda)" >&2; exit 2 ;;
    esac
done
variant="${TORCH_VARIANT:-cpu}"
torch_version="2.13.0"
python="${PYTHON:-python3}"

if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv"
    "$python" -m venv .venv
fi
pip=(.venv/bin/python -m pip --disable-pip-version-check -q)

stamp=".venv/.setup-stamp"
base="$(cat pyproject.toml | sha256sum | cut -c1-16) torch=$torch_version-$variant"
want="$base dev=$dev package=$package"
if [ -f "$stamp" ]; then
    read -r have_hash have_torch have_dev have_package < "$stamp" || true
    # An install with more extras also satisfies one with fewer.
    if [ "$have_hash $have_torch" = "$base" ] &&
        { [ "$dev" = 0 ] || [ "$have_dev" = "dev=1" ]; } &&
        { [ "$package" = 0 ] || [ "$have_package" = "package=1" ]; }; then
        exit 0
    fi
    # Keep the extras installed earlier.
    [ "$have_dev" = "dev=1" ] && dev=1
    [ "$have_package" = "package=1" ] && package=1
    want="$base dev=$dev package=$package"
fi

have_cuda=$(.venv/bin/python -c "import torch; print('cuda' if torch.version.cuda else 'cpu')" 2>/dev/null || echo none)
torch_args=("torch==$torch_version")
[ -n "${TORCH_INDEX_URL:-}" ] && torch_args+=(--index-url "$TORCH_INDEX_URL")
if [ "$variant" = "cuda" ]; then
    if [ "$have_cuda" != "cuda" ]; then
        echo "setup: installing the CUDA build of PyTorch $torch_version (several GB)"
        # The local CPU wheel would satisfy the pin; look only at the index.
        PIP_FIND_LINKS="" "${pip[@]}" install --force-reinstall --no-deps "${torch_args[@]}"
        PIP_FIND_LINKS="" "${pip[@]}" install "${torch_args[@]}"
    fi
elif [ "$have_cuda" = "none" ]; then
    echo "setup: installing PyTorch $torch_version (CPU build)"
    "${pip[@]}" install "${torch_args[@]}" 2>&1 | grep -v "^WARNING: Location" || true
    .venv/bin/python -c "import torch" || { echo "setup: PyTorch did not install" >&2; exit 1; }
fi

echo "setup: installing the project"
extras=()
[ "$gui" = 1 ] && extras+=(gui)
[ "$dev" = 1 ] && extras+=(dev)
[ "$package" = 1 ] && extras+=(package)
extra=""
[ "${#extras[@]}" -gt 0 ] && extra="[$(IFS=,; echo "${extras[*]}")]"
"${pip[@]}" install -e ".$extra" 2>&1 | grep -v "^WARNING: Location" || true
.venv/bin/python -c "import translator_app.core, sentencepiece, safetensors, pysbd, sacrebleu" \
    || { echo "setup: the project did not install" >&2; exit 1; }
echo "$want" > "$stamp"
# CPU training runs about twice as fast with jemalloc (trainer/allocator.py), which is a
# system library, not a Python package: say so once, at install time.
if [ "$(uname -s)" = Linux ] && ! ldconfig -p 2>/dev/null | grep -q libjemalloc; then
    echo "setup: for faster CPU training install jemalloc (Debian/Ubuntu: sudo apt install libjemalloc2)"
fi
# The window needs Qt's X11 (xcb) libraries from the system; a minimal Debian lacks some,
# and Qt's own message then names the wrong one. Name every missing one with its package.
if [ "$(uname -s)" = Linux ] && command -v ldconfig > /dev/null; then
    missing=()
    libs=$(ldconfig -p 2>/dev/null)
    for pair in libxcb-cursor.so.0:libxcb-cursor0 libxkbcommon-x11.so.0:libxkbcommon-x11-0 \
        libxcb-icccm.so.4:libxcb-icccm4 libxcb-keysyms.so.1:libxcb-keysyms1 \
        libxcb-image.so.0:libxcb-image0 libxcb-render-util.so.0:libxcb-render-util0 \
        libxcb-shape.so.0:libxcb-shape0 libxcb-xinerama.so.0:libxcb-xinerama0 \
        libEGL.so.1:libegl1 libfontconfig.so.1:libfontconfig1; do
        grep -q "${pair%%:*}" <<< "$libs" || missing+=("${pair##*:}")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "setup: the window needs these system libraries (translating on the command line does not):"
        echo "setup:   sudo apt install ${missing[*]}"
    fi
fi
