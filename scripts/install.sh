#!/usr/bin/env bash
# Installs the plugin host from this checkout, like any command-line tool:
#
#   PREFIX/bin/host, and PREFIX/bin/patchbay, a second name for it (a
#                                 symlink) that host(1), the DNS lookup tool, cannot hide
#   PREFIX/lib/patchbay/          libHostHTTP.so, patchbay-worker (when the
#                                 build has it), the libraries these need
#                                 and the toolchain's Swift runtime set
#   PREFIX/lib/patchbay/plugins/  the bundled plugins
#   PREFIX/include/patchbay/      patchbay_plugin.h, for `host new-plugin --language c`
#   PREFIX/share/patchbay/        the example C plugin new-plugin starts from
#   PREFIX/share/bash-completion/completions/host, PREFIX/share/zsh/site-functions/_host,
#   PREFIX/share/fish/vendor_completions.d/host.fish
#
# The host finds each piece beside itself first, then under ../lib/patchbay/
# (InstalledLayout), and every binary's RUNPATH points into PREFIX/lib/patchbay,
# so the installed host needs neither the toolchain nor LD_LIBRARY_PATH. The
# runtime libraries are the ones ldd resolves into the toolchain, and every
# library of that runtime's directory, for Swift plugins: not a list kept by
# hand. Every file written is recorded in
# PREFIX/lib/patchbay/install-manifest, which --uninstall reads to remove
# exactly those files (and the folders it created, once empty).
#
# Usage: scripts/install.sh [--prefix DIR]               release build, then install (default prefix ~/.local)
#        scripts/install.sh [--prefix DIR] --uninstall   remove what an install there wrote
#        scripts/install.sh --build-dir DIR [--prefix DIR]
#                                                        install from an existing build (e.g. .build/release)
#        scripts/install.sh --force ...                  replace a PREFIX/bin/host this script did not install
#
# Needs patchelf (Debian: apt-get install patchelf) and, to build, swift.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

prefix="$HOME/.local"
build_dir=
uninstall=0
force=0
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || { echo "install.sh: error: --prefix needs a directory, e.g. --prefix ~/.local" >&2; exit 64; }; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --build-dir) [ $# -ge 2 ] || { echo "install.sh: error: --build-dir needs a directory, e.g. --build-dir .build/release" >&2; exit 64; }; build_dir=$2; shift 2 ;;
        --uninstall) uninstall=1; shift ;;
        --force) force=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: error: unknown argument '$1'; see scripts/install.sh --help" >&2; exit 64 ;;
    esac
done
[ -n "$prefix" ] || { echo "install.sh: error: --prefix is empty; name a directory, e.g. --prefix ~/.local" >&2; exit 64; }
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd -P)
lib="$prefix/lib/patchbay"
manifest="$lib/install-manifest"

# uninstall: removes every file the manifest lists, then the folders it
# lists, deepest first, when they are empty.
uninstall() {
    if [ ! -f "$manifest" ]; then
        echo "install.sh: error: nothing was installed in $prefix ($manifest is missing); give the --prefix you installed with" >&2
        exit 1
    fi
    local kind path entries
    entries=$(cat "$manifest")
    while IFS=$'\t' read -r kind path; do
        [ "$kind" = file ] && rm -f "$prefix/$path"
    done <<< "$entries"
    while IFS=$'\t' read -r kind path; do
        [ "$kind" = dir ] && { rmdir "$prefix/$path" 2>/dev/null || true; }
    done < <(printf '%s\n' "$entries" | sort -r -t$'\t' -k2)
    echo "removed Patchbay's host from $prefix"
}

if [ "$uninstall" = 1 ]; then
    uninstall
    exit 0
fi

command -v patchelf >/dev/null 2>&1 || {
    echo "install.sh: error: patchelf is not installed; it sets where the installed host finds its libraries. Install it (Debian: apt-get install patchelf) and run this again" >&2
    exit 1
}

