#include "test_common/harness/input/json_input.h"

#include <algorithm>
#include <set>
#include <vector>

namespace cts {
namespace {

size_t lineAt(const std::string& text, size_t offset) {
    offset = std::min(offset, text.size());
    return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

// The offset of the first key that repeats a key of its object, or npos. Runs on text nlohmann has already
// accepted, so a small scan of strings and brackets suffices; keys are compared decoded ("a" == "\u0061").
size_t duplicateKey(const std::string& text, std::string* key) {
    struct Container {
        bool object;
        bool want_key;
        std::set<std::string> keys;
    };
    std::vector<Container> open;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '"') {
            size_t start = i;
            i = jsonStringEnd(text, i);
            if (open.empty() || !open.back().object || !open.back().want_key) continue;
            std::string name = nlohmann::json::parse(text.substr(start, i + 1 - start)).get<std::string>();
            open.back().want_key = false;
            if (!open.back().keys.insert(name).second) {
                *key = name;
                return start;
            }
        } else if (c == '{' || c == '[') {
            open.push_back({c == '{', c == '{', {}});
        } else if (c == '}' || c == ']') {
            if (!open.empty()) open.pop_back();
        } else if (c == ',' && !open.empty() && open.back().object) {
            open.back().want_key = true;
        }
    }
    return std::string::npos;
}

}  // namespace

size_t jsonStringEnd(const std::string& text, size_t open) {
    size_t i = open + 1;
    for (; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    return std::min(i, text.size());
}

std::string parseJsonInput(const std::string& text, nlohmann::json* doc, size_t* line) {
    try {
        *doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is the 1-based offset of the byte where parsing failed.
        *line = lineAt(text, e.byte == 0 ? 0 : e.byte - 1);
        std::string what = e.what();
        size_t syntax = what.find("syntax error");
        return syntax == std::string::npos ? what : what.substr(syntax);
    } catch (const nlohmann::json::out_of_range& e) {
        // A number beyond a double's range ("1e999"): nlohmann names the token but not where it is; the
        // line of the token's first occurrence. Uncaught, it ended the runner with "terminate called".
        std::string what = e.what();
        size_t quote = what.find('\'');
        size_t end = quote == std::string::npos ? quote : what.find('\'', quote + 1);
        size_t at =
            end == std::string::npos ? std::string::npos : text.find(what.substr(quote + 1, end - quote - 1));
        *line = lineAt(text, at == std::string::npos ? 0 : at);
        size_t number = what.find("number overflow");
        return "not valid JSON: " + (number == std::string::npos ? what : what.substr(number));
    }
    std::string key;
    size_t at = duplicateKey(text, &key);
    if (at == std::string::npos) return "";
    *line = lineAt(text, at);
    return "key \"" + key + "\" appears twice in one object (JSON keeps only the last)";
}

std::string parseJsonFile(const std::string& text, const std::string& file, nlohmann::json* doc) {
    size_t line = 1;
    std::string err = parseJsonInput(text, doc, &line);
    if (err.empty()) return "";
    return file + ":" + std::to_string(line) + ": " +
           (err.rfind("syntax error", 0) == 0 ? "not valid JSON: " : "") + err;
}

std::string readJsonFile(const std::string& path, JsonFile* out, size_t max_bytes) {
    if (std::string err = readTextFile(path, &out->text, max_bytes); !err.empty()) return err;
    return parseJsonFile(out->text, path, &out->doc);
}

}  // namespace cts
