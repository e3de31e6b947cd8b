#include "engine/nn/model_metadata.h"

#include <gtest/gtest.h>

namespace zh {
namespace {

std::string error_of(std::string_view text) {
  try {
    parse_model_metadata(text);
  } catch (const ModelMetadataError& e) {
    return e.what();
  }
  return "";
}

TEST(ModelMetadata, AcceptsTheVersionZhbotEncodesInEveryWrittenForm) {
  EXPECT_EQ(
      parse_model_metadata(R"({"input_version":"1.0","architecture":"resnet"})").input_version,
      "1.0");
  EXPECT_EQ(parse_model_metadata(R"({"input_version":1.0})").input_version, "1.0");
  EXPECT_EQ(parse_model_metadata(R"({"input_version":1})").input_version, "1.0");
  EXPECT_EQ(parse_model_metadata(R"({"input_version":"1"})").input_version, "1");
  EXPECT_EQ(parse_model_metadata(R"({"training":{"steps":3}})").input_version, "");
  EXPECT_EQ(parse_model_metadata(R"({"training":{"steps":3}})").format, InputFormat::kV1);
  EXPECT_EQ(parse_model_metadata(R"({"input_version":"1.0"})").format, InputFormat::kV1);
  EXPECT_EQ(parse_model_metadata(R"({"input_version":"2.0"})").format, InputFormat::kV2);
  EXPECT_EQ(parse_model_metadata(R"({"input_version":2})").format, InputFormat::kV2);
}

TEST(ModelMetadata, RefusesOtherVersionsAndWhatIsNotAnObject) {
  EXPECT_NE(error_of(R"({"input_version":"3.0"})").find("input version 3.0"), std::string::npos);
  EXPECT_NE(error_of(R"({"input_version":2.5})").find("input version 2.5"), std::string::npos);
  EXPECT_NE(error_of(R"({"input_version":[1]})").find("input version [1]"), std::string::npos);
  EXPECT_NE(error_of("[1,2]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(error_of("{\"input_version\":").find("unreadable zhbot.json"), std::string::npos);
  EXPECT_NE(error_of("").find("unreadable zhbot.json"), std::string::npos);
}

TEST(ModelMetadata, WeightsAreFp32UnlessDeclaredInt8) {
  EXPECT_EQ(parse_model_metadata(R"({"input_version":"1.0"})").weights, "fp32");
  EXPECT_EQ(parse_model_metadata(R"({"weights":"int8"})").weights, "int8");
  EXPECT_EQ(parse_model_metadata(R"({"weights":"fp32"})").weights, "fp32");
  EXPECT_NE(error_of(R"({"weights":"int4"})").find("weights int4"), std::string::npos);
  EXPECT_NE(error_of(R"({"weights":8})").find("weights 8"), std::string::npos);
}

// training/quantize.py copies the source's metadata and adds name, weights and quantization.
TEST(ModelMetadata, AnInt8FileMatchesTheModelItWasMadeFrom) {
  const char* source = R"({"name":"net","architecture":"resnet-6x64","metrics":{"top1":0.41}})";
  EXPECT_TRUE(
      int8_made_from(R"({"name":"net-int8","architecture":"resnet-6x64","metrics":{"top1":0.41},)"
                     R"("weights":"int8","quantization":{"seed":1}})",
                     source));
  // Retrained: other metrics. A field the int8 file lacks, or one only it has, differs too.
  EXPECT_FALSE(int8_made_from(
      R"({"architecture":"resnet-6x64","metrics":{"top1":0.43},"weights":"int8"})", source));
  EXPECT_FALSE(int8_made_from(R"({"architecture":"resnet-6x64","weights":"int8"})", source));
  EXPECT_FALSE(int8_made_from(
      R"({"architecture":"resnet-6x64","metrics":{"top1":0.41},"step":9,"weights":"int8"})",
      source));
  // A source without metadata matches only an int8 file with nothing of its own but its fields.
  EXPECT_TRUE(int8_made_from(R"({"weights":"int8","name":"x-int8"})", ""));
  EXPECT_FALSE(int8_made_from(R"({"weights":"int8","architecture":"resnet-1x8"})", ""));
  EXPECT_FALSE(int8_made_from("not json", source));
}

}  // namespace
}  // namespace zh
