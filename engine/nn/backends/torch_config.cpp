// The torch backend's parser: its settings from the evaluator's (engine/nn/registry.h).

#include <charconv>
#include <optional>
#include <stdexcept>

#include "engine/nn/backends/torch_evaluator.h"

namespace zh {
namespace {

int integer_setting(const EvaluatorConfig& config, std::string_view key, int absent) {
  const std::string text = config.setting(key);
  if (text.empty()) return absent;
  int out = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("evaluator." + std::string(key) + " '" + text +
                                "' is not an integer");
  return out;
}

}  // namespace

TorchConfig torch_config_of(const EvaluatorConfig& config, BackendOptions& own) {
  TorchConfig c;
  if (const std::optional<std::string> layout = own.take("layout")) {
    if (*layout != "auto" && *layout != "nchw" && *layout != "channels-last")
      throw std::invalid_argument("torch backend_options: layout=" + *layout +
                                  " is not one of auto, nchw, channels-last");
    c.layout = *layout;
  }
  own.check_all_taken();  // before a model is loaded
  c.model_path = config.setting("model");
  c.device = config.device;
  if (const std::string p = config.setting("precision"); !p.empty()) c.precision = p;
  c.threads = integer_setting(config, "nn_threads", c.threads);
  c.prior_temperature = config.prior_temperature;
  c.max_batch = integer_setting(config, "max_batch", c.max_batch);
  return c;
}

}  // namespace zh
