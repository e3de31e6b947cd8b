#pragma once
// /status.json: the snapshot as JSON (its fields are documented in docs/operators.md).

#include <nlohmann/json.hpp>
#include <string>

#include "bot/status/status_model.h"

namespace zh::bot {

nlohmann::json status_json(const StatusSnapshot& snapshot);

// Whether the daemon is healthy, as /healthz judges it: the event stream up and the evaluator's
// device working (the same rule `zhbot status` applies to the JSON).
bool status_healthy(const StatusSnapshot& snapshot);

}  // namespace zh::bot
