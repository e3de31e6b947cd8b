#include "engine/nn/backend_options.h"

#include <algorithm>
#include <stdexcept>

namespace zh {

BackendOptions::BackendOptions(std::string backend, std::string_view text)
    : backend_(std::move(backend)), text_(text) {
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw std::invalid_argument(backend_ + " backend_options: '" + std::string(item) +
                                  "' is not key=value");
    Item parsed{std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))};
    for (const Item& seen : items_)
      if (seen.key == parsed.key)
        throw std::invalid_argument(backend_ + " backend_options: " + parsed.key +
                                    " is given twice");
    items_.push_back(std::move(parsed));
  }
}

std::optional<std::string> BackendOptions::take(std::string_view key) {
  if (std::find(asked_.begin(), asked_.end(), key) == asked_.end()) asked_.emplace_back(key);
  for (Item& item : items_)
    if (item.key == key) {
      item.taken = true;
      return item.value;
    }
  return std::nullopt;
}

void BackendOptions::check_all_taken() const {
  for (const Item& item : items_) {
    if (item.taken) continue;
    if (asked_.empty())
      throw std::invalid_argument("evaluator backend \"" + backend_ +
                                  "\" takes no backend_options (got \"" + text_ + "\")");
    std::string known;
    for (const std::string& key : asked_) known += (known.empty() ? "" : ", ") + key;
    throw std::invalid_argument(backend_ + " backend_options: unknown setting '" + item.key + "=" +
                                item.value + "' (" + known + ")");
  }
}

void BackendOptions::not_a_number(std::string_view key, const std::string& value) const {
  throw std::invalid_argument(backend_ + " backend_options: " + std::string(key) + "=" + value +
                              " is not a number");
}

}  // namespace zh
