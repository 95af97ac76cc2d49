"""tinygrad on ptxvm's libcuda.so: elementwise, reduction and matmul, compared with numpy.

Run by clients/run.sh with DEV=CUDA:PTX (tinygrad renders PTX and hands it to the driver's
cuModuleLoadData), JIT=2 (no cuGraph*) and CUDA_PATH pointing at the library. Exits non-zero
on the first mismatch.
"""

import os
import sys

import numpy as np
from tinygrad import Device, Tensor, dtypes

assert Device.DEFAULT == "CUDA", f"tinygrad picked {Device.DEFAULT}, not CUDA"
rng = np.random.default_rng(14)


def check(name, got, want, rtol=1e-5, atol=1e-6):
    if got.shape != want.shape or not np.allclose(got, want, rtol=rtol, atol=atol):
        print(f"FAIL tinygrad {name}:\n got {got}\nwant {want}")
        sys.exit(1)
    print(f"ok   tinygrad {name} {tuple(got.shape)}")


a = rng.standard_normal((37, 53)).astype(np.float32)
b = rng.standard_normal((37, 53)).astype(np.float32)
c = rng.standard_normal((53, 29)).astype(np.float32)
ta, tb, tc = Tensor(a), Tensor(b), Tensor(c)

# Elementwise.
check("a*b+1", (ta * tb + 1).numpy(), a * b + 1)
check("relu(a)-b/2", (ta.relu() - tb / 2).numpy(), np.maximum(a, 0) - b / 2)
check("exp(a)", ta.exp().numpy(), np.exp(a), rtol=1e-5)
check("where(a>b)", (ta > tb).where(ta, tb).numpy(), np.where(a > b, a, b))
ia = rng.integers(-1000, 1000, size=(100,), dtype=np.int32)
check("int32 a*3-7", (Tensor(ia) * 3 - 7).numpy(), ia * 3 - 7)

# Reductions.
check("sum", ta.sum().numpy(), a.sum(dtype=np.float32), rtol=1e-4)
check("sum axis 0", ta.sum(axis=0).numpy(), a.sum(axis=0), rtol=1e-4, atol=1e-5)
check("max axis 1", ta.max(axis=1).numpy(), a.max(axis=1))
check("mean", ta.mean().numpy(), a.mean(), rtol=1e-4, atol=1e-6)
big = rng.standard_normal(70000).astype(np.float32)
check("sum of 70000", Tensor(big).sum().numpy(), big.sum(dtype=np.float64).astype(np.float32), rtol=1e-3, atol=1e-3)

# Matmul.
check("matmul 37x53 @ 53x29", (ta @ tc).numpy(), a @ c, rtol=1e-4, atol=1e-4)
m = rng.standard_normal((64, 64)).astype(np.float32)
check("matmul 64x64 squared", (Tensor(m) @ Tensor(m)).numpy(), m @ m, rtol=1e-4, atol=1e-3)
check("softmax", ta.softmax(axis=1).numpy(), np.exp(a) / np.exp(a).sum(axis=1, keepdims=True), rtol=1e-4, atol=1e-6)
print("tinygrad client: all checks passed")
