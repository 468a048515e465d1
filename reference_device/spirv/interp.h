// Run-time state of a launch: lanes (invocations), work-group memory, bounds-checked memory access, and
// the per-family execute functions (instructions/) called from the interpreter loop. Internal.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "reference_device/spirv/module.h"

namespace refdev::spirv {

struct Frame {
    uint32_t ret_pc, res, size;
};

enum class LaneState : uint8_t { Running, AtCollective, Done };

struct Lane {
    uint8_t* regs = nullptr;
    uint8_t* priv = nullptr;
    uint8_t* builtins = nullptr;
    Frame* frames = nullptr;
    uint32_t depth = 0;
    uint32_t pc = 0;
    LaneState state = LaneState::Running;
    uint32_t sub_group = 0, sub_group_lane = 0, local_index = 0;
    uint64_t branch_budget = 0;  // branches left before the launch is stopped (0: unlimited)
};

struct Region {
    uint64_t lo, hi;  // [lo, hi)
    bool writable;
};

// Shared by every work-group of one launch.
struct LaunchShared {
    const Module* module = nullptr;
    const Kernel* kernel = nullptr;
    const Faults* faults = nullptr;
    const Profile* profile = nullptr;
    std::vector<Region> buffers;    // buffer arguments and constant data
    std::vector<ImageDesc> images;  // image arguments (registers hold pointers to these)
    uint8_t* constants = nullptr;   // the module's constant data, copied to an aligned arena (launch.cpp)
    std::mutex atomic_mutex;        // serializes atomics across work-groups
    std::atomic<bool> stop{false};
    std::mutex error_mutex;
    std::string error;
    uint64_t error_group = UINT64_MAX;  // linear id of the group that reported `error`
    NDRange range;
    size_t groups[3] = {1, 1, 1};
    uint32_t sub_group_size = 16;
    uint64_t branch_budget = 0;  // per work-item; 0: unlimited
    // printf: bytes kept so far (at most kPrintfBufferSize) and each work-group's output by linear id.
    std::atomic<size_t> printf_bytes{0};
    std::mutex printf_mutex;
    std::map<uint64_t, std::string> printf_output;
};

// One work-group being executed by one thread.
struct GroupRun {
    LaunchShared* shared = nullptr;
    const Module* m = nullptr;
    Lane* lanes = nullptr;
    uint32_t lane_count = 0;
    uint8_t* local = nullptr;
    size_t local_size = 0;
    size_t group[3] = {0, 0, 0};
    size_t local_dims[3] = {1, 1, 1};
    uint64_t group_linear = 0;
    bool failed = false;
    std::string error;
    // OpContext::faultState of each sub-group (keyed by its first lane); planted faults only.
    std::map<const Lane*, std::array<uint64_t, 4>> fault_state;  // 4: OpContext::kFaultStateSlots
    std::string printf_output;  // this work-group's printf output, handed to LaunchShared when it ends

    // Records the first error of this group, prefixed with kernel, instruction and work-item.
    void fail(const Lane& lane, const Insn& insn, const std::string& what);
    std::string workItem(const Lane& lane) const;

    // Host address for an access of `bytes` at `address`, or nullptr after reporting the violation.
    uint8_t* access(Lane& lane, const Insn& insn, uint64_t address, size_t bytes, bool write) {
        bool readonly = false;
        if (uint8_t* p = lookup(lane, address, bytes, write, &readonly)) return p;
        return accessError(lane, insn, address, bytes, write, readonly);
    }
    // The host address, or nullptr (with *readonly set when a write hit constant memory); reports nothing.
    uint8_t* lookup(const Lane& lane, uint64_t address, size_t bytes, bool write, bool* readonly) const {
        const uint64_t end = address + bytes;
        const uint64_t priv = uint64_t(uintptr_t(lane.priv));
        if (address >= priv && end <= priv + m->private_size && end >= address)
            return (uint8_t*)uintptr_t(address);
        for (const Region& r : shared->buffers)
            if (address >= r.lo && end <= r.hi && end >= address) {
                if (write && !r.writable) {
                    *readonly = true;
                    return nullptr;
                }
                return (uint8_t*)uintptr_t(address);
            }
        const uint64_t loc = uint64_t(uintptr_t(local));
        if (address >= loc && end <= loc + local_size && end >= address) return (uint8_t*)uintptr_t(address);
        const uint64_t bi = uint64_t(uintptr_t(lane.builtins));
        if (address >= bi && end <= bi + builtin::BlockSize && end >= address && !write)
            return (uint8_t*)uintptr_t(address);
        return nullptr;
    }
    uint8_t* accessError(Lane& lane, const Insn& insn, uint64_t address, size_t bytes, bool write,
                         bool readonly);
};

// Family execute functions (return false after reporting an error through GroupRun::fail).
void execInteger(const Insn& in, uint8_t* regs);
void execFloat(const Insn& in, uint8_t* regs);
void execConversion(const Insn& in, uint8_t* regs);
void execComposite(const Insn& in, const Module& m, uint8_t* regs);
// The index operand of OpVectorExtractDynamic / OpVectorInsertDynamic, read as unsigned.
uint64_t dynamicIndex(const Insn& in, const uint8_t* regs);
bool execMemory(const Insn& in, GroupRun& g, Lane& lane);
bool execAtomic(const Insn& in, GroupRun& g, Lane& lane);
bool execOclStd(const Insn& in, GroupRun& g, Lane& lane);
bool execPrintf(const Insn& in, GroupRun& g, Lane& lane);  // instructions/printf.cpp
// OpGroupAsyncCopy at `pc`, once for the whole work-group (every work-item waits there).
bool execAsyncCopy(GroupRun& g, uint32_t pc);
bool execImage(const Insn& in, GroupRun& g, Lane& lane);

// Runs one lane until it reaches a collective, returns from the kernel, or fails.
void runLane(GroupRun& g, Lane& lane);
// Executes the collective at `pc` for the lanes of one sub-group whose `active` flag is set.
bool execCollective(GroupRun& g, Lane* sub_group, uint32_t count, const uint8_t* active, uint32_t pc);
// One sub-group's part in a collective two sub-groups execute together (ExtOpInfo::execute_pair).
struct PairPart {
    Lane* lanes;
    uint32_t count;
    const uint8_t* active;
};
// Executes the pair collective at `pc` (an ExtOp with execute_pair) for two sub-groups, in sub-group order.
bool execPairCollective(GroupRun& g, const PairPart& first, const PairPart& second, uint32_t pc);
// The instruction is an extension instruction two sub-groups execute together.
inline bool pairCollective(const Module& m, const Insn& in) {
    return in.kind == Kind::ExtOp && m.ext_infos[in.a]->execute_pair != nullptr;
}

template <typename T>
inline T rd(const uint8_t* regs, uint32_t off) {
    T v;
    std::memcpy(&v, regs + off, sizeof(T));
    return v;
}
template <typename T>
inline void wr(uint8_t* regs, uint32_t off, T v) {
    std::memcpy(regs + off, &v, sizeof(T));
}

}  // namespace refdev::spirv
