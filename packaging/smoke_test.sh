#!/usr/bin/env bash
# Build the app (packaging/build.sh) and check the built folder, not the sources:
#   1. `translator-app translate` turns a German sentence into the expected English, with
#      CTranslate2 (it converts the bundle into the user's cache);
#   2. the built `translator-train` fine-tunes the bundled model for a few steps on
#      tests/data (what the app's "Teach the model" runs) and writes a new bundle;
#   3. the window starts offscreen and exits 0 once its first translation is shown;
#   4. none of this wrote anything into the app folder (it is made read-only first).
# Any failure prints what is needed to see why (the build log's end, the command's
# output) and exits non-zero.  SKIP_BUILD=1 checks an existing dist/translator-app.
set -euo pipefail
cd "$(dirname "$0")/.."
app=dist/translator-app

if [ -z "${SKIP_BUILD:-}" ]; then
    NO_ARCHIVE="${NO_ARCHIVE-1}" bash packaging/build.sh
fi
fail() {
    echo "smoke test FAILED: $1" >&2
    [ -n "${2:-}" ] && { echo "--- output:" >&2; cat "$2" >&2; }
    [ -f build/pyinstaller.log ] && { echo "--- end of build/pyinstaller.log:" >&2; tail -n 40 build/pyinstaller.log >&2; }
    exit 1
}
for f in translator-app translator-train _internal/resources/model/config.json \
         _internal/resources/model/model.safetensors _internal/resources/model/spm.model; do
    [ -e "$app/$f" ] || fail "$app/$f is missing from the build"
done

# Everything the app writes goes to the user's folders: point them at a scratch
# directory and make the app folder read-only.
scratch=$(mktemp -d)
trap 'chmod -R u+w "$app"; rm -rf "$scratch"' EXIT
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" \
    XDG_CACHE_HOME="$scratch/cache" MPLCONFIGDIR="$scratch/mpl"
unset TRANSLATOR_MODEL TRANSLATOR_DATA_DIR TRANSLATOR_CONFIG_DIR TRANSLATOR_CACHE_DIR
mkdir -p "$HOME"
find "$app" -type f -exec md5sum {} + | sort > "$scratch/before.txt"
chmod -R a-w "$app"

# Only what the app imports: no development-only package in the folder (issue 49).
for dev in transformers tokenizers huggingface_hub hf_xet pytest sacremoses; do
    [ -z "$(find "$app/_internal" -maxdepth 1 -name "$dev" 2>/dev/null)" ] ||
        fail "the build holds the development-only package $dev"
done
out="$scratch/translate.txt"
start=$EPOCHREALTIME
"$app/translator-app" translate "Guten Morgen! Ich trinke gern Kaffee." > "$out" 2>&1 ||
    fail "translator-app translate exited with status $?" "$out"
echo "smoke: translate ($(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $start }") s): $(cat "$out")"
# The bundled model's translation, checked by its meaning-bearing words.
grep -qi "morning" "$out" && grep -qi "coffee" "$out" ||
    fail "unexpected translation (wanted 'morning' and 'coffee')" "$out"
# The dictionary: Ding and the German lemmatiser's tables are inside ("ging" -> "went").
"$app/translator-app" lookup ging > "$scratch/lookup.txt" 2>&1 ||
    fail "translator-app lookup exited with status $?" "$scratch/lookup.txt"
grep -q "went" "$scratch/lookup.txt" || fail "lookup did not find 'ging'" "$scratch/lookup.txt"
# The built app decodes with CTranslate2: it converted the bundle into the user's cache.
[ -n "$(find "$XDG_CACHE_HOME" -path '*ctranslate2*' -name model.bin 2>/dev/null)" ] ||
    fail "the built app did not decode with CTranslate2 (no converted model in the cache)" "$out"
echo "smoke: the built app decoded with CTranslate2"

# A Word document through the built app: its heading and bold survive (python-docx and
# odfpy are in the build).
.venv/bin/python - "$scratch/brief.docx" <<'PY'
import sys
from docx import Document
d = Document()
d.add_heading("Guten Morgen", level=1)
d.add_paragraph("Ich trinke gern ").add_run("Kaffee").bold = True
d.save(sys.argv[1])
PY
"$app/translator-app" translate --input "$scratch/brief.docx" > "$scratch/docx.txt" 2>&1 ||
    fail "translator-app translate --input brief.docx exited with status $?" "$scratch/docx.txt"
.venv/bin/python - "$scratch/brief.en.docx" > "$scratch/docx-check.txt" 2>&1 <<'PY' ||
import sys
from docx import Document
p = Document(sys.argv[1]).paragraphs
print([(x.style.name, x.text) for x in p], [r.text for r in p[1].runs if r.bold])
assert p[0].style.name == "Heading 1" and "morning" in p[0].text.lower()
assert any("coffee" in r.text.lower() for r in p[1].runs if r.bold)
PY
    fail "the translated .docx lost its heading or its bold word" "$scratch/docx-check.txt"
echo "smoke: a .docx translated with its heading and bold kept: $(cat "$scratch/docx-check.txt")"

"$app/translator-train" --help > "$scratch/train.txt" 2>&1 ||
    fail "translator-train --help exited with status $?" "$scratch/train.txt"
grep -q finetune "$scratch/train.txt" || fail "translator-train lacks finetune" "$scratch/train.txt"
"$app/translator-train" finetune --model "$app/_internal/resources/model" \
    --data tests/data/tiny_pairs.tsv --steps 3 --out "$scratch/finetuned" --name smoke \
    > "$scratch/finetune.txt" 2>&1 ||
    fail "translator-train finetune exited with status $?" "$scratch/finetune.txt"
[ -f "$scratch/finetuned/model.safetensors" ] ||
    fail "the fine-tune wrote no bundle" "$scratch/finetune.txt"
echo "smoke: the built trainer fine-tuned the bundled model into a new bundle"

QT_QPA_PLATFORM=offscreen timeout 180 "$app/translator-app" gui --text "Das Haus ist klein." \
    --exit-after-first-translation > "$scratch/gui.txt" 2>&1 ||
    fail "the window did not show a translation and exit 0 (status $?)" "$scratch/gui.txt"
echo "smoke: window started offscreen and showed its first translation"

find "$app" -type f -exec md5sum {} + | sort > "$scratch/after.txt"
diff "$scratch/before.txt" "$scratch/after.txt" > "$scratch/changed.txt" ||
    fail "the app changed its own folder" "$scratch/changed.txt"
[ -s "$XDG_CONFIG_HOME/translator-app/settings.json" ] ||
    fail "the window wrote no settings to the user's config folder"
echo "smoke test passed: $app"
