#!/usr/bin/env bash
# Install the unpacked app for the current user: a `translator-app` link in ~/.local/bin,
# the menu entry and the icon. The app stays where it was unpacked and never writes
# into its folder (settings, history and fine-tuned models go to the user's folders).
#   ./install.sh            install
#   ./install.sh --remove   undo it
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$HOME/.local/bin"
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/256x256/apps"
if [ "${1:-}" = "--remove" ]; then
    rm -f "$bin/translator-app" "$bin/translator-train" "$apps/translator-app.desktop" \
        "$icons/translator-app.png"
    echo "removed the links and the menu entry; $here itself is left as it is"
    exit 0
fi
mkdir -p "$bin" "$apps" "$icons"
ln -sf "$here/translator-app" "$bin/translator-app"
ln -sf "$here/translator-train" "$bin/translator-train"
install -m 644 "$here/translator-app.png" "$icons/translator-app.png"
sed "s|^Exec=translator-app|Exec=$here/translator-app|" "$here/translator-app.desktop" \
    > "$apps/translator-app.desktop"
echo "installed: translator-app in $bin and in the applications menu"
