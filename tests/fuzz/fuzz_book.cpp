// Opening-book text (engine/book) and PGN movetext: a book either fails with BookError or
// loads to one that writes back to text loading to the same book, every move legal; the PGN
// reader never fails, whatever the bytes.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "engine/book/opening_book.h"
#include "engine/chess/pgn_reader.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  {
    std::istringstream in(text);
    zh::PgnReader reader(in);
    int games = 0;
    while (reader.next() && ++games < 1000) {
    }
  }
  zh::book::OpeningBook book;
  try {
    book = zh::book::OpeningBook::parse(text, "fuzz");
  } catch (const zh::book::BookError&) {
    return 0;
  }
  std::ostringstream out;
  book.write(out);
  const zh::book::OpeningBook again = zh::book::OpeningBook::parse(out.str(), "again");
  ZH_FUZZ_CHECK(again.positions() == book.positions());
  ZH_FUZZ_CHECK(again.total_moves() == book.total_moves());
  std::ostringstream out2;
  again.write(out2);
  ZH_FUZZ_CHECK(out2.str() == out.str());
  return 0;
}
