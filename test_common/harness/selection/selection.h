// Case selection: GoogleTest-style patterns, case-list and exclude files, tag filters, sharding, seeds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "test_common/harness/input/path_guard.h"
#include "test_common/harness/model/case.h"

namespace cts {

// `*` matches any run of characters (dots included), `?` any one character; the whole name must match.
bool globMatch(std::string_view pattern, std::string_view name);

// A pattern selects a case when it matches the full name or any dotted prefix of it, so a bare group
// name (`api`) or a dotted prefix (`api.sub_group_sizes`) selects its whole subtree.
bool patternSelects(std::string_view pattern, std::string_view name);

// Patterns prepared for matching many names. A pattern without a wildcard is the name or a dotted prefix of
// it, so it is found by looking up the name and each of its prefixes in a sorted table: n names against m
// such patterns (a case list, an exclude file, 30,000 one-case waivers) cost O((n * depth + m) log m)
// instead of O(n * m). Patterns with `*` or `?` are still tried one by one.
class PatternMatcher {
public:
    PatternMatcher() = default;
    explicit PatternMatcher(std::vector<std::string> patterns);
    size_t size() const { return count_; }
    // Calls hit(i) for every pattern i that selects `name` (patternSelects); an index may come twice.
    template <class Hit>
    void forEachMatch(std::string_view name, Hit&& hit) const {
        for (size_t end = 0;; ++end) {
            end = std::min(name.find('.', end), name.size());
            std::string_view prefix = name.substr(0, end);
            for (auto it = lowerBound(prefix); it != exact_.end() && it->first == prefix; ++it)
                hit(it->second);
            if (end == name.size()) break;
        }
        for (const auto& [pattern, index] : wildcard_)
            if (patternSelects(pattern, name)) hit(index);
    }
    // The lowest index of a pattern that selects `name`, or npos.
    size_t firstMatch(std::string_view name) const;
    static constexpr size_t npos = static_cast<size_t>(-1);

private:
    using Entry = std::pair<std::string, size_t>;
    std::vector<Entry>::const_iterator lowerBound(std::string_view key) const;
    std::vector<Entry> exact_;     // sorted by pattern, then index
    std::vector<Entry> wildcard_;  // in index order
    size_t count_ = 0;
};

// Where a pattern came from, for the "matches no case" message.
struct Pattern {
    std::string text;
    std::string source;  // "command line", "--filter", "file.txt:12"
};

// Splits a GoogleTest filter `POS:POS-NEG:NEG` into positive and negative patterns.
void parseFilter(const std::string& filter, std::vector<Pattern>& positive, std::vector<Pattern>& negative);

// Reads one pattern per line; `#` starts a comment; blank lines are ignored.
// Returns "" on success, else an error naming the file (a directory is an error, an empty file is not).
std::string readPatternFile(const std::string& path, std::vector<Pattern>& out);
// readPatternFile for a --caselist-file: a file holding no pattern is an error too (it would run every case).
std::string readCaseListFile(const std::string& path, std::vector<Pattern>& out);
std::vector<Pattern> parsePatternText(const std::string& text, const std::string& source_name);

struct SelectionRequest {
    std::vector<Pattern> positive;  // empty: everything
    std::vector<Pattern> negative;
    bool quick = false;             // only cases tagged "quick"
    bool extended = false;          // include cases tagged "extended"
    bool huge = false;              // include cases tagged "huge"
    bool core_only = false;         // --tier=core: only tier core cases
    std::vector<std::string> tags;  // --tag: only cases with any of them (empty: no tag filter)
    // --rerun-failed: only these exact names (empty: no such filter); an earlier run ran them, so the
    // extended tag does not drop them.
    std::vector<std::string> names;
    unsigned shard_index = 0, shard_count = 1;
};

// What selection reads of a case: its name, tags and tier. A run selects on these (from the C++ cases and
// the case index) and loads the full CaseSpec of the cases it selected only.
struct CaseHead {
    std::string_view name;
    std::string_view tags;  // comma-separated, "" for none
    Tier tier = Tier::Core;
    size_t source = 0;  // the caller's number for the case (its position in the list it came from)
};

struct HeadSelection {
    std::vector<const CaseHead*> cases;  // sorted by name, after tags and sharding
    std::string error;                   // as Selection::error
};

HeadSelection selectHeads(const std::vector<CaseHead>& all, const SelectionRequest& request);

struct Selection {
    std::vector<const CaseSpec*> cases;  // sorted by name, after tags and sharding
    // Usage error: a pattern that matched no case, a --tag no case carries, or no case left after patterns
    // and tags ("no case selected: ..."). A shard left empty by a selection smaller than the shard count is
    // not an error.
    std::string error;
};

Selection selectCases(const std::vector<CaseSpec>& all, const SelectionRequest& request);

bool hasTag(const CaseSpec& spec, const std::string& tag);
bool hasTag(const CaseHead& head, std::string_view tag);

// Every tag some case carries, sorted, with how many cases carry it (for --list-tags).
std::vector<std::pair<std::string, size_t>> tagCounts(const std::vector<CaseSpec>& all);
std::vector<std::pair<std::string, size_t>> tagCounts(const std::vector<CaseHead>& all);
// The names --tag matches on a case: its tags and its group (the first level of its name).
std::set<std::string> selectionTags(const CaseSpec& spec);
bool hasSelectionTag(const CaseHead& head, std::string_view tag);

// Heads of `cases` (views into them and into `tag_storage`, which must outlive the heads), source = position.
std::vector<CaseHead> caseHeads(const std::vector<CaseSpec>& cases, std::vector<std::string>& tag_storage);

// Per-case seed: FNV-1a 64 of the case name mixed with the run seed; independent of which cases ran.
uint64_t fnv1a64(const std::string& text);
uint64_t caseSeed(const std::string& case_name, uint64_t run_seed);

}  // namespace cts
