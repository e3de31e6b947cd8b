#include "engine/nn/gpu_report.h"

#include <gtest/gtest.h>

#include <string>

namespace zh {
namespace {

TEST(GpuReport, NamesTheGpuFromNvidiaSmi) {
  EXPECT_EQ(format_gpu_line("NVIDIA H100 80GB HBM3, 9.0, 81559 MiB"),
            "NVIDIA H100 80GB HBM3, compute capability 9.0, 81559 MiB");
  EXPECT_EQ(format_gpu_line("Tesla T4, 7.5, 15360 MiB\n"),
            "Tesla T4, compute capability 7.5, 15360 MiB");
  EXPECT_FALSE(format_gpu_line(""));
  EXPECT_FALSE(format_gpu_line("No devices were found"));
  EXPECT_FALSE(format_gpu_line("Tesla T4, , 15360 MiB"));
}

TEST(GpuReport, TheMissingGpuHintSaysWhatToCheck) {
  const std::string hint = missing_gpu_hint();
  for (const char* what : {"nvidia-smi", "--gpus", "compose.gpu.yaml", "CUDA build"})
    EXPECT_NE(hint.find(what), std::string::npos) << what;
}

TEST(GpuReport, DescribesEvenWithoutNvidiaSmi) {
  // This machine may or may not have nvidia-smi: either way the answer names the GPU index.
  EXPECT_EQ(describe_gpu(0).rfind("GPU 0", 0), 0u);
}

}  // namespace
}  // namespace zh
