#pragma once
// The range a parameter's values must lie in, as data: the reader checks it (and quotes it in
// its one-line error), the viewer's widgets take their limits from it and the parameter
// reference prints it. One description, three uses, so they cannot disagree.

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace snowcap {

// Shortest text that reads back as the same double: "1.5", not "1.500000".
inline std::string show(double value) {
    std::array<char, 32> text{};
    const auto end = std::to_chars(text.data(), text.data() + text.size(), value).ptr;
    return std::string(text.data(), end);
}

struct Range {
    enum class Kind {
        Any,              // every finite number
        Greater,          // (low, inf)
        AtLeast,          // [low, inf)
        Closed,           // [low, high]
        AboveUpTo,        // (low, high]
        IntegerBetween,   // [low, high], integers
        PowerOfTwo,       // a power of two in [low, high]
        ZeroOrPowerOfTwo, // 0 (use the shared snow.resolution) or a power of two in [low, high]
    };
    Kind kind = Kind::Any;
    double low = -std::numeric_limits<double>::infinity();
    double high = std::numeric_limits<double>::infinity();

    bool holds(double value) const {
        const auto isPowerOfTwo = [&] {
            const auto v = static_cast<std::int64_t>(value);
            return double(v) == value && v >= low && v <= high && (v & (v - 1)) == 0;
        };
        switch (kind) {
        case Kind::Any:
            return true;
        case Kind::Greater:
            return value > low;
        case Kind::AtLeast:
            return value >= low;
        case Kind::Closed:
        case Kind::IntegerBetween:
            return value >= low && value <= high;
        case Kind::AboveUpTo:
            return value > low && value <= high;
        case Kind::PowerOfTwo:
            return isPowerOfTwo();
        case Kind::ZeroOrPowerOfTwo:
            return value == 0.0 || isPowerOfTwo();
        }
        return false;
    }

    // What the error message says after "key 'a.b': ", before ", got VALUE".
    std::string rule() const {
        const std::string lo = integerText(low), hi = integerText(high);
        switch (kind) {
        case Kind::Any:
            return "";
        case Kind::Greater:
            return "must be greater than " + show(low);
        case Kind::AtLeast:
            return "must be at least " + show(low);
        case Kind::Closed:
            return "must be in [" + show(low) + ", " + show(high) + "]";
        case Kind::AboveUpTo:
            return "must be in (" + show(low) + ", " + show(high) + "]";
        case Kind::IntegerBetween:
            return "must be between " + lo + " and " + hi;
        case Kind::PowerOfTwo:
            return "must be a power of two between " + lo + " and " + hi;
        case Kind::ZeroOrPowerOfTwo:
            return "must be 0 (use snow.resolution) or a power of two between " + lo + " and " + hi;
        }
        return "";
    }

    // The range as the parameter reference prints it: "(0, 1]", "> 0", "2^k in [64, 8192]".
    std::string text() const {
        const std::string lo = integerText(low), hi = integerText(high);
        switch (kind) {
        case Kind::Any:
            return "any";
        case Kind::Greater:
            return "> " + show(low);
        case Kind::AtLeast:
            return ">= " + show(low);
        case Kind::Closed:
            return "[" + show(low) + ", " + show(high) + "]";
        case Kind::AboveUpTo:
            return "(" + show(low) + ", " + show(high) + "]";
        case Kind::IntegerBetween:
            return lo + " .. " + hi;
        case Kind::PowerOfTwo:
            return "2^k in " + lo + " .. " + hi;
        case Kind::ZeroOrPowerOfTwo:
            return "0 or 2^k in " + lo + " .. " + hi;
        }
        return "";
    }

    bool lowOpen() const { return kind == Kind::Greater || kind == Kind::AboveUpTo; }
    bool bounded() const { return std::isfinite(low) && std::isfinite(high); }

private:
    static std::string integerText(double value) {
        return std::isfinite(value) ? std::to_string(static_cast<std::int64_t>(value))
                                    : show(value);
    }
};

inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline Range anyNumber() {
    return {};
}
inline Range positive() {
    return {Range::Kind::Greater, 0.0, kInf};
}
inline Range nonNegative() {
    return {Range::Kind::AtLeast, 0.0, kInf};
}
inline Range atLeast(double low) {
    return {Range::Kind::AtLeast, low, kInf};
}
inline Range between(double low, double high) {
    return {Range::Kind::Closed, low, high};
}
inline Range aboveUpTo(double low, double high) {
    return {Range::Kind::AboveUpTo, low, high};
}
inline Range integerBetween(double low, double high) {
    return {Range::Kind::IntegerBetween, low, high};
}
inline Range powerOfTwoBetween(double low, double high) {
    return {Range::Kind::PowerOfTwo, low, high};
}
// A per-sim override of a shared setting: 0 means "use the shared one".
inline Range zeroOrPowerOfTwoBetween(double low, double high) {
    return {Range::Kind::ZeroOrPowerOfTwo, low, high};
}

} // namespace snowcap
