// Shared by the standalone fuzz drivers (loader_fuzz.cpp, launch_fuzz.cpp): a deterministic random source,
// reading a module's words, and the word-level mutations of a SPIR-V module (bit flips, truncation, word
// replacement, word-count edits, id-like values, chunk deletion and duplication).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace refdev::fuzz {

struct Rng {  // xorshift64*: deterministic for a given seed
    uint64_t s;
    uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ull;
    }
    uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }
};

// The file's bytes as little-endian words (a trailing partial word is dropped); empty if unreadable.
inline std::vector<uint32_t> readWords(const char* path) {
    std::ifstream f(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> w(bytes.size() / 4);
    if (!w.empty()) std::memcpy(w.data(), bytes.data(), w.size() * 4);
    return w;
}

inline void mutateWords(std::vector<uint32_t>& w, Rng& rng) {
    if (w.empty()) {
        w.push_back(uint32_t(rng.next()));
        return;
    }
    static const uint32_t interesting[] = {
        0,          1,          2,          3,          0xffff, 0x10000, 0xffffffff, 0x7fffffff,
        0x80000000, 0x07230203, 0x00010000, 0x00010400, 16,     24,      32,         64};
    switch (rng.below(8)) {
        case 0: w[rng.below(uint32_t(w.size()))] ^= 1u << rng.below(32); break;        // bit flip
        case 1: w.resize(rng.below(uint32_t(w.size()))); break;                        // truncation
        case 2: w[rng.below(uint32_t(w.size()))] = interesting[rng.below(16)]; break;  // word replacement
        case 3: w[rng.below(uint32_t(w.size()))] = uint32_t(rng.next()); break;
        case 4: {  // word count field of some word
            uint32_t& x = w[rng.below(uint32_t(w.size()))];
            x = (x & 0xffff) | (rng.below(8) << 16);
            break;
        }
        case 5: {  // small id-like values (likely to alias real ids)
            if (w.size() > 5) w[5 + rng.below(uint32_t(w.size() - 5))] = rng.below(w[3] + 2);
            break;
        }
        case 6: {  // delete a chunk
            size_t at = rng.below(uint32_t(w.size())), n = 1 + rng.below(8);
            w.erase(w.begin() + at, w.begin() + std::min(w.size(), at + n));
            break;
        }
        default: {  // duplicate a chunk elsewhere
            size_t at = rng.below(uint32_t(w.size())), n = 1 + rng.below(8);
            std::vector<uint32_t> chunk(w.begin() + at, w.begin() + std::min(w.size(), at + n));
            w.insert(w.begin() + rng.below(uint32_t(w.size())), chunk.begin(), chunk.end());
            break;
        }
    }
}

}  // namespace refdev::fuzz