# The build to install from.
if [ -z "$build_dir" ]; then
    command -v swift >/dev/null 2>&1 || { echo "install.sh: error: swift is not on the PATH; install Swift 6.3 (https://swift.org/install) or add its usr/bin to PATH" >&2; exit 1; }
    echo "building in release (swift build -c release)..."
    (cd "$repo" && swift build -c release)
    build_dir="$repo/.build/release"
fi
build_dir=$(cd "$build_dir" && pwd -P)
for required in host libHostHTTP.so; do
    [ -f "$build_dir/$required" ] || { echo "install.sh: error: $build_dir has no $required; build it with \`swift build -c release\` in $repo" >&2; exit 1; }
done
plugins=("$build_dir"/lib*Plugin.so)
[ -e "${plugins[0]}" ] || { echo "install.sh: error: $build_dir has no bundled plugins (lib*Plugin.so); build them with \`swift build -c release\` in $repo" >&2; exit 1; }
worker=
[ -f "$build_dir/patchbay-worker" ] && worker="$build_dir/patchbay-worker"

# A host (or patchbay) this script did not install is someone else's: never overwrite it silently.
for name in host patchbay; do
    if [ -e "$prefix/bin/$name" ] || [ -L "$prefix/bin/$name" ]; then
        if ! { [ -f "$manifest" ] && grep -q "^file"$'\t'"bin/$name\$" "$manifest"; } && [ "$force" != 1 ]; then
            what=
            if [ "$name" = host ]; then what=" (is it host(1), the DNS lookup tool?)"; fi
            echo "install.sh: error: $prefix/bin/$name exists and was not installed by this script$what; pass --force to replace it, or choose another --prefix" >&2
            exit 1
        fi
    fi
done

# A previous install's files go first, so nothing stale stays behind.
[ -f "$manifest" ] && uninstall >/dev/null

files=()
dirs=()
# make_dir DIR (relative to the prefix): creates it, recording each folder that did not exist.
make_dir() {
    local path=$1 walk=
    local IFS=/
    for part in $path; do
        walk=${walk:+$walk/}$part
        if [ ! -d "$prefix/$walk" ]; then
            mkdir "$prefix/$walk"
            dirs+=("$walk")
        fi
    done
}
# put SOURCE DEST MODE (DEST relative to the prefix)
put() {
    make_dir "$(dirname "$2")"
    install -m "$3" "$1" "$prefix/$2"
    files+=("$2")
}

put "$build_dir/host" bin/host 0755
# The same executable by a name no system command has.
rm -f "$prefix/bin/patchbay"
ln -s host "$prefix/bin/patchbay"
files+=(bin/patchbay)
put "$build_dir/libHostHTTP.so" lib/patchbay/libHostHTTP.so 0644
[ -n "$worker" ] && put "$worker" lib/patchbay/patchbay-worker 0755
for plugin in "${plugins[@]}"; do
    put "$plugin" "lib/patchbay/plugins/$(basename "$plugin")" 0644
done
put "$repo/Sources/PluginABI/include/patchbay_plugin.h" include/patchbay/patchbay_plugin.h 0644
put "$repo/Examples/CPlugin/coinbase_plugin.c" share/patchbay/CPlugin/coinbase_plugin.c 0644

