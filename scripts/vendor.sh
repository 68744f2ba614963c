#!/usr/bin/env bash
# Rebuilds vendor/ from the crates as published on crates.io plus the
# readable patches in vendor/patches/<crate>/, or with --check, fails if
# vendor/ differs from what it would make. vendor/crates lists each vendored
# crate and the published version it starts from; vendor/README.md says why
# each patch is there and when it goes.
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
case "${1:-}" in
--check) check=true ;;
"") ;;
*) echo "usage: scripts/vendor.sh [--check]" >&2; exit 2 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"

# The one extracted copy of a published crate (one index is configured).
extracted() {
    find "$registry" -mindepth 2 -maxdepth 2 -type d -name "$1-$2" | head -n 1
}

# A throwaway package that depends on exactly the listed versions, so that
# cargo itself downloads and checks each published crate. cargo downloads a
# crate only once its whole tree resolves: a dependency that is not
# published (the third field of vendor/crates) is stood in for, for this
# download only, by a published version renamed; nothing of it is kept.
mkdir -p "$work/fetch/src"
: >"$work/fetch/src/lib.rs"
{
    echo '[package]'
    echo 'name = "vendor-fetch"'
    echo 'version = "0.0.0"'
    echo 'edition = "2024"'
    echo '[dependencies]'
    while read -r name version _; do
        [[ -z "$name" || "$name" == \#* ]] && continue
        echo "$name = { version = \"=$version\", default-features = false }"
    done <vendor/crates
    echo '[patch.crates-io]'
} >"$work/fetch/Cargo.toml"
while read -r name version standin; do
    [[ -z "$name" || "$name" == \#* || -z "$standin" ]] && continue
    dep=${standin%%=*}
    have=${standin#*=}
    # The stand-in must be downloaded first, on its own.
    mkdir -p "$work/$dep/src"
    : >"$work/$dep/src/lib.rs"
    printf '[package]\nname = "standin"\nversion = "0.0.0"\nedition = "2024"\n[dependencies]\n%s = "=%s"\n' \
        "$dep" "$have" >"$work/$dep/Cargo.toml"
    cargo fetch --quiet --manifest-path "$work/$dep/Cargo.toml"
    cp -a "$(extracted "$dep" "$have")" "$work/standin-$dep"
    sed -i "0,/^version = \"$have\"/s//version = \"$version\"/" "$work/standin-$dep/Cargo.toml"
    echo "$dep = { path = \"$work/standin-$dep\" }" >>"$work/fetch/Cargo.toml"
done <vendor/crates
cargo fetch --quiet --manifest-path "$work/fetch/Cargo.toml"

registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"

made="$work/vendor"
mkdir -p "$made"
while read -r name version _; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    src=$(extracted "$name" "$version")
    [[ -n "$src" ]] || { echo "vendor: $name $version was not fetched" >&2; exit 1; }
    cp -a "$src" "$made/$name"
    # cargo's own marker that it finished extracting; not part of the crate.
    rm -f "$made/$name/.cargo-ok"
    for patch in vendor/patches/"$name"/*.patch; do
        [[ -e "$patch" ]] || continue
        patch --quiet --forward --no-backup-if-mismatch -p1 -d "$made/$name" <"$patch" || {
            echo "vendor: $patch does not apply to $name $version" >&2
            exit 1
        }
    done
done <vendor/crates

if $check; then
    status=0
    while read -r name _; do
        [[ -z "$name" || "$name" == \#* ]] && continue
        if ! diff -r "$made/$name" "vendor/$name" >"$work/diff"; then
            echo "vendor/$name is not the published crate plus vendor/patches/$name:" >&2
            head -n 40 "$work/diff" >&2
            status=1
        fi
    done <vendor/crates
    # No other crate may hide in vendor/.
    for dir in vendor/*/; do
        name=$(basename "$dir")
        [[ "$name" == patches ]] && continue
        grep -q "^$name " vendor/crates || { echo "vendor/$name is not listed in vendor/crates" >&2; status=1; }
    done
    [[ $status == 0 ]] && echo "vendor/ is the published crates plus vendor/patches"
    exit $status
fi

while read -r name _; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    rm -rf "vendor/$name"
    cp -a "$made/$name" "vendor/$name"
done <vendor/crates
echo "vendor/ rebuilt from the published crates and vendor/patches"
