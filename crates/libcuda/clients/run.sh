#!/usr/bin/env bash
# Runs the Python clients of ptxvm's libcuda.so (tinygrad, numba-cuda) in a virtualenv.
# .ci/run calls this after `cargo test`. When PyPI cannot be reached the step is skipped with
# a message; any other failure (install, import, a wrong result) fails it.
#
# Environment: CARGO_TARGET_DIR as for cargo; PTXVM_CLIENT_VENV (default
# $TARGET/libcuda-clients-venv) is reused between runs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
start=$(date +%s)

target="${CARGO_TARGET_DIR:-target}"
# The library `cargo test` built (test profile, optimised); a no-op when it is up to date.
cargo test -p ptxvm-cuda --locked --no-run >/dev/null 2>&1 || cargo test -p ptxvm-cuda --locked --no-run
# cargo leaves a test build's cdylib in deps/ (it copies it up only for `cargo build`).
lib="$target/debug/deps/libcuda.so"
[ -f "$lib" ] || { echo "libcuda clients: $lib was not built" >&2; exit 1; }
libdir="$(mktemp -d)"
trap 'rm -rf "$libdir"' EXIT
cp "$lib" "$libdir/libcuda.so"
ln -s libcuda.so "$libdir/libcuda.so.1"

venv="${PTXVM_CLIENT_VENV:-$target/libcuda-clients-venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)
# numba-cuda compiles with libnvvm and asks nvrtc for the supported architectures; nvJitLink
# stays uninstalled so that numba hands its PTX to the driver (cuLink*).
if ! "${pip[@]}" install "tinygrad==0.14.0" "numpy>=1.26,<3" "numba-cuda==0.30.4" \
    "cuda-toolkit[nvvm,cudart,nvrtc]==13.5.0"; then
  if ! "$venv/bin/python" -c "import urllib.request; urllib.request.urlopen('https://pypi.org/simple/pip/', timeout=15)" 2>/dev/null; then
    echo "== libcuda Python clients SKIPPED: PyPI (https://pypi.org) is unreachable"
    exit 0
  fi
  echo "libcuda clients: pip install failed although PyPI is reachable" >&2
  exit 1
fi
echo "== libcuda Python clients: environment ready after $(( $(date +%s) - start )) s"

DEV=CUDA:PTX JIT=2 CUDA_PATH="$libdir/libcuda.so" LD_LIBRARY_PATH="$libdir" \
  "$venv/bin/python" crates/libcuda/clients/tinygrad_client.py
LD_LIBRARY_PATH="$libdir" "$venv/bin/python" crates/libcuda/clients/numba_client.py

echo "== libcuda Python clients passed in $(( $(date +%s) - start )) s"
