#!/usr/bin/env bash
# Builds the browser board: the engine as WebAssembly (web/, a workspace
# member) and the page (web/www/), written to target/web/ with index.html at
# its root. Installs Debian's WebAssembly toolchain when it is missing (the
# rustup toolchain here has no wasm32 standard library). Serve the result
# with scripts/web/serve.py (docs/web.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "web build: $*" >&2; exit 1; }
# Each step says what it does, on stderr: the engine's build takes minutes
# from scratch, and a silent script looks stuck.
say() { echo "web build: $*" >&2; }
start=$SECONDS

# Debian's rustc-web ships the standard library's source, which
# -Zbuild-std compiles for wasm32-unknown-unknown; lld gives wasm-ld.
if [ ! -x /usr/bin/rustc ] || [ ! -x /usr/bin/cargo ] || ! command -v wasm-ld >/dev/null 2>&1 \
    || [ ! -f /usr/lib/rustlib/src/rust/library/Cargo.lock ]; then
    echo "web build: installing rustc-web cargo-web rust-web-src lld" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        rustc-web cargo-web rust-web-src lld; } >/dev/null 2>&1 \
        || fail "cannot install Debian's rustc-web, cargo-web, rust-web-src and lld (run as root with apt-get reachable)"
fi

# A 32 MB stack, as the native search thread has 64 MB for its recursion.
# simd128 (every current browser has it) selects the engine's vector kernels
# (src/rules/lanes.rs).
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1
export RUSTFLAGS="-C linker=wasm-ld -C link-arg=-zstack-size=33554432 -C target-feature=+simd128"
say "compiling the engine to WebAssembly (cargo --profile web, target/wasm; minutes from scratch, seconds when up to date)"
/usr/bin/cargo build --profile web --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort -p mollett-web --target-dir target/wasm \
    || fail "cargo build of web/ for wasm32-unknown-unknown failed (messages above)"

say "engine built in $((SECONDS - start)) s: $(du -h target/wasm/wasm32-unknown-unknown/web/mollett_web.wasm | cut -f1)"
out=target/web
say "writing the site to $out (web/www and mollett.wasm)"
rm -rf "$out"
mkdir -p "$out"
cp -r web/www/. "$out"/
cp target/wasm/wasm32-unknown-unknown/web/mollett_web.wasm "$out"/mollett.wasm
# The engine's data files, left out of mollett.wasm (feature data-on-demand,
# src/engine/data.rs) and fetched by the page when first needed; the names
# engine.js's FILES and scripts/web/datafiles.mjs give them. The sources
# are the files the native build embeds, read from the lines that embed them.
embedded() { # FILE STATIC-OR-VARIANT: the path include_bytes! names after it
    local name
    name=$(grep -A2 "$2" "$1" | grep -o 'include_bytes!("[^"]*")' | head -1 | sed 's/include_bytes!("\(.*\)")/\1/')
    [ -n "$name" ] || fail "no include_bytes! after '$2' in $1"
    realpath "$(dirname "$1")/$name"
}
mkdir -p "$out"/data
weights=src/engine/eval/pattern/weights.rs books=src/protocol/book/mod.rs
cp "$(embedded $weights 'static EMBEDDED_WEIGHTS')" "$out"/data/modern-weights.bin
cp "$(embedded $weights 'static EMBEDDED_CLASSIC_WEIGHTS')" "$out"/data/classic-weights.bin
cp "$(embedded $books '(Variant::Modern, include_bytes')" "$out"/data/modern-book.bin
cp "$(embedded $books 'Variant::Classic,$')" "$out"/data/classic-book.bin
say "hashing the assets' names and compressing them (brotli, gzip; kept in target/web-cache)"
python3 scripts/web/assets.py "$out" || fail "scripts/web/assets.py failed (messages above)"
echo "web build: $out/index.html ($(du -sh "$out" | cut -f1) in $out)" >&2
