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
echo "web build: $out/index.html ($(du -sh "$out" | cut -f1) in $out)" >&2
