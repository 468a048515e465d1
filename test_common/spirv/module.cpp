#include "test_common/spirv/module.h"

#include <fstream>
#include <iterator>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

#include "test_common/spirv/tokens.h"

namespace cts {

namespace {

// Core opcodes the parser indexes (the C++ header's enum class is awkward to switch on).
namespace op {
constexpr uint16_t Extension = 10, MemoryModel = 14, EntryPoint = 15, ExecutionMode = 16, Capability = 17,
                   TypeVoid = 19, TypeBool = 20, TypeInt = 21, TypeFloat = 22, TypeVector = 23,
                   TypeImage = 25, TypeSampler = 26, TypeSampledImage = 27, TypeArray = 28,
                   TypeRuntimeArray = 29, TypeStruct = 30, TypePointer = 32, TypeFunction = 33,
                   TypeEvent = 34, Constant = 43, ExecutionModeId = 331;
}  // namespace op

// Opcodes newer than the installed SPIR-V headers that produce a result.
void resultShape(uint16_t opcode, bool* has_result, bool* has_type) {
    *has_result = false;
    *has_type = false;
    if (opcode == spv::OpSubgroupMatrixMultiplyAccumulateINTEL) {
        *has_result = *has_type = true;
        return;
    }
    // The 2D block load/prefetch/store opcodes (6231-6235) write through a pointer and have no result.
    if (opcode >= spv::OpSubgroup2DBlockLoadINTEL && opcode <= spv::OpSubgroup2DBlockStoreINTEL) return;
    ::spv::HasResultAndType(static_cast<::spv::Op>(opcode), has_result, has_type);
}

void need(const SpirvInstruction& inst, size_t words, const char* what) {
    if (inst.words.size() < words)
        throw SpirvParseError(std::string(what) + " has " + std::to_string(inst.words.size()) +
                                  " words, needs at least " + std::to_string(words),
                              inst.offset);
}

uint32_t swapWord(uint32_t w) {
    return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
}

}  // namespace

std::string decodeLiteralString(const std::vector<uint32_t>& words, size_t first, uint32_t offset,
                                size_t* next) {
    std::string out;
    for (size_t i = first; i < words.size(); ++i) {
        for (int b = 0; b < 4; ++b) {
            char c = static_cast<char>((words[i] >> (8 * b)) & 0xff);
            if (c == '\0') {
                if (next) *next = i + 1;
                return out;
            }
            out.push_back(c);
        }
    }
    throw SpirvParseError("literal string without nul terminator", offset + static_cast<uint32_t>(first));
}

SpirvModule SpirvModule::fromFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SpirvParseError("cannot open " + path, 0);
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() % 4 != 0)
        throw SpirvParseError(path + ": size " + std::to_string(bytes.size()) + " is not a multiple of 4", 0);
    std::vector<uint32_t> words(bytes.size() / 4);
    for (size_t i = 0; i < words.size(); ++i)
        words[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 |
                   uint32_t(bytes[4 * i + 2]) << 16 | uint32_t(bytes[4 * i + 3]) << 24;
    if (!words.empty() && words[0] == swapWord(kMagic))
        for (auto& w : words) w = swapWord(w);
    return parse(words);
}

SpirvModule SpirvModule::parse(const std::vector<uint32_t>& words) {
    if (words.size() < 5)
        throw SpirvParseError("module has " + std::to_string(words.size()) + " words, a header needs 5", 0);
    if (words[0] != kMagic) throw SpirvParseError("bad magic number", 0);
    SpirvModule m;
    m.version_ = words[1];
    m.generator_ = words[2];
    m.bound_ = words[3];
    if (m.bound_ == 0) throw SpirvParseError("id bound is 0", 3);
    if (words[4] != 0) throw SpirvParseError("reserved header word (schema) is not 0", 4);

    size_t pos = 5;
    while (pos < words.size()) {
        uint32_t count = words[pos] >> 16;
        SpirvInstruction inst;
        inst.opcode = static_cast<uint16_t>(words[pos] & 0xffff);
        inst.offset = static_cast<uint32_t>(pos);
        if (count == 0) throw SpirvParseError("instruction word count is 0", inst.offset);
        if (pos + count > words.size())
            throw SpirvParseError("instruction (opcode " + std::to_string(inst.opcode) + ") with " +
                                      std::to_string(count) + " words runs past the end of the module",
                                  inst.offset);
        inst.words.assign(words.begin() + pos, words.begin() + pos + count);
        m.index(inst);
        m.instructions_.push_back(std::move(inst));
        pos += count;
    }
    return m;
}

