#pragma once
// Secrets (the API token) must never reach a log line, error message or exception text.
// Every secret is registered once when loaded; redact() masks all of them wherever text is
// about to leave the process, and the log sink applies it to every line as a last guard.

#include <string>
#include <string_view>

namespace zh::bot {

inline constexpr std::string_view kRedacted = "<redacted>";

// Registers a secret to be masked from now on (thread-safe; empty strings are ignored).
void register_secret(std::string secret);
// Returns `text` with every registered secret replaced by kRedacted.
std::string redact(std::string_view text);

}  // namespace zh::bot
