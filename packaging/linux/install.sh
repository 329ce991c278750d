#!/bin/sh
# Install MDHearts for this user from the unpacked Linux archive, or remove it again.
#
#   ./install.sh                      install under ~/.local
#   ./install.sh --prefix DIR         install under DIR
#   ./install.sh --uninstall [--prefix DIR]  remove it (the installed copy of this script,
#                                            PREFIX/lib/mdhearts/install.sh, knows its PREFIX)
#
# What goes where (PREFIX is ~/.local unless --prefix says otherwise):
#   PREFIX/lib/mdhearts/                          the program folder (and a copy of this script)
#   PREFIX/bin/mdhearts                           a link to the program
#   PREFIX/share/applications/mdhearts.desktop    the menu entry, pointing at the program
#   PREFIX/share/icons/hicolor/512x512/apps/mdhearts.png
# Nothing needs root. The game keeps the player's settings and saves in the user's own
# folders, which removing the program leaves alone.
set -eu

NAME=mdhearts
ICON_SIZE=512x512

usage() {
    echo "usage: $0 [--prefix DIR] [--uninstall]"
    echo "Installs MDHearts for this user under DIR (default ~/.local), or removes it."
}

fail() {
    echo "install.sh: $*" >&2
    exit 1
}

# Print a word quoted for the shell.
quote() {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

prefix=
prefix_given=no
uninstall=no
while [ $# -gt 0 ]; do
    case $1 in
        --prefix)
            [ $# -ge 2 ] || { usage >&2; fail "--prefix needs a folder"; }
            prefix=$2
            prefix_given=yes
            shift 2
            ;;
        --prefix=*)
            prefix=${1#--prefix=}
            prefix_given=yes
            shift
            ;;
        --uninstall)
            uninstall=yes
            shift
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        *)
            usage >&2
            echo "install.sh: unknown option: $1" >&2
            exit 2
            ;;
    esac
done

# The archive's own files are beside this script; so is the marker file in an installed copy.
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

if [ "$prefix_given" = yes ]; then
    [ -n "$prefix" ] || fail "--prefix needs a folder, not an empty name"
else
    if [ "$uninstall" = yes ] && [ -f "$here/.installed-by-mdhearts" ]; then
        prefix=$(dirname -- "$(dirname -- "$here")")  # run from PREFIX/lib/mdhearts
    else
        [ -n "${HOME:-}" ] || fail "HOME is not set; say where to install with --prefix DIR"
        prefix=$HOME/.local
    fi
fi
case $prefix in
    /*) ;;
    *) prefix=$(pwd)/$prefix ;;
esac
newline='
'
case $prefix in
    *"$newline"* | *"	"*) fail "the folder name has a line break or tab: choose another prefix" ;;
esac
prefix=${prefix%/}
[ -n "$prefix" ] || fail "refusing to install into /: choose a folder with --prefix DIR"

libdir=$prefix/lib/$NAME
bindir=$prefix/bin
appdir=$prefix/share/applications
icondir=$prefix/share/icons/hicolor/$ICON_SIZE/apps
program=$libdir/$NAME
link=$bindir/$NAME
desktop=$appdir/$NAME.desktop
icon=$icondir/$NAME.png
# A file in the program folder that says this script put it there (and may remove it).
marker=$libdir/.installed-by-mdhearts

refresh_menus() {
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$appdir" 2>/dev/null || true
    fi
}

if [ "$uninstall" = yes ]; then
    found=no
    if [ -L "$link" ] && [ "$(readlink "$link")" = "$program" ]; then
        rm -f "$link"
        found=yes
    fi
    if [ -f "$desktop" ] && grep -q "^Name=MDHearts$" "$desktop"; then
        rm -f "$desktop"
        found=yes
    fi
    if [ -f "$icon" ]; then
        rm -f "$icon"
        found=yes
    fi
    if [ -d "$libdir" ]; then
        [ -f "$marker" ] || fail "$libdir was not made by this script; leaving it alone"
        rm -rf "$libdir"
        found=yes
    fi
    [ "$found" = yes ] || fail "MDHearts is not installed under $prefix"
    refresh_menus
    echo "removed MDHearts from $prefix"
    exit 0
fi

source_dir=$here/$NAME
[ -f "$source_dir/$NAME" ] && [ -x "$source_dir/$NAME" ] && [ -f "$here/$NAME.desktop" ] &&
    [ -f "$here/$NAME.png" ] ||
    fail "run this script from the unpacked MDHearts archive (missing $NAME/$NAME, $NAME.desktop or $NAME.png beside it)"
[ "$source_dir" != "$libdir" ] || fail "MDHearts is already installed in $libdir"

# Never overwrite what this script did not make.
if [ -e "$libdir" ] && [ ! -f "$marker" ]; then
    fail "$libdir exists and was not made by this script; remove it or choose another --prefix"
fi
if { [ -e "$link" ] || [ -L "$link" ]; } && [ ! -L "$link" ]; then
    fail "$link exists and is not a link to MDHearts; remove it or choose another --prefix"
fi

mkdir -p "$prefix/lib" "$bindir" "$appdir" "$icondir" 2>/dev/null ||
    fail "cannot create folders under $prefix; choose a folder you can write with --prefix DIR"

# Copy next to the old version, then swap, so an interrupted copy leaves the old one working.
staging=$prefix/lib/.$NAME.installing.$$
old=$prefix/lib/.$NAME.old.$$
trap 'rm -rf "$staging" "$old"' EXIT
trap 'exit 1' HUP INT TERM
rm -rf "$staging"
cp -R "$source_dir" "$staging"
cp "$0" "$staging/install.sh"
chmod 755 "$staging/install.sh"
: >"$staging/.installed-by-mdhearts"
if [ -e "$libdir" ]; then
    mv "$libdir" "$old"
fi
mv "$staging" "$libdir"
rm -rf "$old"

ln -sf "$program" "$link"
cp "$here/$NAME.png" "$icon"

# A desktop file's Exec= is a command line: a path with characters other than these is quoted,
# with ", `, $ and \ escaped inside the quotes; then, as in every value, \ is written \\ and a
# lone % is written %%.
case $program in
    *[!A-Za-z0-9_./+@-]*)
        exec_value=\"$(printf '%s' "$program" | sed -e 's/[\\"`$]/\\&/g')\"
        ;;
    *) exec_value=$program ;;
esac
exec_value=$(printf '%s' "$exec_value" | sed -e 's/\\/\\\\/g' -e 's/%/%%/g')
icon_value=$(printf '%s' "$icon" | sed -e 's/\\/\\\\/g')
temp_desktop=$appdir/.$NAME.desktop.$$
EXEC_VALUE=$exec_value ICON_VALUE=$icon_value awk '
    /^Exec=/ { print "Exec=" ENVIRON["EXEC_VALUE"]; next }
    /^Icon=/ { print "Icon=" ENVIRON["ICON_VALUE"]; next }
    { print }
' "$here/$NAME.desktop" >"$temp_desktop"
mv "$temp_desktop" "$desktop"
refresh_menus

echo "installed MDHearts in $libdir"
echo "  menu entry: $desktop"
echo "  command:    $link"
case :${PATH:-}: in
    *:"$bindir":*) ;;
    *) echo "  ($bindir is not on PATH: start the game from the menu or with $program)" ;;
esac
echo "to remove it: $(quote "$libdir/install.sh") --uninstall --prefix $(quote "$prefix")"
