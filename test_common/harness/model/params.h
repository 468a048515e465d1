// A case's parameters as the manifest types them, and the schema a family declares for the ones it reads
// (docs/assets.md, "How a family binds"). The runner checks a case's parameters against its family's schema
// before any device query, so a generator and a family that disagree give one InternalError naming the case
// and the parameter, never a wrong verdict.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cts {

// The JSON type of a manifest value (Int: a JSON integer; UInt: a JSON integer >= 0, only in schemas), or
// what a schema requires.
enum class ParamType { Int, UInt, Number, Bool, String, IntList };
const char* paramTypeName(ParamType type);  // "int", "uint", "number", "bool", "string", "list of int"

struct ParamValue {
    std::string text;  // JSON scalars as their text form, a list as its JSON text
    ParamType type = ParamType::String;
};

// Case parameters: each value keeps its manifest text and JSON type.
class Params {
public:
    void set(const std::string& key, std::string value, ParamType type = ParamType::String) {
        values_[key] = ParamValue{std::move(value), type};
    }
    bool has(const std::string& key) const { return values_.count(key) != 0; }
    ParamType type(const std::string& key) const;  // String for a missing key
    // Each getter throws InternalError naming the key when it is missing or malformed.
    int64_t i(const std::string& key) const;
    uint64_t u(const std::string& key) const;
    std::string s(const std::string& key) const;
    bool b(const std::string& key) const;                     // "true"/"false"/"1"/"0"
    std::vector<int64_t> list(const std::string& key) const;  // comma-separated or JSON array text
    const std::map<std::string, ParamValue>& all() const { return values_; }

private:
    std::map<std::string, ParamValue> values_;
};

struct ParamDecl {
    std::string name;
    ParamType type;
    bool required = true;
};
inline constexpr bool kOptional = false;

// The parameters a family's cases carry: every one declared with its type, required unless kOptional.
class ParamSchema {
public:
    ParamSchema(std::initializer_list<ParamDecl> decls) : decls_(decls) {}
    explicit ParamSchema(std::vector<ParamDecl> decls) : decls_(std::move(decls)) {}
    // "" when `params` holds every required parameter, each with its declared type, and nothing undeclared;
    // else what is wrong with the first offending parameter, naming it.
    std::string check(const Params& params) const;
    const std::vector<ParamDecl>& decls() const { return decls_; }

private:
    std::vector<ParamDecl> decls_;
};

}  // namespace cts
