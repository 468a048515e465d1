#include "test_common/harness/model/params.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "test_common/harness/input/text.h"
#include "test_common/harness/model/case.h"

namespace cts {

const char* paramTypeName(ParamType type) {
    switch (type) {
        case ParamType::Int: return "int";
        case ParamType::UInt: return "uint";
        case ParamType::Number: return "number";
        case ParamType::Bool: return "bool";
        case ParamType::String: return "string";
        case ParamType::IntList: return "list of int";
    }
    return "?";
}

namespace {

[[noreturn]] void badParam(const std::string& key, const std::string& value, const char* want) {
    throw InternalError("case parameter '" + key + "' = '" + value + "' is not " + want);
}

int64_t parseSigned(const std::string& key, const std::string& text) {
    std::string t = trimmed(text);
    if (t.empty()) badParam(key, text, "an integer");
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(t.c_str(), &end, 0);
    if (errno != 0 || *end != '\0') badParam(key, text, "an integer");
    return v;
}

}  // namespace

ParamType Params::type(const std::string& key) const {
    auto it = values_.find(key);
    return it == values_.end() ? ParamType::String : it->second.type;
}

int64_t Params::i(const std::string& key) const {
    return parseSigned(key, s(key));
}

uint64_t Params::u(const std::string& key) const {
    std::string text = s(key);
    std::string t = trimmed(text);
    if (t.empty() || t[0] == '-') badParam(key, text, "an unsigned integer");
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(t.c_str(), &end, 0);
    if (errno != 0 || *end != '\0') badParam(key, text, "an unsigned integer");
    return v;
}

std::string Params::s(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw InternalError("case parameter '" + key + "' is missing");
    return it->second.text;
}

bool Params::b(const std::string& key) const {
    std::string v = trimmed(s(key));
    if (v == "true" || v == "1") return true;
    if (v == "false" || v == "0") return false;
    badParam(key, v, "a boolean (true/false/1/0)");
}

std::vector<int64_t> Params::list(const std::string& key) const {
    std::string text = trimmed(s(key));
    std::string body = text;
    if (!body.empty() && body.front() == '[') {
        if (body.back() != ']') badParam(key, text, "a list of integers");
        body = body.substr(1, body.size() - 2);
    }
    std::vector<int64_t> out;
    if (trimmed(body).empty()) return out;
    std::stringstream in(body);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (trimmed(item).empty()) badParam(key, text, "a list of integers");
        out.push_back(parseSigned(key, item));
    }
    return out;
}

std::string ParamSchema::check(const Params& params) const {
    for (const ParamDecl& decl : decls_) {
        if (!params.has(decl.name)) {
            if (decl.required)
                return "parameter '" + decl.name + "' (" + paramTypeName(decl.type) + ") is missing";
            continue;
        }
        ParamType have = params.type(decl.name);
        bool ok = have == decl.type ||
                  (decl.type == ParamType::UInt && have == ParamType::Int &&
                   trimmed(params.s(decl.name))[0] != '-') ||
                  (decl.type == ParamType::Number && have == ParamType::Int);
        if (!ok)
            return "parameter '" + decl.name + "' is " + paramTypeName(have) + " " + params.s(decl.name) +
                   ", the family reads " + paramTypeName(decl.type);
    }
    for (const auto& entry : params.all()) {
        bool declared = false;
        for (const ParamDecl& decl : decls_) declared = declared || decl.name == entry.first;
        if (!declared)
            return "unknown parameter '" + entry.first + "' (the family declares no such parameter)";
    }
    return "";
}

}  // namespace cts
