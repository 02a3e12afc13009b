#!/usr/bin/env bash
# Create (or update) the project's virtual environment in .venv. Idempotent: a second
# run with nothing changed returns in a second.
#
#   bash scripts/setup.sh            # app + engine + trainer, CPU build of PyTorch 2.13
#   bash scripts/setup.sh --dev      # ... plus pytest, pytest-qt and ruff
#   TORCH_VARIANT=cuda bash scripts/setup.sh   # CUDA build of PyTorch 2.13 instead
#
# TORCH_INDEX_URL, when set, is the package index PyTorch is taken from (for a CPU build
# on a machine without a local wheel, point it at PyTorch's CPU index).
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
for arg in "$@"; do
    case "$arg" in
        --dev) dev=1 ;;
        --cuda) TORCH_VARIANT=cuda ;;
        *) echo "setup.sh: unknown option $arg (use --dev, --cuda)" >&2; exit 2 ;;
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
want="$(cat pyproject.toml | sha256sum | cut -c1-16) torch=$torch_version-$variant dev=$dev"
if [ -f "$stamp" ]; then
    have="$(cat "$stamp")"
    # A --dev install also satisfies a plain one.
    if [ "$have" = "$want" ] || { [ "$dev" = 0 ] && [ "$have" = "${want% dev=0} dev=1" ]; }; then
        exit 0
    fi
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
extra=""
[ "$dev" = 1 ] && extra="[dev]"
"${pip[@]}" install -e ".$extra" 2>&1 | grep -v "^WARNING: Location" || true
.venv/bin/python -c "import translator_app.core, sentencepiece, safetensors, pysbd, sacrebleu" \
    || { echo "setup: the project did not install" >&2; exit 1; }
echo "$want" > "$stamp"
