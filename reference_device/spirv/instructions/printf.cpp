// OpenCL.std printf (instruction 184), as OpenCL C specifies it: the C99 conversions d i o u x X f F e E g G
// a A c s p and %%, flags, field width and precision (numbers or *), the length modifiers hh h l and, for
// vectors only, hl; a vector conversion (%v4hld) prints its components separated by commas. Each conversion
// is formatted by the host's snprintf with a specification rebuilt here, so the host never sees the
// kernel's format string. The output goes to the work-group's buffer (launch.cpp hands it to the API
// layer); printf returns 0, or -1 when the output no longer fits the launch's kPrintfBufferSize bytes.
// Formats C leaves undefined (a missing argument, a conversion that does not match its argument's type)
// fail the launch as undefined behaviour.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/half.h"
#include "reference_device/spirv/interp.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;

enum class Len { None, hh, h, hl, l };

unsigned lenBits(Len len) {
    return len == Len::hh ? 8 : len == Len::h ? 16 : len == Len::l ? 64 : 32;
}

// One conversion specification after the '%'.
struct Spec {
    std::string flags;
    long width = -1, precision = -1;  // -1: not given
    uint32_t vec = 0;                 // components of a vector conversion, 0 for a scalar
    Len len = Len::None;
    char conv = 0;
};

// snprintf of one value, appended to `out`.
template <typename T>
void appendFormatted(std::string& out, const std::string& spec, T value) {
    const int n = std::snprintf(nullptr, 0, spec.c_str(), value);
    if (n <= 0) return;
    const size_t at = out.size();
    out.resize(at + size_t(n) + 1);
    std::snprintf(&out[at], size_t(n) + 1, spec.c_str(), value);
    out.resize(at + size_t(n));
}

class Printer {
public:
    Printer(const Insn& in, GroupRun& g, Lane& lane)
        : in_(in), g_(g), lane_(lane), ops_(g.m->aux.data() + in.aux), count_(ops_[0]) {}

    // Formats the call into `out`; false after reporting undefined behaviour. *fits is false when the output
    // outgrew the printf buffer (printf then returns -1).
    bool format(std::string* out, bool* fits);

private:
    const Insn& in_;
    GroupRun& g_;
    Lane& lane_;
    const uint32_t* ops_;  // [count, (register, type index)*]
    uint32_t count_;
    uint32_t next_ = 1;  // next argument after the format

    const Type& type(uint32_t k) const { return g_.m->types[ops_[2 + 2 * k]]; }
    const uint8_t* value(uint32_t k) const { return lane_.regs + ops_[1 + 2 * k]; }
    bool fail(const std::string& why) {
        g_.fail(lane_, in_, "undefined behaviour: printf: " + why);
        return false;
    }
    bool nextArg(uint32_t* k, char conv) {
        if (next_ >= count_)
            return fail(std::string("%") + conv + " has no argument (the call passes " +
                        std::to_string(count_ - 1) + " after the format)");
        *k = next_++;
        return true;
    }
    // The NUL-terminated string at `address`, at most `limit` bytes of it.
    bool readString(uint64_t address, size_t limit, std::string* s, const char* what);
    bool number(const std::string& f, size_t* i, long* v, bool* star);
    bool convert(const Spec& s, std::string& out);
};

bool Printer::readString(uint64_t address, size_t limit, std::string* s, const char* what) {
    s->clear();
    for (uint64_t a = address; s->size() < limit; ++a) {
        bool readonly = false;
        const uint8_t* p = g_.lookup(lane_, a, 1, false, &readonly);
        if (!p) {
            char addr[32];
            std::snprintf(addr, sizeof addr, "0x%" PRIx64, address);
            return fail(std::string(what) + " at " + addr +
                        (address == 0 ? " is a null pointer" : " does not end inside readable memory"));
        }
        if (*p == 0) break;
        s->push_back(char(*p));
    }
    return true;
}

// A field width or precision: digits (-1 when there are none), or '*' taking an int argument (*star set).
bool Printer::number(const std::string& f, size_t* i, long* v, bool* star) {
    *star = *i < f.size() && f[*i] == '*';
    if (*star) {
        ++*i;
        uint32_t k;
        if (!nextArg(&k, '*')) return false;
        const Type& t = type(k);
        if (t.info.kind != K::Int || t.info.component_bits != 32)
            return fail("the argument of * in a field width or precision is not an int");
        *v = rd<int32_t>(value(k), 0);
        return true;
    }
    *v = -1;
    while (*i < f.size() && f[*i] >= '0' && f[*i] <= '9') {
        *v = std::min<long>(std::max<long>(*v, 0) * 10 + (f[*i] - '0'), long(kPrintfBufferSize) + 1);
        ++*i;
    }
    return true;
}

