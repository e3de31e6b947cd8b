#include "engine/nn/model_metadata.h"

#include <nlohmann/json.hpp>
#include <sstream>

namespace zh {

namespace {

// "1.0", 1.0 and 1 all mean input version 1.0; other JSON is shown as written.
std::string metadata_version(const nlohmann::json& meta) {
  const auto it = meta.find("input_version");
  if (it == meta.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number()) {
    std::ostringstream out;
    out << it->get<double>();
    std::string s = out.str();
    return s.find('.') == std::string::npos ? s + ".0" : s;
  }
  return it->dump();
}

nlohmann::json object_or_empty(std::string_view text) {
  if (text.empty()) return nlohmann::json::object();
  nlohmann::json out = nlohmann::json::parse(text, nullptr, false);
  return out.is_object() ? out : nlohmann::json();  // null: matches no object
}

}  // namespace

bool int8_made_from(std::string_view int8, std::string_view source) {
  nlohmann::json made = object_or_empty(int8), from = object_or_empty(source);
  if (!made.is_object() || !from.is_object()) return false;
  for (const char* own : {"name", "weights", "quantization"}) made.erase(own);
  from.erase("name");
  from.erase("weights");
  return made == from;
}

ModelMetadata parse_model_metadata(std::string_view text) {
  nlohmann::json meta;
  try {
    meta = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    throw ModelMetadataError(std::string("has unreadable zhbot.json metadata: ") + e.what());
  }
  if (!meta.is_object()) throw ModelMetadataError("zhbot.json metadata is not a JSON object");
  ModelMetadata out;
  out.input_version = metadata_version(meta);
  const std::string& version = out.input_version;
  if (!version.empty()) {
    try {
      out.format = parse_input_format(version);
    } catch (const std::invalid_argument&) {
      throw ModelMetadataError("declares input version " + version + "; zhbot encodes " +
                               describe(InputFormat::kV1) + " and " + describe(InputFormat::kV2) +
                               " only");
    }
  }
  if (const auto it = meta.find("weights"); it != meta.end()) {
    out.weights = it->is_string() ? it->get<std::string>() : it->dump();
    if (out.weights != "fp32" && out.weights != "int8")
      throw ModelMetadataError("declares weights " + out.weights +
                               "; zhbot runs fp32 and int8 weights");
  }
  return out;
}

}  // namespace zh
