// A read-only view of a SPIR-V binary module for the suite's own rule checks.
//
// SpirvModule::parse never crashes on malformed input: anything it cannot make sense of (bad magic, a
// truncated instruction, a zero word count, an id at or above the bound, a string without terminator)
// throws SpirvParseError naming the word offset. Instructions it does not know are kept as raw words, so
// modules using opcodes unknown to the SPIR-V headers still parse.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cts {

struct SpirvParseError : std::runtime_error {
    SpirvParseError(const std::string& what, uint32_t word_offset)
        : std::runtime_error(what + " (word " + std::to_string(word_offset) + ")"),
          word_offset(word_offset) {}
    uint32_t word_offset;
};

struct SpirvInstruction {
    uint16_t opcode = 0;
    uint32_t offset = 0;          // word offset of the first word within the module
    std::vector<uint32_t> words;  // all words, including the opcode/word-count word
    uint32_t result_type = 0;     // 0 when the opcode has none
    uint32_t result_id = 0;       // 0 when the opcode has none

    // Operand words after the result type and result id (for opcodes without those: after word 0).
    size_t firstOperand() const { return 1 + (result_type ? 1 : 0) + (result_id ? 1 : 0); }
    size_t operandCount() const { return words.size() - firstOperand(); }
    uint32_t operand(size_t i) const { return words.at(firstOperand() + i); }
};

// What a type id denotes, for the kinds the rules look at.
struct SpirvType {
    enum class Kind {
        Void,
        Bool,
        Int,
        Float,
        Vector,
        Pointer,
        Array,
        Struct,
        Function,
        Image,
        Sampler,
        SampledImage,
        Event,
        Other
    };
    Kind kind = Kind::Other;
    uint32_t width = 0;            // Int/Float: bits
    bool is_signed = false;        // Int: signedness operand
    uint32_t component_type = 0;   // Vector/Array: element type id; Pointer: pointee type id
    uint32_t component_count = 0;  // Vector: component count; Array: length constant id
    uint32_t storage_class = 0;    // Pointer
};

struct SpirvEntryPoint {
    uint32_t execution_model = 0;
    uint32_t function_id = 0;
    std::string name;
    std::vector<uint32_t> interface;
    uint32_t offset = 0;
};

struct SpirvExecutionMode {
    uint32_t entry_point = 0;
    uint32_t mode = 0;
    std::vector<uint32_t> literals;  // OpExecutionMode literals; for OpExecutionModeId the operand ids
    bool is_id = false;              // from OpExecutionModeId
    uint32_t offset = 0;
};

class SpirvModule {
public:
    static constexpr uint32_t kMagic = 0x07230203;

    // Throws SpirvParseError for malformed modules.
    static SpirvModule parse(const std::vector<uint32_t>& words);
    // Reads a file of little-endian words (a byte-swapped magic is accepted too). Throws SpirvParseError
    // when the file cannot be read or its size is not a multiple of four.
    static SpirvModule fromFile(const std::string& path);

    uint32_t version() const { return version_; }  // header word 1, e.g. 0x00010200 for SPIR-V 1.2
    uint32_t versionMajor() const { return (version_ >> 16) & 0xff; }
    uint32_t versionMinor() const { return (version_ >> 8) & 0xff; }
    uint32_t generator() const { return generator_; }
    uint32_t bound() const { return bound_; }

    const std::vector<SpirvInstruction>& instructions() const { return instructions_; }
    // The instruction whose result id is `id`, or nullptr.
    const SpirvInstruction* definition(uint32_t id) const;
    // Type info for a type id, or nullptr when `id` is not a type this parser records.
    const SpirvType* type(uint32_t id) const;
    // The type of the value `id` (its defining instruction's result type), or nullptr.
    const SpirvType* typeOfValue(uint32_t id) const;
    // Value of an OpConstant of integer type up to 64 bits wide (zero-extended), or nothing when `id` is
    // not such a constant (a spec constant is not a constant here).
    std::optional<uint64_t> intConstant(uint32_t id) const;

    const std::set<uint32_t>& capabilities() const { return capabilities_; }
    bool hasCapability(uint32_t capability) const { return capabilities_.count(capability) != 0; }
    // Offset of the first OpCapability declaring `capability`, or 0.
    uint32_t capabilityOffset(uint32_t capability) const;
    const std::vector<std::string>& extensions() const { return extensions_; }
    bool hasExtension(const std::string& name) const;
    const std::vector<SpirvEntryPoint>& entryPoints() const { return entry_points_; }
    const std::vector<SpirvExecutionMode>& executionModes() const { return execution_modes_; }

    bool hasMemoryModel() const { return memory_model_offset_ != 0; }
    uint32_t addressingModel() const { return addressing_model_; }
    uint32_t memoryModel() const { return memory_model_; }
    uint32_t memoryModelOffset() const { return memory_model_offset_; }

private:
    void index(SpirvInstruction& inst);

    uint32_t version_ = 0, generator_ = 0, bound_ = 0;
    std::vector<SpirvInstruction> instructions_;
    std::map<uint32_t, size_t> definitions_;  // result id -> index into instructions_
    std::map<uint32_t, SpirvType> types_;
    std::set<uint32_t> capabilities_;
    std::map<uint32_t, uint32_t> capability_offsets_;
    std::vector<std::string> extensions_;
    std::vector<SpirvEntryPoint> entry_points_;
    std::vector<SpirvExecutionMode> execution_modes_;
    uint32_t addressing_model_ = 0, memory_model_ = 0, memory_model_offset_ = 0;
};

// Decodes a nul-terminated literal string starting at words[first]; throws SpirvParseError (at `offset`
// + first) when no terminator is found. *next receives the index of the word after the string.
std::string decodeLiteralString(const std::vector<uint32_t>& words, size_t first, uint32_t offset,
                                size_t* next);

}  // namespace cts
