// zhbot-gpu-probe: can this process use an NVIDIA GPU through CUDA? The CUDA image's entrypoint
// runs it before zhbot, so that a container without a usable GPU says in one line what is
// missing instead of failing inside LibTorch (or in the loader, before zhbot's first line).
//
// It opens the driver's library (libcuda.so.1) itself with dlopen and asks the CUDA driver API
// directly: no LibTorch, no CUDA headers, an answer in milliseconds. Exit 0 with one line naming
// the GPUs and the driver; exit 1 with one line naming what is missing: the driver library (no
// NVIDIA Container Toolkit, or a container started without a GPU), a device the driver cannot
// open (cuInit's error), no device, or a driver older than the CUDA the image was built for.
//   zhbot-gpu-probe [--library PATH] [--min-cuda MAJOR.MINOR]
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// The few driver API entry points used, with the types of cuda.h (CUresult and CUdevice are
// ints; these symbols have kept their names and signatures since CUDA 2).
using CuInit = int (*)(unsigned);
using CuDriverGetVersion = int (*)(int*);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetName = int (*)(char*, int, int);
using CuDeviceGetAttribute = int (*)(int*, int, int);
using CuGetErrorName = int (*)(int, const char**);
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;

struct Args {
  std::string library = "libcuda.so.1";
  int min_cuda = 12000;  // the driver's CUDA version as the API reports it: 1000*major + 10*minor
};

int fail(const std::string& line) {
  std::printf("%s\n", line.c_str());
  return 1;
}

bool parse_version(const char* text, int& out) {
  int major = 0, minor = 0;
  if (std::sscanf(text, "%d.%d", &major, &minor) != 2 || major < 1 || minor < 0) return false;
  out = major * 1000 + minor * 10;
  return true;
}

std::string version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

template <class F>
F symbol(void* lib, const char* name) {
  return reinterpret_cast<F>(dlsym(lib, name));
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--library" && i + 1 < argc) {
      args.library = argv[++i];
    } else if (a == "--min-cuda" && i + 1 < argc && parse_version(argv[i + 1], args.min_cuda)) {
      ++i;
    } else {
      std::fprintf(stderr, "usage: zhbot-gpu-probe [--library PATH] [--min-cuda MAJOR.MINOR]\n");
      return 2;
    }
  }

  void* lib = dlopen(args.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr)
    return fail("no NVIDIA driver in reach: " + args.library + " not found (" + dlerror() + ")");
  const auto cu_init = symbol<CuInit>(lib, "cuInit");
  const auto driver_version = symbol<CuDriverGetVersion>(lib, "cuDriverGetVersion");
  const auto device_count = symbol<CuDeviceGetCount>(lib, "cuDeviceGetCount");
  const auto device_get = symbol<CuDeviceGet>(lib, "cuDeviceGet");
  const auto device_name = symbol<CuDeviceGetName>(lib, "cuDeviceGetName");
  const auto attribute = symbol<CuDeviceGetAttribute>(lib, "cuDeviceGetAttribute");
  const auto error_name = symbol<CuGetErrorName>(lib, "cuGetErrorName");
  if (!cu_init || !driver_version || !device_count || !device_get || !device_name || !attribute)
    return fail(args.library + " is not an NVIDIA driver library (a CUDA entry point is missing)");

  auto describe = [&](int code) {
    const char* name = nullptr;
    if (error_name == nullptr || error_name(code, &name) != 0 || name == nullptr)
      return "CUDA error " + std::to_string(code);
    return std::string(name) + " (" + std::to_string(code) + ")";
  };

  int version = 0;
  if (driver_version(&version) != 0 || version == 0)
    return fail("the NVIDIA driver reports no CUDA version");
  if (const int rc = cu_init(0); rc != 0)
    return fail("the NVIDIA driver (CUDA " + version_text(version) +
                ") cannot open a GPU: cuInit failed with " + describe(rc));
  int count = 0;
  if (const int rc = device_count(&count); rc != 0)
    return fail("the NVIDIA driver cannot count the GPUs: " + describe(rc));
  if (count == 0) return fail("the NVIDIA driver sees no GPU");
  if (version < args.min_cuda)
    return fail("the NVIDIA driver supports CUDA " + version_text(version) + ", older than the " +
                version_text(args.min_cuda) + " this image needs: update the host's driver");

  std::string gpus;
  for (int i = 0; i < count; ++i) {
    int device = 0, major = 0, minor = 0;
    char name[256] = "?";
    if (device_get(&device, i) == 0) {
      device_name(name, static_cast<int>(sizeof name), device);
      attribute(&major, kAttrComputeCapabilityMajor, device);
      attribute(&minor, kAttrComputeCapabilityMinor, device);
    }
    gpus += (i ? ", " : "") + std::string("cuda:") + std::to_string(i) + " " + name + " (sm_" +
            std::to_string(major) + std::to_string(minor) + ")";
  }
  std::printf("%d GPU(s): %s; driver CUDA %s\n", count, gpus.c_str(),
              version_text(version).c_str());
  return 0;
}