# The Swift runtime libraries: whatever ldd resolves for the binaries that
# the system's loader would not find by itself (not in `ldconfig -p`): the
# toolchain's, wherever it is installed.
binaries=("$prefix/bin/host" "$lib/libHostHTTP.so" "$lib"/plugins/*.so)
[ -n "$worker" ] && binaries+=("$lib/patchbay-worker")
system=$(ldconfig -p | awk '$NF ~ /^\// { print $NF }' | xargs realpath -m | sort -u)
runtime=$(
    for binary in "${binaries[@]}"; do ldd "$binary"; done |
        awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
        while read -r library; do
            grep -q -x -F "$(realpath -m "$library")" <<< "$system" || echo "$library"
        done
)
# With them, the toolchain's whole runtime set: every library in the
# directory the host's libswiftCore.so comes from (usr/lib/swift/linux), so
# that a plugin built with the same toolchain finds whatever of it it links
# (libFoundation.so, libswiftObservation.so, a debug build's
# libswiftSwiftOnoneSupport.so), in-process and in a worker, whose root
# holds this folder and not the toolchain.
toolchain=$(ldd "$prefix/bin/host" | awk '$1 == "libswiftCore.so" && $3 ~ /^\// { print $3 }')
if [ -n "$toolchain" ]; then
    runtime=$(printf '%s\n' $runtime "$(dirname "$toolchain")"/lib*.so | sort -u)
fi
for library in $runtime; do
    case $library in "$prefix"/*) continue ;; esac
    [ -e "$prefix/lib/patchbay/$(basename "$library")" ] && continue
    put "$library" "lib/patchbay/$(basename "$library")" 0644
done

# RUNPATHs into the prefix, and nowhere else (not the build's or the
# toolchain's). The host and its worker load a plugin or the HTTP library
# through /proc/self/fd/N, the descriptor they checked, so `$ORIGIN` in
# those would name /proc/self/fd: everything but the host gets the
# prefix's absolute path.
patchelf --set-rpath '$ORIGIN/../lib/patchbay' "$prefix/bin/host"
for path in "${files[@]}"; do
    case $path in
        lib/patchbay/*) patchelf --set-rpath "$lib" "$prefix/$path" ;;
    esac
done

# Shell completions, as argument-parser writes them.
for shell in bash zsh fish; do
    case $shell in
        bash) dest=share/bash-completion/completions/host ;;
        zsh) dest=share/zsh/site-functions/_host ;;
        fish) dest=share/fish/vendor_completions.d/host.fish ;;
    esac
    make_dir "$(dirname "$dest")"
    env -i PATH=/usr/bin:/bin "$prefix/bin/host" --generate-completion-script "$shell" > "$prefix/$dest"
    files+=("$dest")
done

files+=(lib/patchbay/install-manifest)
{
    for path in "${files[@]}"; do printf 'file\t%s\n' "$path"; done
    for path in "${dirs[@]}"; do printf 'dir\t%s\n' "$path"; done
} > "$manifest"

echo "installed Patchbay's host into $prefix (${#files[@]} files; scripts/install.sh --prefix $prefix --uninstall removes them)"
# host(1), the DNS lookup tool, has the same name: say which one each name
# finds. `before` is the first other host ahead of PREFIX/bin on the PATH
# (any, when PREFIX/bin is not on it), `after` the first behind it.
on_path=0 seen=0 before= after=
IFS=: read -r -a path_dirs <<< "$PATH"
for dir in "${path_dirs[@]}"; do
    [ -n "$dir" ] || continue
    if [ "$dir" -ef "$prefix/bin" ]; then on_path=1 seen=1; continue; fi
    [ -f "$dir/host" ] && [ -x "$dir/host" ] || continue
    if [ "$seen" = 0 ]; then before=${before:-$dir/host}; else after=${after:-$dir/host}; fi
done
if [ "$on_path" = 1 ]; then
    if [ -n "$before" ]; then
        echo "note: \`host\` on your PATH is $before (host(1), the DNS lookup tool?), which comes before $prefix/bin; run this one as patchbay or $prefix/bin/host, or put $prefix/bin first in PATH"
    elif [ -n "$after" ]; then
        echo "note: $prefix/bin/host now comes before $after (the DNS lookup tool); call that one as $after, or this one as patchbay"
    fi
else
    echo "note: $prefix/bin is not on your PATH; add it with: export PATH=\"$prefix/bin:\$PATH\""
    [ -z "$before" ] || echo "note: then $prefix/bin/host comes before $before (the DNS lookup tool); call that one as $before, or this one as patchbay"
fi
