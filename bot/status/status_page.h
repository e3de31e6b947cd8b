#pragma once
// The /status page: one self-contained HTML document (its script and style inline, no font,
// image or script from anywhere else) that reads /status.json every two seconds and draws the
// boards as SVG. Its source is bot/status/status_page.html.

#include <string_view>

namespace zh::bot {

std::string_view status_page_html();

}  // namespace zh::bot
