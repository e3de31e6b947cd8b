// The search hands the evaluator the moves that led to each position (EvalInput::last_moves,
// input format 2.0's last-move planes): the game's at the root, the path's below it.
#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "search_test_util.h"

namespace zh {
namespace {

// Records every input it is asked for.
class RecordingEvaluator : public Evaluator {
 public:
  std::string name() const override { return "recording"; }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    {
      std::lock_guard lock(mutex);
      seen.insert(seen.end(), in.begin(), in.end());
    }
    inner_.evaluate(in, out);
  }
  std::mutex mutex;
  std::vector<EvalInput> seen;

 private:
  UniformEvaluator inner_;
};

TEST(SearchLastMoves, TheRootHasTheGamesAndEachLeafItsPaths) {
  Game game;
  game.play_uci("e2e4");
  game.play_uci("e7e5");
  auto eval = std::make_shared<RecordingEvaluator>();
  Search search(eval);
  test::run_search(search, game, test::default_params(), 300);
  ASSERT_GT(eval->seen.size(), 20u);
  const Position& root = game.position();
  const EvalInput& first = eval->seen.front();
  EXPECT_EQ(first.position.key(), root.key());
  EXPECT_EQ(first.last_moves[0], game.moves()[1]);
  EXPECT_EQ(first.last_moves[1], game.moves()[0]);
  int one_ply = 0, two_plies = 0;
  for (const EvalInput& leaf : eval->seen) {
    if (leaf.position.key() == root.key()) continue;
    ASSERT_FALSE(leaf.last_moves[0].is_null());
    Position replay = root;
    if (leaf.last_moves[1] == game.moves()[1]) {  // a child of the root
      ASSERT_TRUE(replay.is_legal(leaf.last_moves[0]));
      replay.do_move(leaf.last_moves[0]);
      EXPECT_EQ(replay.key(), leaf.position.key());
      ++one_ply;
    } else if (replay.is_legal(leaf.last_moves[1])) {
      // A grandchild if both moves are the path's (a deeper leaf's may be legal here too).
      replay.do_move(leaf.last_moves[1]);
      if (!replay.is_legal(leaf.last_moves[0])) continue;
      replay.do_move(leaf.last_moves[0]);
      if (replay.key() == leaf.position.key()) ++two_plies;
    }
  }
  EXPECT_GT(one_ply, 0);
  EXPECT_GT(two_plies, 0);
}

}  // namespace
}  // namespace zh
