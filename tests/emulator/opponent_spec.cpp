#include "tests/emulator/opponent_spec.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace zh::emulator {
namespace {

OpponentSpec::Kind kind_from(const std::string& name) {
  if (name == "engine") return OpponentSpec::Kind::kEngine;
  if (name == "script") return OpponentSpec::Kind::kScript;
  if (name == "random") return OpponentSpec::Kind::kRandom;
  if (name == "idle") return OpponentSpec::Kind::kIdle;
  throw std::invalid_argument("opponent type '" + name +
                              "' is not one of engine, script, random, idle, leave");
}

}  // namespace

const char* kind_name(OpponentSpec::Kind kind) {
  switch (kind) {
    case OpponentSpec::Kind::kEngine:
      return "engine";
    case OpponentSpec::Kind::kScript:
      return "script";
    case OpponentSpec::Kind::kRandom:
      return "random";
    case OpponentSpec::Kind::kIdle:
      return "idle";
  }
  return "idle";
}

OpponentSpec opponent_from_json(const nlohmann::json& j) {
  OpponentSpec s;
  if (!j.is_object()) throw std::invalid_argument("opponent must be a JSON object");
  const std::string type = j.value("type", std::string("random"));
  if (type == "leave") {
    // Leaves at its first turn unless told otherwise.
    s.kind = OpponentSpec::Kind::kIdle;
    s.leave_at_ply = 0;
  } else {
    s.kind = kind_from(type);
  }
  s.skill = j.value("skill", s.skill);
  if (s.skill < -20 || s.skill > 20) throw std::invalid_argument("opponent.skill must be -20..20");
  s.movetime_ms = j.value("movetime_ms", s.movetime_ms);
  s.engine_path = j.value("engine_path", s.engine_path);
  if (j.contains("moves")) s.moves = j.at("moves").get<std::vector<std::string>>();
  if (j.contains("after_script")) s.after_script = kind_from(j.at("after_script"));
  s.delay_ms = j.value("delay_ms", s.delay_ms);
  s.leave_at_ply = j.value("leave_at_ply", s.leave_at_ply);
  s.gone_claim_ms = j.value("gone_claim_ms", s.gone_claim_ms);
  s.resign_at_ply = j.value("resign_at_ply", s.resign_at_ply);
  s.offer_draw_at_ply = j.value("offer_draw_at_ply", s.offer_draw_at_ply);
  s.accept_draw = j.value("accept_draw", s.accept_draw);
  s.accept_takeback = j.value("accept_takeback", s.accept_takeback);
  s.greeting = j.value("greeting", s.greeting);
  return s;
}

nlohmann::json opponent_to_json(const OpponentSpec& s) {
  return {{"type", kind_name(s.kind)},
          {"skill", s.skill},
          {"movetime_ms", s.movetime_ms},
          {"engine_path", s.engine_path},
          {"moves", s.moves},
          {"after_script", kind_name(s.after_script)},
          {"delay_ms", s.delay_ms},
          {"leave_at_ply", s.leave_at_ply},
          {"gone_claim_ms", s.gone_claim_ms},
          {"resign_at_ply", s.resign_at_ply},
          {"offer_draw_at_ply", s.offer_draw_at_ply},
          {"accept_draw", s.accept_draw},
          {"accept_takeback", s.accept_takeback},
          {"greeting", s.greeting}};
}

}  // namespace zh::emulator
