// A stand-in for the NVIDIA driver's libcuda.so.1, for the zhbot-gpu-probe test: the few driver
// API entry points the probe calls, with answers set through the environment:
//   FAKE_CUDA_INIT     cuInit's result (default 0; 100 = CUDA_ERROR_NO_DEVICE)
//   FAKE_CUDA_DEVICES  how many GPUs (default 1)
//   FAKE_CUDA_VERSION  the driver's CUDA version as the API gives it (default 12040)
#include <cstdlib>
#include <cstring>

namespace {
int env(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}
}  // namespace

extern "C" {
int cuInit(unsigned) { return env("FAKE_CUDA_INIT", 0); }
int cuDriverGetVersion(int* v) {
  *v = env("FAKE_CUDA_VERSION", 12040);
  return 0;
}
int cuDeviceGetCount(int* n) {
  *n = env("FAKE_CUDA_DEVICES", 1);
  return 0;
}
int cuDeviceGet(int* device, int ordinal) {
  *device = ordinal;
  return 0;
}
int cuDeviceGetName(char* name, int len, int) {
  std::strncpy(name, "Fake GPU", static_cast<std::size_t>(len));
  return 0;
}
int cuDeviceGetAttribute(int* value, int attribute, int) {
  *value = attribute == 75 ? 9 : 0;  // compute capability 9.0
  return 0;
}
int cuGetErrorName(int code, const char** name) {
  *name = code == 100 ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN";
  return 0;
}
}