void SpirvModule::index(SpirvInstruction& inst) {
    bool has_result = false, has_type = false;
    resultShape(inst.opcode, &has_result, &has_type);
    size_t w = 1;
    if (has_type) {
        need(inst, w + 1, "instruction");
        inst.result_type = inst.words[w++];
        if (inst.result_type == 0 || inst.result_type >= bound_)
            throw SpirvParseError(
                "result type id " + std::to_string(inst.result_type) + " is outside the bound", inst.offset);
    }
    if (has_result) {
        need(inst, w + 1, "instruction");
        inst.result_id = inst.words[w++];
        if (inst.result_id == 0 || inst.result_id >= bound_)
            throw SpirvParseError("result id " + std::to_string(inst.result_id) + " is outside the bound " +
                                      std::to_string(bound_),
                                  inst.offset);
        if (definitions_.count(inst.result_id))
            throw SpirvParseError("result id %" + std::to_string(inst.result_id) + " is defined twice",
                                  inst.offset);
        definitions_[inst.result_id] = instructions_.size();
    }

    const auto& o = inst.words;
    switch (inst.opcode) {
        case op::Capability:
            need(inst, 2, "OpCapability");
            capabilities_.insert(o[1]);
            capability_offsets_.emplace(o[1], inst.offset);
            break;
        case op::Extension:
            need(inst, 2, "OpExtension");
            extensions_.push_back(decodeLiteralString(o, 1, inst.offset, nullptr));
            break;
        case op::MemoryModel:
            need(inst, 3, "OpMemoryModel");
            addressing_model_ = o[1];
            memory_model_ = o[2];
            memory_model_offset_ = inst.offset;
            break;
        case op::EntryPoint: {
            need(inst, 4, "OpEntryPoint");
            SpirvEntryPoint ep;
            ep.execution_model = o[1];
            ep.function_id = o[2];
            size_t next = 0;
            ep.name = decodeLiteralString(o, 3, inst.offset, &next);
            ep.interface.assign(o.begin() + next, o.end());
            ep.offset = inst.offset;
            entry_points_.push_back(std::move(ep));
            break;
        }
        case op::ExecutionMode:
        case op::ExecutionModeId: {
            need(inst, 3, "OpExecutionMode");
            SpirvExecutionMode em;
            em.entry_point = o[1];
            em.mode = o[2];
            em.literals.assign(o.begin() + 3, o.end());
            em.is_id = inst.opcode == op::ExecutionModeId;
            em.offset = inst.offset;
            execution_modes_.push_back(std::move(em));
            break;
        }
        default: break;
    }

    if (!has_result || has_type) return;
    // Type declarations (result id, no result type).
    SpirvType t;
    switch (inst.opcode) {
        case op::TypeVoid: t.kind = SpirvType::Kind::Void; break;
        case op::TypeBool: t.kind = SpirvType::Kind::Bool; break;
        case op::TypeInt:
            need(inst, 4, "OpTypeInt");
            t.kind = SpirvType::Kind::Int;
            t.width = o[2];
            t.is_signed = o[3] != 0;
            break;
        case op::TypeFloat:
            need(inst, 3, "OpTypeFloat");
            t.kind = SpirvType::Kind::Float;
            t.width = o[2];
            break;
        case op::TypeVector:
            need(inst, 4, "OpTypeVector");
            t.kind = SpirvType::Kind::Vector;
            t.component_type = o[2];
            t.component_count = o[3];
            break;
        case op::TypeArray:
            need(inst, 4, "OpTypeArray");
            t.kind = SpirvType::Kind::Array;
            t.component_type = o[2];
            t.component_count = o[3];
            break;
        case op::TypeRuntimeArray:
            need(inst, 3, "OpTypeRuntimeArray");
            t.kind = SpirvType::Kind::Array;
            t.component_type = o[2];
            break;
        case op::TypePointer:
            need(inst, 4, "OpTypePointer");
            t.kind = SpirvType::Kind::Pointer;
            t.storage_class = o[2];
            t.component_type = o[3];
            break;
        case op::TypeStruct: t.kind = SpirvType::Kind::Struct; break;
        case op::TypeFunction: t.kind = SpirvType::Kind::Function; break;
        case op::TypeImage: t.kind = SpirvType::Kind::Image; break;
        case op::TypeSampler: t.kind = SpirvType::Kind::Sampler; break;
        case op::TypeSampledImage: t.kind = SpirvType::Kind::SampledImage; break;
        case op::TypeEvent: t.kind = SpirvType::Kind::Event; break;
        default: return;  // not a type
    }
    types_[inst.result_id] = t;
}

const SpirvInstruction* SpirvModule::definition(uint32_t id) const {
    auto it = definitions_.find(id);
    return it == definitions_.end() ? nullptr : &instructions_[it->second];
}

const SpirvType* SpirvModule::type(uint32_t id) const {
    auto it = types_.find(id);
    return it == types_.end() ? nullptr : &it->second;
}

const SpirvType* SpirvModule::typeOfValue(uint32_t id) const {
    const SpirvInstruction* def = definition(id);
    return def && def->result_type ? type(def->result_type) : nullptr;
}

std::optional<uint64_t> SpirvModule::intConstant(uint32_t id) const {
    const SpirvInstruction* def = definition(id);
    if (!def || def->opcode != op::Constant) return std::nullopt;
    const SpirvType* t = type(def->result_type);
    if (!t || t->kind != SpirvType::Kind::Int || t->width == 0 || t->width > 64) return std::nullopt;
    size_t value_words = t->width > 32 ? 2 : 1;
    if (def->words.size() != 3 + value_words) return std::nullopt;
    uint64_t v = def->words[3];
    if (value_words == 2) v |= uint64_t(def->words[4]) << 32;
    if (t->width < 64) v &= (uint64_t(1) << t->width) - 1;
    return v;
}

uint32_t SpirvModule::capabilityOffset(uint32_t capability) const {
    auto it = capability_offsets_.find(capability);
    return it == capability_offsets_.end() ? 0 : it->second;
}

bool SpirvModule::hasExtension(const std::string& name) const {
    for (const auto& e : extensions_)
        if (e == name) return true;
    return false;
}

}  // namespace cts
