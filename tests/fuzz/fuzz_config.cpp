// The YAML config file: every option the daemon reads, applied from arbitrary text and then
// validated. The only way to fail is ConfigError or OptionError, each with a message.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bot/config/bot_config.h"
#include "bot/config/config_file.h"
#include "engine/evaluator_loader.h"
#include "engine/search/params.h"
#include "engine/time/time_manager.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view yaml(reinterpret_cast<const char*>(data), size);
  // What declare_all_options declares, without linking the engine behind Engine.
  zh::Options options;
  zh::bot::BotConfig::declare(options);
  zh::SearchParams::declare(options);
  zh::TimeParams::declare(options);
  zh::declare_evaluator_options(options);
  try {
    zh::bot::apply_config_text(yaml, "fuzz.yaml", options);
    (void)zh::bot::BotConfig::from(options);
  } catch (const zh::bot::ConfigError& e) {
    ZH_FUZZ_CHECK(*e.what() != '\0');
  } catch (const zh::OptionError& e) {
    ZH_FUZZ_CHECK(*e.what() != '\0');
  }
  return 0;
}
