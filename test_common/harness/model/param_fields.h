// A family's case parameters declared once: a plain struct holding them and a table with one row per
// parameter, its manifest name and the member that holds it. The member's type gives the schema type
// (uint32_t / uint64_t: UInt, int32_t / int64_t: Int, bool: Bool, std::string: String, std::vector<int64_t>:
// IntList; a std::optional of one of them: the same, kOptional), so the family's ParamSchema (schemaOf) and
// the reader that fills the struct (readFields) both follow from the table:
//
//   struct ShuffleParams { std::string op; uint32_t width = 0; std::optional<uint64_t> index; };
//   const ParamFields<ShuffleParams> kShuffleFields{
//       {"op", &ShuffleParams::op}, {"width", &ShuffleParams::width}, {"index", &ShuffleParams::index}};
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "test_common/harness/model/params.h"

namespace cts {

template <class S>
struct ParamField {
    template <class T>
    using Of = T S::*;
    template <class... T>
    using Members = std::variant<Of<T>..., Of<std::optional<T>>...>;

    const char* name;
    Members<uint32_t, uint64_t, int32_t, int64_t, bool, std::string, std::vector<int64_t>> member;
};

template <class S>
using ParamFields = std::vector<ParamField<S>>;

namespace detail {

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <class T>
constexpr ParamType paramTypeOf() {
    if constexpr (IsOptional<T>::value)
        return paramTypeOf<typename T::value_type>();
    else if constexpr (std::is_same_v<T, bool>)
        return ParamType::Bool;
    else if constexpr (std::is_same_v<T, std::string>)
        return ParamType::String;
    else if constexpr (std::is_same_v<T, std::vector<int64_t>>)
        return ParamType::IntList;
    else if constexpr (std::is_unsigned_v<T>)
        return ParamType::UInt;
    else
        return ParamType::Int;
}

inline void readField(const Params& p, const std::string& key, uint32_t& v) {
    v = uint32_t(p.u(key));
}
inline void readField(const Params& p, const std::string& key, uint64_t& v) {
    v = p.u(key);
}
inline void readField(const Params& p, const std::string& key, int32_t& v) {
    v = int32_t(p.i(key));
}
inline void readField(const Params& p, const std::string& key, int64_t& v) {
    v = p.i(key);
}
inline void readField(const Params& p, const std::string& key, bool& v) {
    v = p.b(key);
}
inline void readField(const Params& p, const std::string& key, std::string& v) {
    v = p.s(key);
}
inline void readField(const Params& p, const std::string& key, std::vector<int64_t>& v) {
    v = p.list(key);
}
template <class T>
void readField(const Params& p, const std::string& key, std::optional<T>& v) {
    if (p.has(key)) readField(p, key, v.emplace());
}

}  // namespace detail

// The schema of the table's parameters, in its order (the order ParamSchema::check reports them in).
template <class S>
ParamSchema schemaOf(const ParamFields<S>& fields) {
    std::vector<ParamDecl> decls;
    for (const ParamField<S>& f : fields)
        std::visit(
            [&](auto member) {
                using T = std::remove_reference_t<decltype(std::declval<S&>().*member)>;
                decls.push_back({f.name, detail::paramTypeOf<T>(), !detail::IsOptional<T>::value});
            },
            f.member);
    return ParamSchema(std::move(decls));
}

// The table's parameters read from `p` (Params' getters: a missing required or malformed one throws
// InternalError naming it; an optional one absent from `p` stays empty).
template <class S>
S readFields(const Params& p, const ParamFields<S>& fields) {
    S s{};
    for (const ParamField<S>& f : fields)
        std::visit([&](auto member) { detail::readField(p, f.name, s.*member); }, f.member);
    return s;
}

}  // namespace cts
