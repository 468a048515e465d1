// Specialization constants: reading SpecId decorations and substituting values (spec_constants.h).
#include "reference_device/icd/spec_constants.h"

#include <cstring>

#include "reference_device/spirv/tokens.h"

namespace refdev::icd {
namespace {

constexpr uint32_t kHeaderWords = 5;

struct ScalarType {
    uint32_t opcode = 0, width = 0;
    bool is_signed = false;
};

// Calls f(offset, opcode, word count) for each instruction that fits in the module.
template <typename F>
void forEachInstruction(const std::vector<uint32_t>& words, F f) {
    for (size_t pos = kHeaderWords; pos < words.size();) {
        uint32_t wc = words[pos] >> 16;
        if (wc == 0 || pos + wc > words.size()) return;
        f(pos, words[pos] & 0xffffu, wc);
        pos += wc;
    }
}

// Result id -> SpecId, and type id -> scalar type, of the whole module.
void scan(const std::vector<uint32_t>& words, std::map<uint32_t, uint32_t>* spec_ids,
          std::map<uint32_t, ScalarType>* types) {
    forEachInstruction(words, [&](size_t pos, uint32_t op, uint32_t wc) {
        const uint32_t* w = words.data() + pos;
        if (op == token(spv::Op::OpDecorate) && wc >= 4 && w[2] == token(spv::Decoration::SpecId))
            (*spec_ids)[w[1]] = w[3];
        else if (op == token(spv::Op::OpTypeInt) && wc >= 4)
            (*types)[w[1]] = ScalarType{op, w[2], w[3] == 1};
        else if (op == token(spv::Op::OpTypeFloat) && wc >= 3)
            (*types)[w[1]] = ScalarType{op, w[2], false};
        else if (op == token(spv::Op::OpTypeBool) && wc >= 2)
            (*types)[w[1]] = ScalarType{op, 8, false};
    });
}

bool isSpecScalar(uint32_t op) {
    return op == token(spv::Op::OpSpecConstant) || op == token(spv::Op::OpSpecConstantTrue) ||
           op == token(spv::Op::OpSpecConstantFalse);
}

}  // namespace

std::map<uint32_t, SpecConstantDecl> specConstants(const std::vector<uint32_t>& words) {
    std::map<uint32_t, uint32_t> spec_ids;
    std::map<uint32_t, ScalarType> types;
    scan(words, &spec_ids, &types);
    std::map<uint32_t, SpecConstantDecl> out;
    forEachInstruction(words, [&](size_t pos, uint32_t op, uint32_t wc) {
        if (!isSpecScalar(op) || wc < 3) return;
        auto id = spec_ids.find(words[pos + 2]);
        auto type = types.find(words[pos + 1]);
        if (id == spec_ids.end() || type == types.end()) return;
        const ScalarType& t = type->second;
        if (t.width == 0 || t.width % 8 != 0 || t.width > 64) return;
        SpecConstantDecl d;
        d.is_bool = t.opcode == token(spv::Op::OpTypeBool);
        d.size = d.is_bool ? 1 : t.width / 8;  // OpenCL 3.0: spec_size is 1 for a boolean constant
        d.is_signed = t.is_signed;
        out[id->second] = d;
    });
    return out;
}

std::vector<uint32_t> specialize(const std::vector<uint32_t>& words,
                                 const std::map<uint32_t, std::vector<uint8_t>>& values) {
    std::vector<uint32_t> out = words;
    if (values.empty()) return out;
    std::map<uint32_t, uint32_t> spec_ids;
    std::map<uint32_t, ScalarType> types;
    scan(words, &spec_ids, &types);
    forEachInstruction(words, [&](size_t pos, uint32_t op, uint32_t wc) {
        if (!isSpecScalar(op) || wc < 3) return;
        auto id = spec_ids.find(words[pos + 2]);
        if (id == spec_ids.end()) return;
        auto value = values.find(id->second);
        if (value == values.end()) return;
        const std::vector<uint8_t>& bytes = value->second;
        if (op != token(spv::Op::OpSpecConstant)) {
            bool set = false;
            for (uint8_t b : bytes) set = set || b != 0;
            uint32_t new_op = token(set ? spv::Op::OpSpecConstantTrue : spv::Op::OpSpecConstantFalse);
            out[pos] = (out[pos] & 0xffff0000u) | new_op;
            return;
        }
        auto type = types.find(words[pos + 1]);
        if (type == types.end() || bytes.empty() || bytes.size() > 8) return;
        // Literal words: narrower than 32 bits are zero- or sign-extended to one word (SPIR-V 2.2.1).
        uint64_t v = 0;
        std::memcpy(&v, bytes.data(), bytes.size());
        const uint32_t bits = uint32_t(bytes.size() * 8);
        if (bits < 64 && type->second.is_signed && (v >> (bits - 1)) & 1) v |= ~uint64_t(0) << bits;
        const uint32_t literal_words = bits > 32 ? 2 : 1;
        if (wc != 3 + literal_words) return;  // malformed: left to the build to report
        out[pos + 3] = uint32_t(v);
        if (literal_words == 2) out[pos + 4] = uint32_t(v >> 32);
    });
    return out;
}

}  // namespace refdev::icd
