import ctypes, os, sys
lib = ctypes.CDLL(os.environ.get("NVRTC_LIB", "/tmp/modern-tools/nvrtc/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"))
src = open(sys.argv[1]).read().encode()
arch = sys.argv[2]
prog = ctypes.c_void_p()
assert lib.nvrtcCreateProgram(ctypes.byref(prog), src, b"k.cu", 0, None, None) == 0
opts = [("--gpu-architecture=compute_%s" % arch).encode(), b"-std=c++17"]
arr = (ctypes.c_char_p * len(opts))(*opts)
r = lib.nvrtcCompileProgram(prog, len(opts), arr)
n = ctypes.c_size_t(); lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
log = ctypes.create_string_buffer(n.value); lib.nvrtcGetProgramLog(prog, log)
sys.stderr.write(log.value.decode())
if r != 0: sys.exit(1)
lib.nvrtcGetPTXSize(prog, ctypes.byref(n)); buf = ctypes.create_string_buffer(n.value)
lib.nvrtcGetPTX(prog, buf); sys.stdout.write(buf.value.decode())
