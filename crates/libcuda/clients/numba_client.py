"""numba-cuda on ptxvm's libcuda.so: saxpy, a shared-memory reduction and atomics.

Run by clients/run.sh with LD_LIBRARY_PATH pointing at the library. numba compiles each
kernel to PTX with libnvvm; without nvJitLink installed, the PTX reaches the driver through
cuLinkCreate/cuLinkAddData/cuLinkComplete and cuLibraryLoadData, and launches go through
cuLaunchKernelEx. Results are compared with numpy; exits non-zero on the first mismatch.
"""

import sys
import warnings

import numpy as np
from numba import cuda, float32, int32

warnings.simplefilter("ignore")  # occupancy and host-array performance notes
rng = np.random.default_rng(14)


def check(name, got, want, rtol=1e-5, atol=1e-6):
    if np.shape(got) != np.shape(want) or not np.allclose(got, want, rtol=rtol, atol=atol):
        print(f"FAIL numba {name}:\n got {got}\nwant {want}")
        sys.exit(1)
    print(f"ok   numba {name}")


dev = cuda.get_current_device()
assert "ptxvm" in dev.name.decode() if isinstance(dev.name, bytes) else "ptxvm" in dev.name, dev.name
assert dev.compute_capability == (8, 6), dev.compute_capability


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


n = 5000
x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
dx, dy = cuda.to_device(x), cuda.to_device(y)
dout = cuda.device_array_like(x)
saxpy[(n + 255) // 256, 256](np.float32(2.5), dx, dy, dout)
check("saxpy", dout.copy_to_host(), np.float32(2.5) * x + y)

TPB = 128


@cuda.jit
def block_sums(values, sums):
    tile = cuda.shared.array(TPB, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t] = values[i] if i < values.size else float32(0)
    cuda.syncthreads()
    stride = TPB // 2
    while stride > 0:
        if t < stride:
            tile[t] += tile[t + stride]
        cuda.syncthreads()
        stride //= 2
    if t == 0:
        sums[cuda.blockIdx.x] = tile[0]


v = rng.standard_normal(10000).astype(np.float32)
blocks = (v.size + TPB - 1) // TPB
sums = cuda.device_array(blocks, dtype=np.float32)
block_sums[blocks, TPB](cuda.to_device(v), sums)
padded = np.zeros(blocks * TPB, dtype=np.float32)
padded[: v.size] = v
check("shared-memory reduction", sums.copy_to_host(), padded.reshape(blocks, TPB).sum(axis=1), rtol=1e-4, atol=1e-4)


@cuda.jit
def histogram(data, bins):
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.add(bins, data[i] % bins.size, 1)


@cuda.jit
def atomic_max(data, result):
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.max(result, 0, data[i])


data = rng.integers(0, 1 << 20, size=20000).astype(np.int32)
bins = cuda.to_device(np.zeros(16, dtype=np.int32))
histogram[(data.size + 255) // 256, 256](cuda.to_device(data), bins)
check("atomic add histogram", bins.copy_to_host(), np.bincount(data % 16, minlength=16).astype(np.int32))
result = cuda.to_device(np.array([np.iinfo(np.int32).min], dtype=np.int32))
atomic_max[(data.size + 255) // 256, 256](cuda.to_device(data), result)
check("atomic max", result.copy_to_host(), np.array([data.max()], dtype=np.int32))

# Streams and events as numba drives them.
stream = cuda.stream()
start, end = cuda.event(), cuda.event()
start.record(stream)
d2 = cuda.to_device(x, stream=stream)
saxpy[(n + 255) // 256, 256, stream](np.float32(-1.0), d2, dy, dout)
end.record(stream)
end.synchronize()
check("saxpy on a stream", dout.copy_to_host(stream=stream), -x + y)
assert cuda.event_elapsed_time(start, end) >= 0
print("numba client: all checks passed")