bool Printer::convert(const Spec& s, std::string& out) {
    const char c = s.conv;
    const bool integer = std::strchr("diouxX", c) != nullptr,
               floating = std::strchr("fFeEgGaA", c) != nullptr;
    if (!integer && !floating && !std::strchr("csp", c))
        return fail(std::string("%") + c + " is not a conversion of OpenCL C printf");
    if (s.vec && !integer && !floating) return fail(std::string("%") + c + " takes no vector specifier");
    if (s.vec && s.len == Len::None)
        return fail("the vector conversion %v" + std::to_string(s.vec) + c + " has no length modifier");
    if (!s.vec && s.len == Len::hl) return fail("the length modifier hl is for vector conversions only");
    uint32_t k;
    if (!nextArg(&k, c)) return false;
    const Type& t = type(k);
    const std::string arg = "argument " + std::to_string(k) + " (" + t.name + ")";
    std::string spec = "%" + s.flags;
    if (s.width >= 0) spec += std::to_string(s.width);
    if (s.precision >= 0 && c != 'c' && c != 'p') spec += "." + std::to_string(s.precision);
    if (c == 'c' || c == 's' || c == 'p') {
        if (s.len != Len::None) return fail(std::string("%") + c + " takes no length modifier");
        spec += c;
        if (c == 'c') {
            if (t.info.kind != K::Int) return fail("%c needs an integer, " + arg + " is not");
            appendFormatted(out, spec, int(static_cast<unsigned char>(value(k)[0])));
            return true;
        }
        if (t.info.kind != K::Pointer)
            return fail(std::string("%") + c + " needs a pointer, " + arg + " is not");
        const uint64_t p = rd<uint64_t>(value(k), 0);
        if (c == 'p') {
            appendFormatted(out, spec, reinterpret_cast<void*>(uintptr_t(p)));
            return true;
        }
        std::string str;
        const size_t limit = s.precision >= 0 ? size_t(s.precision) : kPrintfBufferSize + 1;
        if (!readString(p, limit, &str, "the %s string")) return false;
        appendFormatted(out, spec, str.c_str());
        return true;
    }
    // Numbers: the argument's kind and shape must match the conversion.
    const bool is_vector = t.info.kind == K::Vector;
    if ((integer ? !isInt(t) : !isFloat(t)) || (s.vec != 0) != is_vector)
        return fail(std::string("%") + (s.vec ? "v" + std::to_string(s.vec) : "") + c + " does not match " +
                    arg);
    const uint32_t n = t.info.components, bits = t.info.component_bits;
    if (s.vec && n != s.vec) return fail("%v" + std::to_string(s.vec) + c + " does not match " + arg);
    if (s.vec && bits != (floating && s.len == Len::h ? 16u : lenBits(s.len)))
        return fail("the length modifier does not match the component type of " + arg);
    if (!s.vec && floating && s.len != Len::None && s.len != Len::l)
        return fail(std::string("%") + c + " takes no length modifier but l");
    spec += integer ? std::string("ll") + c : std::string(1, c);
    const unsigned target = lenBits(s.len);
    const bool is_signed = c == 'd' || c == 'i';
    for (uint32_t i = 0; i < n; ++i) {
        if (i) out += ',';
        const uint8_t* p = value(k) + i * (bits / 8);
        if (floating) {
            const double v = bits == 16   ? double(halfToFloat(rd<uint16_t>(p, 0)))
                             : bits == 32 ? double(rd<float>(p, 0))
                                          : rd<double>(p, 0);
            appendFormatted(out, spec, v);
            continue;
        }
        // The argument's value (extended as the conversion reads it), then converted to the modifier's type.
        uint64_t v = 0;
        std::memcpy(&v, p, bits / 8);
        if (is_signed && bits < 64) v = uint64_t(int64_t(v << (64 - bits)) >> (64 - bits));
        if (target < 64)
            v = is_signed ? uint64_t(int64_t(v << (64 - target)) >> (64 - target))
                          : v & ((uint64_t(1) << target) - 1);
        if (is_signed)
            appendFormatted(out, spec, static_cast<long long>(v));
        else
            appendFormatted(out, spec, static_cast<unsigned long long>(v));
        if (out.size() > kPrintfBufferSize) return true;
    }
    return true;
}

