#include "test_common/harness/selection/selection.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "test_common/harness/input/text.h"

namespace cts {

bool globMatch(std::string_view pattern, std::string_view name) {
    // Iterative matcher with backtracking to the last `*`: linear in practice, no recursion.
    size_t p = 0, n = 0, star = std::string::npos, resume = 0;
    while (n < name.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
            ++p;
            ++n;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = n;
        } else if (star != std::string::npos) {
            p = star + 1;
            n = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

bool patternSelects(std::string_view pattern, std::string_view name) {
    // Without wildcards a pattern is the name or a dotted prefix of it: no glob per prefix (selection runs
    // this on every case of the suite).
    if (pattern.find_first_of("*?") == std::string_view::npos)
        return name.size() >= pattern.size() && name.compare(0, pattern.size(), pattern) == 0 &&
               (name.size() == pattern.size() || name[pattern.size()] == '.');
    if (globMatch(pattern, name)) return true;
    for (size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1))
        if (globMatch(pattern, name.substr(0, dot))) return true;
    return false;
}

PatternMatcher::PatternMatcher(std::vector<std::string> patterns) : count_(patterns.size()) {
    for (size_t i = 0; i < patterns.size(); ++i)
        (patterns[i].find_first_of("*?") == std::string::npos ? exact_ : wildcard_)
            .emplace_back(std::move(patterns[i]), i);
    std::sort(exact_.begin(), exact_.end());
}

std::vector<PatternMatcher::Entry>::const_iterator PatternMatcher::lowerBound(std::string_view key) const {
    return std::lower_bound(exact_.begin(), exact_.end(), key,
                            [](const Entry& e, std::string_view k) { return std::string_view(e.first) < k; });
}

size_t PatternMatcher::firstMatch(std::string_view name) const {
    size_t best = npos;
    for (size_t end = 0;; ++end) {
        end = std::min(name.find('.', end), name.size());
        std::string_view prefix = name.substr(0, end);
        // Equal patterns sort by index: the first of a run is its lowest.
        if (auto it = lowerBound(prefix); it != exact_.end() && it->first == prefix)
            best = std::min(best, it->second);
        if (end == name.size()) break;
    }
    for (const auto& [pattern, index] : wildcard_) {
        if (index >= best) break;
        if (patternSelects(pattern, name)) return index;
    }
    return best;
}

void parseFilter(const std::string& filter, std::vector<Pattern>& positive, std::vector<Pattern>& negative) {
    size_t dash = filter.find('-');
    std::string pos = filter.substr(0, dash);
    std::string neg = dash == std::string::npos ? "" : filter.substr(dash + 1);
    auto split = [](const std::string& s, std::vector<Pattern>& out) {
        std::stringstream in(s);
        std::string item;
        while (std::getline(in, item, ':'))
            if (!item.empty()) out.push_back({item, "--filter"});
    };
    split(pos, positive);
    split(neg, negative);
}

std::vector<Pattern> parsePatternText(const std::string& text, const std::string& source_name) {
    std::vector<Pattern> out;
    std::istringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        line = line.substr(0, line.find('#'));
        line = trimmed(line, " \t\r");
        if (line.empty()) continue;
        out.push_back({line, source_name + ":" + std::to_string(number)});
    }
    return out;
}

std::string readPatternFile(const std::string& path, std::vector<Pattern>& out) {
    std::string text;
    if (std::string err = readTextFile(path, &text); !err.empty()) return err;
    auto patterns = parsePatternText(text, path);
    out.insert(out.end(), patterns.begin(), patterns.end());
    return "";
}

std::string readCaseListFile(const std::string& path, std::vector<Pattern>& out) {
    std::vector<Pattern> patterns;
    std::string err = readPatternFile(path, patterns);
    if (!err.empty()) return err;
    if (patterns.empty())
        return path + " holds no case name or pattern (an empty case list would run every case)";
    out.insert(out.end(), patterns.begin(), patterns.end());
    return "";
}

bool hasTag(const CaseSpec& spec, const std::string& tag) {
    return std::find(spec.tags.begin(), spec.tags.end(), tag) != spec.tags.end();
}

bool hasTag(const CaseHead& head, std::string_view tag) {
    for (std::string_view rest = head.tags; !rest.empty();) {
        size_t comma = rest.find(',');
        if (rest.substr(0, comma) == tag) return true;
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    return false;
}

// What --tag matches on a case: its tags and its group (the first level of its name), so
// --tag=workloads,regression reads like the other tags.
std::set<std::string> selectionTags(const CaseSpec& spec) {
    std::set<std::string> tags(spec.tags.begin(), spec.tags.end());
    tags.insert(spec.name.substr(0, spec.name.find('.')));
    return tags;
}

bool hasSelectionTag(const CaseHead& head, std::string_view tag) {
    return hasTag(head, tag) || head.name.substr(0, head.name.find('.')) == tag;
}

std::vector<CaseHead> caseHeads(const std::vector<CaseSpec>& cases, std::vector<std::string>& tag_storage) {
    tag_storage.clear();
    tag_storage.reserve(cases.size());
    std::vector<CaseHead> heads;
    heads.reserve(cases.size());
    for (size_t i = 0; i < cases.size(); ++i) {
        std::string tags;
        for (const auto& t : cases[i].tags) tags += (tags.empty() ? "" : ",") + t;
        tag_storage.push_back(std::move(tags));
        heads.push_back({cases[i].name, tag_storage.back(), cases[i].tier, i});
    }
    return heads;
}

std::vector<std::pair<std::string, size_t>> tagCounts(const std::vector<CaseHead>& all) {
    std::map<std::string, size_t, std::less<>> counts;
    auto count = [&](std::string_view tag) {
        auto it = counts.find(tag);
        if (it == counts.end()) it = counts.emplace(std::string(tag), 0).first;
        ++it->second;
    };
    for (const auto& c : all) {
        std::string_view group = c.name.substr(0, c.name.find('.'));
        count(group);
        for (std::string_view rest = c.tags; !rest.empty();) {
            size_t comma = rest.find(',');
            std::string_view tag = rest.substr(0, comma);
            // Once per case, as a set would: a tag named like the group, or repeated, counts once.
            bool again = tag == group || hasTag({c.name, c.tags.substr(0, c.tags.size() - rest.size())}, tag);
            if (!again) count(tag);
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
    return {counts.begin(), counts.end()};
}

std::vector<std::pair<std::string, size_t>> tagCounts(const std::vector<CaseSpec>& all) {
    std::vector<std::string> storage;
    return tagCounts(caseHeads(all, storage));
}

HeadSelection selectHeads(const std::vector<CaseHead>& all, const SelectionRequest& request) {
    HeadSelection result;
    // A tag no case carries is a typo or a stale list: refuse it like a pattern that matches nothing.
    if (!request.tags.empty()) {
        const auto known = tagCounts(all);
        for (const auto& tag : request.tags)
            if (std::none_of(known.begin(), known.end(), [&](const auto& k) { return k.first == tag; })) {
                std::string names;
                for (const auto& k : known) names += (names.empty() ? "" : ", ") + k.first;
                result.error = "tag '" + tag +
                               "' (--tag) is on no case; known tags: " + (names.empty() ? "none" : names);
                return result;
            }
    }
    // One pass: each pattern is tried on every case once, which also tells which patterns match nothing.
    std::vector<char> positive_hit(request.positive.size()), negative_hit(request.negative.size());
    auto matcher = [](const std::vector<Pattern>& patterns) {
        std::vector<std::string> texts;
        texts.reserve(patterns.size());
        for (const auto& p : patterns) texts.push_back(p.text);
        return PatternMatcher(std::move(texts));
    };
    const PatternMatcher positive_matcher = matcher(request.positive),
                         negative_matcher = matcher(request.negative);
    auto matchAll = [](const PatternMatcher& m, std::vector<char>& hit, std::string_view name) {
        bool any = false;
        m.forEachMatch(name, [&](size_t i) { any = hit[i] = true; });
        return any;
    };
    // cases each step selects or drops
    size_t positive = 0, negative = 0, not_quick = 0, untagged = 0, extended = 0, huge = 0, not_core = 0;
    const std::set<std::string, std::less<>> names(request.names.begin(), request.names.end());
    for (const auto& c : all) {
        bool in = matchAll(positive_matcher, positive_hit, c.name) || request.positive.empty();
        bool out = matchAll(negative_matcher, negative_hit, c.name);
        if (!names.empty() && !names.count(c.name)) continue;
        if (!in) continue;
        ++positive;
        if (out) {
            ++negative;
            continue;
        }
        if (request.quick && !hasTag(c, "quick")) {
            ++not_quick;
            continue;
        }
        if (!request.tags.empty() &&
            std::none_of(request.tags.begin(), request.tags.end(),
                         [&](const std::string& t) { return hasSelectionTag(c, t); })) {
            ++untagged;
            continue;
        }
        if (!request.extended && names.empty() && hasTag(c, "extended")) {
            ++extended;
            continue;
        }
        if (!request.huge && hasTag(c, "huge")) {
            ++huge;
            continue;
        }
        if (request.core_only && c.tier != Tier::Core) {
            ++not_core;
            continue;
        }
        result.cases.push_back(&c);
    }
    for (const auto* list : {&request.positive, &request.negative})
        for (size_t i = 0; i < list->size(); ++i)
            if (!(list == &request.positive ? positive_hit : negative_hit)[i]) {
                result.error =
                    "pattern '" + (*list)[i].text + "' (" + (*list)[i].source + ") matches no case";
                result.cases.clear();
                return result;
            }
    // Selecting nothing is a usage error like a pattern matching nothing; an empty shard (below) is not.
    if (result.cases.empty()) {
        auto count = [](size_t n) { return std::to_string(n) + (n == 1 ? " case" : " cases"); };
        std::string why;
        if (positive == 0)
            why = "there are no cases";
        else if (negative == positive)
            why = "the negative patterns (--filter=...-NEG, --exclude-file) exclude all " + count(positive) +
                  (request.positive.empty() ? "" : " the positive patterns select");
        else {
            why = "of the " + count(positive - negative) + " left after the patterns,";
            std::vector<std::string> parts;
            if (not_quick) parts.push_back(std::to_string(not_quick) + " not tagged quick (--quick)");
            if (untagged) {
                std::string list;
                for (const auto& t : request.tags) list += (list.empty() ? "" : ",") + t;
                parts.push_back(std::to_string(untagged) + " without tag " + list + " (--tag)");
            }
            if (extended) parts.push_back(std::to_string(extended) + " tagged extended (add --extended)");
            if (huge) parts.push_back(std::to_string(huge) + " tagged huge (add --huge)");
            if (not_core)
                parts.push_back(std::to_string(not_core) + " of tier device_specific (--tier=core)");
            for (size_t i = 0; i < parts.size(); ++i) why += (i ? " and " : " ") + parts[i];
        }
        result.error = "no case selected: " + why;
        return result;
    }
    std::sort(result.cases.begin(), result.cases.end(),
              [](const CaseHead* a, const CaseHead* b) { return a->name < b->name; });
    if (request.shard_count > 1) {
        std::vector<const CaseHead*> mine;
        for (size_t i = request.shard_index; i < result.cases.size(); i += request.shard_count)
            mine.push_back(result.cases[i]);
        result.cases.swap(mine);
    }
    return result;
}

Selection selectCases(const std::vector<CaseSpec>& all, const SelectionRequest& request) {
    std::vector<std::string> storage;
    const std::vector<CaseHead> heads = caseHeads(all, storage);
    HeadSelection chosen = selectHeads(heads, request);
    Selection result;
    result.error = chosen.error;
    for (const CaseHead* h : chosen.cases) result.cases.push_back(&all[h->source]);
    return result;
}

uint64_t fnv1a64(const std::string& text) {
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    return h;
}

uint64_t caseSeed(const std::string& case_name, uint64_t run_seed) {
    // splitmix64 finaliser over the combination, so neighbouring run seeds give unrelated case seeds.
    uint64_t z = fnv1a64(case_name) ^ (run_seed * 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace cts
