#include "test_common/spirv/module.h"

#include <fstream>
#include <iterator>

#include "test_common/spirv/spirv_headers.h"

namespace cts {

namespace {

void resultShape(uint16_t opcode, bool* has_result, bool* has_type) {
    *has_result = false;
    *has_type = false;
    spv::HasResultAndType(static_cast<spv::Op>(opcode), has_result, has_type);
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
        case spv::OpCapability:
            need(inst, 2, "OpCapability");
            capabilities_.insert(o[1]);
            capability_offsets_.emplace(o[1], inst.offset);
            break;
        case spv::OpExtension:
            need(inst, 2, "OpExtension");
            extensions_.push_back(decodeLiteralString(o, 1, inst.offset, nullptr));
            break;
        case spv::OpMemoryModel:
            need(inst, 3, "OpMemoryModel");
            addressing_model_ = o[1];
            memory_model_ = o[2];
            memory_model_offset_ = inst.offset;
            break;
        case spv::OpEntryPoint: {
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
        case spv::OpExecutionMode:
        case spv::OpExecutionModeId: {
            need(inst, 3, "OpExecutionMode");
            SpirvExecutionMode em;
            em.entry_point = o[1];
            em.mode = o[2];
            em.literals.assign(o.begin() + 3, o.end());
            em.is_id = inst.opcode == spv::OpExecutionModeId;
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
        case spv::OpTypeVoid: t.kind = SpirvType::Kind::Void; break;
        case spv::OpTypeBool: t.kind = SpirvType::Kind::Bool; break;
        case spv::OpTypeInt:
            need(inst, 4, "OpTypeInt");
            t.kind = SpirvType::Kind::Int;
            t.width = o[2];
            t.is_signed = o[3] != 0;
            break;
        case spv::OpTypeFloat:
            need(inst, 3, "OpTypeFloat");
            t.kind = SpirvType::Kind::Float;
            t.width = o[2];
            break;
        case spv::OpTypeVector:
            need(inst, 4, "OpTypeVector");
            t.kind = SpirvType::Kind::Vector;
            t.component_type = o[2];
            t.component_count = o[3];
            break;
        case spv::OpTypeArray:
            need(inst, 4, "OpTypeArray");
            t.kind = SpirvType::Kind::Array;
            t.component_type = o[2];
            t.component_count = o[3];
            break;
        case spv::OpTypeRuntimeArray:
            need(inst, 3, "OpTypeRuntimeArray");
            t.kind = SpirvType::Kind::Array;
            t.component_type = o[2];
            break;
        case spv::OpTypePointer:
            need(inst, 4, "OpTypePointer");
            t.kind = SpirvType::Kind::Pointer;
            t.storage_class = o[2];
            t.component_type = o[3];
            break;
        case spv::OpTypeStruct: t.kind = SpirvType::Kind::Struct; break;
        case spv::OpTypeFunction: t.kind = SpirvType::Kind::Function; break;
        case spv::OpTypeImage: t.kind = SpirvType::Kind::Image; break;
        case spv::OpTypeSampler: t.kind = SpirvType::Kind::Sampler; break;
        case spv::OpTypeSampledImage: t.kind = SpirvType::Kind::SampledImage; break;
        case spv::OpTypeEvent: t.kind = SpirvType::Kind::Event; break;
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
    if (!def || def->opcode != spv::OpConstant) return std::nullopt;
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