bool Printer::format(std::string* out, bool* fits) {
    std::string f;
    if (!readString(rd<uint64_t>(value(0), 0), kPrintfBufferSize, &f, "the format")) return false;
    *fits = true;
    for (size_t i = 0; i < f.size();) {
        if (f[i] != '%') {
            *out += f[i++];
            continue;
        }
        ++i;
        if (i < f.size() && f[i] == '%') {
            *out += f[i++];
            continue;
        }
        Spec s;
        while (i < f.size() && f[i] && std::strchr("-+ #0", f[i])) s.flags += f[i++];
        bool star = false;
        if (!number(f, &i, &s.width, &star)) return false;
        if (star && s.width < 0) {  // a negative * width: the '-' flag and its magnitude
            s.flags += '-';
            s.width = -s.width;
        }
        if (i < f.size() && f[i] == '.') {
            ++i;
            if (!number(f, &i, &s.precision, &star)) return false;
            if (star && s.precision < 0) s.precision = -1;  // a negative * precision: as if none
            if (!star && s.precision < 0) s.precision = 0;  // a lone '.': precision 0
        }
        if (i < f.size() && f[i] == 'v') {
            ++i;
            long n = 0;
            while (i < f.size() && f[i] >= '0' && f[i] <= '9' && n < 100) n = n * 10 + (f[i++] - '0');
            if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
                return fail("vector specifier v" + std::to_string(n) + " (2, 3, 4, 8 or 16)");
            s.vec = uint32_t(n);
        }
        if (f.compare(i, 2, "hh") == 0) {
            s.len = Len::hh;
            i += 2;
        } else if (f.compare(i, 2, "hl") == 0) {
            s.len = Len::hl;
            i += 2;
        } else if (i < f.size() && (f[i] == 'h' || f[i] == 'l')) {
            s.len = f[i++] == 'h' ? Len::h : Len::l;
        }
        if (i >= f.size()) return fail("the format ends inside a conversion specification");
        s.conv = f[i++];
        // Wider than the buffer: the output cannot fit.
        if (s.width > long(kPrintfBufferSize) || s.precision > long(kPrintfBufferSize)) {
            *fits = false;
            return true;
        }
        if (!convert(s, *out)) return false;
        if (out->size() > kPrintfBufferSize) {
            *fits = false;
            return true;
        }
    }
    return true;
}

}  // namespace

bool decodePrintf(DecodeCtx& c, Insn in) {
    const Type& rt = c.type(c.ids[c.word(2)].type);
    if (rt.info.kind != K::Int || rt.info.component_bits != 32)
        return c.fail("printf's Result Type must be a 32-bit integer");
    if (c.words() < 6) return c.fail("printf takes a format");
    in.res = c.reg(c.word(2));
    in.aux = uint32_t(c.m.aux.size());
    c.m.aux.push_back(c.words() - 5);
    for (uint32_t w = 5; w < c.words(); ++w) {
        const uint32_t t = c.valueType(c.word(w), w == 5 ? "format" : "argument");
        if (t == UINT32_MAX) return false;
        const Type& ty = c.type(t);
        if (w == 5 && (ty.info.kind != K::Pointer || ty.elem == UINT32_MAX ||
                       c.type(ty.elem).info.kind != K::Int || c.type(ty.elem).info.component_bits != 8))
            return c.fail("printf's format is not a pointer to 8-bit integers");
        if (w > 5 && !isInt(ty) && !isFloat(ty) && ty.info.kind != K::Pointer)
            return c.fail("printf argument " + std::to_string(w - 5) + " (" + ty.name +
                          ") is not a number, a vector of numbers or a pointer");
        c.m.aux.insert(c.m.aux.end(), {c.reg(c.word(w)), t});
    }
    c.emit(in);
    return true;
}

bool execPrintf(const Insn& in, GroupRun& g, Lane& lane) {
    std::string out;
    bool fits = true;
    if (!Printer(in, g, lane).format(&out, &fits)) return false;
    // Reserve the output's bytes in the launch's buffer; a call that no longer fits writes nothing.
    size_t used = g.shared->printf_bytes.load(std::memory_order_relaxed);
    while (fits) {
        if (out.size() > kPrintfBufferSize - used) {
            fits = false;
            break;
        }
        if (g.shared->printf_bytes.compare_exchange_weak(used, used + out.size())) break;
    }
    if (fits) g.printf_output += out;
    wr<int32_t>(lane.regs, in.res, fits ? 0 : -1);
    return true;
}

}  // namespace refdev::spirv
