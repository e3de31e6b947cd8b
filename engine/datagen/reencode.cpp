#include "engine/datagen/reencode.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "engine/datagen/labelling.h"
#include "engine/datagen/shard_io.h"

namespace zh::datagen {
namespace fs = std::filesystem;
namespace {

struct Entry {
  Record record;
  Position position;
  std::uint64_t key = 0;
};

// The legal move of `from` that leads to the position with key `to`, or null.
Move move_between(const Position& from, std::uint64_t to) {
  const MoveList legal = from.legal_moves();
  for (int i = 0; i < legal.count; ++i) {
    Position next = from;
    next.do_move(legal[i]);
    if (next.key() == to) return legal[i];
  }
  return Move();
}

// The format-1.0 planes a record stores must be what this build's encoder makes of its FEN.
void check_same_encoder(const Record& stored, const Record& made, const std::string& where) {
  std::vector<float> a(kInputSize), b(kInputSize);
  unpack_planes(stored, a, InputFormat::kV1);
  unpack_planes(made, b, InputFormat::kV1);
  if (a != b)
    throw FormatError(where +
                      ": the stored planes differ from this build's encoding of the "
                      "record's FEN; it cannot be re-encoded");
}

}  // namespace

ReencodeReport reencode(const fs::path& in, const fs::path& out, InputFormat format) {
  const std::vector<fs::path> shards = list_shards(in);
  if (shards.empty()) throw FormatError(in.string() + ": no .zhrec shards to re-encode");
  std::vector<Entry> all;
  std::vector<std::size_t> shard_end;  // all[i] of shard s: shard_end[s-1] <= i < shard_end[s]
  std::vector<float> temperatures;
  for (const fs::path& shard : shards) {
    temperatures.push_back(read_shard_header(shard).policy_temperature_cp);
    for (const Record& r : read_shard(shard)) {
      Entry e{r, Position::from_fen(fen_of(r)), 0};
      e.key = e.position.key();
      all.push_back(std::move(e));
    }
    shard_end.push_back(all.size());
  }

  // By ply, so that a record's predecessor has its own last move when the record is reached.
  std::vector<std::size_t> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return all[a].record.ply < all[b].record.ply;
  });
  std::map<std::pair<std::uint64_t, int>, std::size_t> by_game_ply;
  for (std::size_t i = 0; i < all.size(); ++i)
    by_game_ply[{all[i].record.game_id, all[i].record.ply}] = i;
  // Positions one move after a record of ply p (any game), built once per ply where needed.
  std::map<int, std::unordered_map<std::uint64_t, std::pair<std::size_t, Move>>> children;
  auto children_of_ply = [&](int ply) -> const auto& {
    auto [it, fresh] = children.try_emplace(ply);
    if (fresh)
      for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i].record.ply != ply) continue;
        const MoveList legal = all[i].position.legal_moves();
        for (int k = 0; k < legal.count; ++k) {
          Position next = all[i].position;
          next.do_move(legal[k]);
          it->second.try_emplace(next.key(), i, legal[k]);
        }
      }
    return it->second;
  };

  ReencodeReport report;
  report.shards = std::int64_t(shards.size());
  report.records = std::int64_t(all.size());
  std::vector<std::array<Move, 2>> last(all.size());
  for (std::size_t i : order) {
    const Record& r = all[i].record;
    if (r.ply == 0) continue;  // the start: no move led here
    std::size_t pred = all.size();
    Move move;
    if (auto it = by_game_ply.find({r.game_id, r.ply - 1}); it != by_game_ply.end()) {
      move = move_between(all[it->second].position, all[i].key);
      pred = it->second;
    }
    if (move.is_null()) {
      const auto& kids = children_of_ply(r.ply - 1);
      if (auto it = kids.find(all[i].key); it != kids.end()) std::tie(pred, move) = it->second;
    }
    if (move.is_null()) {
      ++report.unknown;
      continue;
    }
    ++report.recovered;
    last[i] = {move, last[pred][0]};
  }

  fs::create_directories(out);
  for (std::size_t s = 0, i = 0; s < shards.size(); ++s) {
    std::vector<Record> records;
    for (; i < shard_end[s]; ++i) {
      EvalInput input = eval_input_of(all[i].record);
      input.last_moves = last[i];
      Record made = all[i].record;
      set_input(input, made);
      check_same_encoder(all[i].record, made, shards[s].string());
      records.push_back(made);
    }
    write_shard(out / shards[s].filename(), records, temperatures[s], format);
  }
  return report;
}

}  // namespace zh::datagen
