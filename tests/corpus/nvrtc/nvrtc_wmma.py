# nvrtc.py with the headers nvcuda::wmma needs: `python3 nvrtc_wmma.py file.cu 80 [-DSM80]`.
# <mma.h> is not one of NVRTC's built-in headers: it is taken from the nvidia-cuda-nvcc-cu12
# 12.9 wheel (include/crt/mma.h, which warns that it is internal), and the cuda_fp16.h /
# cuda_bf16.h it includes from a CUDA 12 header set (here numba-cuda's copy). Extra arguments
# are passed to NVRTC. Used for wmma.cu (sm_70 and sm_80) and igemm_sm80.cu.
# Where those live differs per machine: NVRTC_LIB names libnvrtc.so.12 and NVRTC_INCLUDES the
# include directories (separated by ':'); the defaults are where they were installed here.
import ctypes, os, sys
lib = ctypes.CDLL(os.environ.get("NVRTC_LIB", "/tmp/modern-tools/nvrtc/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"))
INCLUDES = os.environ.get("NVRTC_INCLUDES", ":".join([
    "/tmp/modern-tools/wheels/ex/nvidia/cuda_nvcc/include/crt",
    "/tmp/modern-tools/wheels/ex/nvidia/cuda_nvcc/include",
    "/tmp/venv-fresh/lib/python3.11/site-packages/numba_cuda/numba/cuda/include/12",
])).split(":")
src = open(sys.argv[1]).read().encode()
arch = sys.argv[2]
prog = ctypes.c_void_p()
assert lib.nvrtcCreateProgram(ctypes.byref(prog), src, b"k.cu", 0, None, None) == 0
opts = [*(x.encode() for x in sys.argv[3:]), *(("-I" + d).encode() for d in INCLUDES if d), ("--gpu-architecture=compute_%s" % arch).encode(), b"-std=c++17"]
arr = (ctypes.c_char_p * len(opts))(*opts)
r = lib.nvrtcCompileProgram(prog, len(opts), arr)
n = ctypes.c_size_t(); lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
log = ctypes.create_string_buffer(n.value); lib.nvrtcGetProgramLog(prog, log)
sys.stderr.write(log.value.decode())
if r != 0: sys.exit(1)
lib.nvrtcGetPTXSize(prog, ctypes.byref(n)); buf = ctypes.create_string_buffer(n.value)
lib.nvrtcGetPTX(prog, buf); sys.stdout.write(buf.value.decode())
