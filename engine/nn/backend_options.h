#pragma once
// A backend's own settings, the evaluator's `backend_options` string "key=value,..." (as lc0's
// backend-opts). The backend's parser takes the keys it knows; whatever it leaves is a mistake
// the operator must hear of (a setting meant for another backend, a typo), not something to
// ignore, so check_all_taken() refuses it and names the keys the backend takes.

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace zh {

class BackendOptions {
 public:
  // Throws std::invalid_argument for an item without '=' or a key given twice.
  BackendOptions(std::string backend, std::string_view text);

  // The value of `key`, marked as taken; nullopt when absent.
  std::optional<std::string> take(std::string_view key);
  // take() as a number; throws std::invalid_argument when the value is not one.
  template <class T>
  T take_number(std::string_view key, T absent) {
    const std::optional<std::string> value = take(key);
    if (!value) return absent;
    T out{};
    const char* end = value->data() + value->size();
    const auto [stop, ec] = std::from_chars(value->data(), end, out);
    if (ec != std::errc() || stop != end || value->empty()) not_a_number(key, *value);
    return out;
  }
  // Throws std::invalid_argument naming the first setting no take() asked for.
  void check_all_taken() const;

 private:
  struct Item {
    std::string key, value;
    bool taken = false;
  };
  [[noreturn]] void not_a_number(std::string_view key, const std::string& value) const;

  std::string backend_, text_;
  std::vector<Item> items_;
  std::vector<std::string> asked_;  // the keys the backend takes, in its parser's order
};

}  // namespace zh
