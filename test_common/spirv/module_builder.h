// Builds small SPIR-V binaries word by word for unit tests of the checker and its rule sets, including
// opcodes the installed SPIRV-Tools cannot assemble.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace cts::test {

class ModuleBuilder {
public:
    explicit ModuleBuilder(uint32_t version = 0x00010200) : version_(version) {}

    uint32_t newId() { return next_id_++; }

    // Appends one instruction; operands may mix ids, literals and words from str().
    ModuleBuilder& op(uint16_t opcode, std::vector<uint32_t> operands = {}) {
        body_.push_back(uint32_t(operands.size() + 1) << 16 | opcode);
        body_.insert(body_.end(), operands.begin(), operands.end());
        return *this;
    }

    // Nul-terminated, zero-padded literal string words.
    static std::vector<uint32_t> str(const std::string& s) {
        std::vector<uint32_t> w((s.size() + 4) / 4, 0);
        for (size_t i = 0; i < s.size(); ++i) w[i / 4] |= uint32_t(uint8_t(s[i])) << (8 * (i % 4));
        return w;
    }
    static std::vector<uint32_t> cat(std::initializer_list<std::vector<uint32_t>> parts) {
        std::vector<uint32_t> out;
        for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
        return out;
    }

    std::vector<uint32_t> words() const {
        std::vector<uint32_t> w = {0x07230203, version_, 0x00070000, next_id_, 0};
        w.insert(w.end(), body_.begin(), body_.end());
        return w;
    }

private:
    uint32_t version_;
    uint32_t next_id_ = 1;
    std::vector<uint32_t> body_;
};

}  // namespace cts::test
