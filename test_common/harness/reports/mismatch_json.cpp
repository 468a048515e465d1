#include "test_common/harness/reports/mismatch_json.h"

#include <stdexcept>
#include <string>

namespace cts {
namespace {

// Marked positions as "start+length" runs of row-major indices, "0+16,40+2": one short string however the
// report is indented.
std::string runsText(const std::set<uint64_t>& marked) {
    std::string out;
    for (auto it = marked.begin(); it != marked.end();) {
        uint64_t start = *it, length = 0;
        while (it != marked.end() && *it == start + length) ++it, ++length;
        out += (out.empty() ? "" : ",") + std::to_string(start) + "+" + std::to_string(length);
    }
    return out;
}

std::set<uint64_t> parseRuns(const std::string& text) {
    std::set<uint64_t> marked;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find(',', pos), plus = text.find('+', pos);
        if (end == std::string::npos) end = text.size();
        if (plus == std::string::npos || plus > end) throw std::invalid_argument("bad marked runs: " + text);
        uint64_t start = std::stoull(text.substr(pos, plus - pos)),
                 length = std::stoull(text.substr(plus + 1));
        for (uint64_t i = 0; i < length; ++i) marked.insert(start + i);
        pos = end + 1;
    }
    return marked;
}

}  // namespace

nlohmann::ordered_json pictureJson(const MismatchPicture& picture) {
    nlohmann::ordered_json grids = nlohmann::ordered_json::array();
    for (const MismatchGrid& g : picture.grids) {
        nlohmann::ordered_json cells = nlohmann::ordered_json::array();
        for (const MismatchCell& c : g.cells)
            cells.push_back({{"row", c.row}, {"col", c.col}, {"expected", c.expected}, {"actual", c.actual}});
        grids.push_back({{"title", g.shape.title},
                         {"rows", g.shape.rows},
                         {"cols", g.shape.cols},
                         {"row_axis", g.shape.row_axis},
                         {"col_axis", g.shape.col_axis},
                         {"count", g.count},
                         {"marked", runsText(g.marked)},
                         {"cells", std::move(cells)}});
    }
    return {{"grids", std::move(grids)}, {"omitted_cells", picture.omitted_cells}};
}

MismatchPicture pictureFromJson(const nlohmann::json& json) {
    MismatchPicture picture;
    for (const auto& g : json.at("grids")) {
        MismatchGrid grid;
        grid.shape = {g.at("title").get<std::string>(), g.at("rows").get<uint32_t>(),
                      g.at("cols").get<uint32_t>(), g.at("row_axis").get<std::string>(),
                      g.at("col_axis").get<std::string>()};
        grid.count = g.at("count").get<uint64_t>();
        grid.marked = parseRuns(g.at("marked").get<std::string>());
        for (const auto& c : g.at("cells"))
            grid.cells.push_back({c.at("row").get<uint32_t>(), c.at("col").get<uint32_t>(),
                                  c.at("expected").get<std::string>(), c.at("actual").get<std::string>()});
        picture.grids.push_back(std::move(grid));
    }
    picture.omitted_cells = json.at("omitted_cells").get<uint64_t>();
    return picture;
}

}  // namespace cts
