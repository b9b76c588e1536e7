// A look through a file before Assimp reads it, for the damage that hurts more than a failed read
// because Assimp 5.2 turns it into gigabytes of memory (and the process may get killed):
//  - a glTF binary whose header or chunk lengths claim more bytes than the file has (Assimp
//    allocates and fills what the header claims);
//  - an FBX array whose header claims far more values than its bytes can hold (Assimp sizes its
//    buffer from the claim before decompressing);
//  - animation curve values so large that the FBX converter's splitting of rotation keys into
//    steps of at most 180 degrees makes billions of keys (one flipped exponent bit does it).
//  - FBX object connections that form a cycle, which Assimp's converter follows until the
//    stack overflows;
//  - a glTF skin without inverseBindMatrices (valid glTF: they default to identity), on which
//    Assimp 5.2's glTF reader dereferences a null pointer;
//  - a glTF LINE_LOOP primitive with indices out of range, on which it does the same:
//    rather than refusing such files, line loops are rewritten as plain lines (mode 2 -> 1, one
//    byte in place), which that reader handles safely; lines are dropped later in any case.
// Everything else is left to Assimp's own checks: where the node structure does not add up, this
// returns "" and lets Assimp say why. Compressed curve arrays are not inflated (no zlib here), so
// their values go unchecked.

#include "scene/model_import.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace snowcap::import_detail {
namespace {

// zlib cannot expand data by more than about 1032:1 (RFC 1950/1951: a run-length worst case).
constexpr std::uint64_t kMaxInflateRatio = 1032;
constexpr int kMaxDepth = 64;
// Rotation keys become one key per 180 degrees of change; a curve may need this many in all.
constexpr double kMaxCurveSteps = 1e6;

// Finite values whose total change stays within kMaxCurveSteps half turns; else the reason.
template <class Values> std::string checkCurve(const Values& values, std::size_t offset) {
    double steps = 0.0, previous = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double value = values[i];
        if (!std::isfinite(value))
            return "non-finite animation key value at offset " + std::to_string(offset);
        if (i > 0)
            steps += std::abs(value - previous) / 180.0;
        previous = value;
    }
    if (steps > kMaxCurveSteps)
        return "animation curve at offset " + std::to_string(offset) + " swings through over " +
               std::to_string(int(kMaxCurveSteps)) + " half turns";
    return "";
}

// FBX objects hang together by connections (child -> parent). Assimp's FBX converter walks them
// recursively, so a cycle (an object that is its own ancestor) recurses until the stack runs out.
struct Link {
    std::int64_t child = 0, parent = 0;
};

std::string checkConnections(const std::vector<Link>& links) {
    std::unordered_map<std::int64_t, std::vector<std::int64_t>> parents;
    for (const Link& link : links)
        parents[link.child].push_back(link.parent);
    enum class Mark { Open, Done };
    std::unordered_map<std::int64_t, Mark> marks;
    for (const auto& [start, unused] : parents) {
        if (marks.count(start))
            continue;
        // Depth first without recursion: (object, next parent to visit).
        std::vector<std::pair<std::int64_t, std::size_t>> path{{start, 0}};
        marks[start] = Mark::Open;
        while (!path.empty()) {
            auto& [object, next] = path.back();
            const auto found = parents.find(object);
            if (found == parents.end() || next >= found->second.size()) {
                marks[object] = Mark::Done;
                path.pop_back();
                continue;
            }
            const std::int64_t parent = found->second[next++];
            const auto mark = marks.find(parent);
            if (mark != marks.end() && mark->second == Mark::Open)
                return "corrupt FBX (its object connections form a cycle through object " +
                       std::to_string(parent) + ")";
            if (mark == marks.end()) {
                marks[parent] = Mark::Open;
                path.push_back({parent, 0});
            }
        }
    }
    return "";
}

// ASCII FBX: the lines `C: "OO", child, parent` of its Connections section.
std::vector<Link> asciiConnections(std::string_view text) {
    std::vector<Link> links;
    const std::size_t section = text.find("\nConnections:");
    if (section == std::string_view::npos)
        return links;
    for (std::size_t at = text.find("C:", section); at != std::string_view::npos;
         at = text.find("C:", at + 2)) {
        const std::size_t comma = text.find(',', at);
        if (comma == std::string_view::npos)
            break;
        std::string numbers(text.substr(comma + 1, 64));
        char* next = nullptr;
        const long long child = std::strtoll(numbers.c_str(), &next, 10);
        if (next == numbers.c_str() || *next != ',')
            continue;
        const char* second = next + 1;
        const long long parent = std::strtoll(second, &next, 10);
        if (next != second)
            links.push_back({child, parent});
    }
    return links;
}

class FbxScan {
public:
    explicit FbxScan(std::span<const std::byte> bytes)
        : data_(reinterpret_cast<const unsigned char*>(bytes.data())), size_(bytes.size()) {}

    std::string run() {
        if (size_ < 27)
            return "";
        const std::uint32_t version = read(23, 4);
        wide_ = version >= 7500;
        std::size_t cursor = 27;
        while (cursor < size_ && reason_.empty())
            if (!node(cursor, size_, 0))
                break;
        return reason_.empty() ? checkConnections(links_) : reason_;
    }

private:
    const unsigned char* data_;
    std::size_t size_;
    bool wide_ = false;
    std::string reason_;
    std::vector<Link> links_;

    std::uint64_t read(std::size_t at, int bytes) const {
        std::uint64_t value = 0;
        for (int k = bytes - 1; k >= 0; --k)
            value = (value << 8) | data_[at + static_cast<std::size_t>(k)];
        return value;
    }

    // One node record and its children; false where the structure stops making sense.
    bool node(std::size_t& cursor, std::size_t end, int depth) {
        const int word = wide_ ? 8 : 4;
        const std::size_t header = 3 * static_cast<std::size_t>(word) + 1;
        if (depth > kMaxDepth || cursor + header > end)
            return false;
        const std::uint64_t nodeEnd = read(cursor, word);
        if (nodeEnd == 0) // a null record closes a list
            return false;
        if (nodeEnd <= cursor || nodeEnd > end)
            return false;
        const std::uint64_t properties = read(cursor + word, word);
        const std::uint64_t propertyBytes = read(cursor + 2 * word, word);
        std::size_t at = cursor + header + data_[cursor + 3 * word];
        const std::size_t propertiesEnd = at + propertyBytes;
        if (propertiesEnd > nodeEnd)
            return false;
        const std::string_view name(reinterpret_cast<const char*>(data_ + cursor + header),
                                    data_[cursor + 3 * word]);
        const bool curve = name == "KeyValueFloat";
        // A connection: C: "OO" or "OP", child id, parent id (, property name).
        if (name == "C" && properties >= 3 && at + 4 < propertiesEnd && data_[at] == 'S') {
            const std::size_t ids = at + 5 + read(at + 1, 4);
            if (ids + 18 <= propertiesEnd && data_[ids] == 'L' && data_[ids + 9] == 'L')
                links_.push_back({static_cast<std::int64_t>(read(ids + 1, 8)),
                                  static_cast<std::int64_t>(read(ids + 10, 8))});
        }
        for (std::uint64_t p = 0; p < properties && reason_.empty(); ++p)
            if (!property(at, propertiesEnd, curve))
                return false;
        std::size_t child = propertiesEnd;
        while (child < nodeEnd && reason_.empty())
            if (!node(child, nodeEnd, depth + 1))
                break;
        cursor = nodeEnd;
        return true;
    }

    bool property(std::size_t& at, std::size_t end, bool curve) {
        if (at >= end)
            return false;
        const char type = static_cast<char>(data_[at++]);
        auto skip = [&](std::uint64_t bytes) {
            if (bytes > end - at)
                return false;
            at += bytes;
            return true;
        };
        switch (type) {
        case 'C':
            return skip(1);
        case 'Y':
            return skip(2);
        case 'I':
        case 'F':
            return skip(4);
        case 'D':
        case 'L':
            return skip(8);
        case 'S':
        case 'R': {
            if (end - at < 4)
                return false;
            const std::uint64_t length = read(at, 4);
            at += 4;
            return skip(length);
        }
        case 'f':
        case 'i':
        case 'd':
        case 'l':
        case 'b': {
            if (end - at < 12)
                return false;
            const std::uint64_t count = read(at, 4), encoding = read(at + 4, 4),
                                stored = read(at + 8, 4);
            const std::uint64_t stride = type == 'b' ? 1 : (type == 'f' || type == 'i') ? 4 : 8;
            const std::uint64_t claimed = count * stride;
            const bool fits = encoding == 0   ? claimed == stored
                              : encoding == 1 ? claimed <= stored * kMaxInflateRatio + 64
                                              : false;
            if (!fits || stored > end - at - 12) {
                reason_ = "corrupt binary FBX (an array at offset " + std::to_string(at - 1) +
                          " claims " + std::to_string(count) + " values in " +
                          std::to_string(stored) + " bytes)";
                return false;
            }
            if (curve && type == 'f' && encoding == 0) {
                std::vector<float> values(count);
                std::memcpy(values.data(), data_ + at + 12, count * 4); // little-endian, as x86
                if (std::string why = checkCurve(values, at - 1); !why.empty()) {
                    reason_ = "corrupt FBX (" + why + ")";
                    return false;
                }
            }
            at += 12 + stored;
            return true;
        }
        default:
            return false;
        }
    }
};

// ASCII FBX: every "KeyValueFloat: *N { a: v, v, ... }" list.
std::string checkAsciiCurves(std::string_view text) {
    for (std::size_t at = text.find("KeyValueFloat:"); at != std::string_view::npos;
         at = text.find("KeyValueFloat:", at + 1)) {
        const std::size_t open = text.find("a:", at), close = text.find('}', at);
        if (open == std::string_view::npos || close == std::string_view::npos || open > close)
            continue;
        std::vector<double> values;
        std::string list(text.substr(open + 2, close - open - 2));
        for (char* cursor = list.data(); *cursor;) {
            char* next = nullptr;
            const double value = std::strtod(cursor, &next);
            if (next == cursor) {
                ++cursor; // a comma or white space
                continue;
            }
            values.push_back(value);
            cursor = next;
        }
        if (std::string why = checkCurve(values, at); !why.empty())
            return "corrupt FBX (" + why + ")";
    }
    return "";
}

// The glTF JSON (a .gltf file, or a .glb's first chunk), for what crashes Assimp's reader.
std::string checkGltfJson(std::string_view json) {
    // Assimp's JSON reader takes bytes that are not UTF-8; nlohmann's does not. Any such byte
    // becomes '?' here, so a damaged key still reads as a (wrong) key.
    std::string ascii(json);
    for (char& c : ascii)
        if (static_cast<unsigned char>(c) >= 0x80)
            c = '?';
    const auto document = nlohmann::json::parse(ascii, nullptr, false);
    if (document.is_discarded() || !document.is_object())
        return ""; // Assimp will say what is wrong with it
    const auto skins = document.find("skins");
    if (skins == document.end() || !skins->is_array())
        return "";
    for (std::size_t s = 0; s < skins->size(); ++s)
        if (!(*skins)[s].is_object() || !(*skins)[s].contains("inverseBindMatrices"))
            return "glTF skin " + std::to_string(s) +
                   " has no inverseBindMatrices, which Assimp 5.2 cannot read (export the skin "
                   "with its bind matrices)";
    return "";
}

// Every `"mode": 2` in the JSON at [begin, end) becomes `"mode": 1`, in place.
bool rewriteLineLoops(std::string& bytes, std::size_t begin, std::size_t end) {
    bool changed = false;
    for (std::size_t at = bytes.find("\"mode\"", begin); at < end;
         at = bytes.find("\"mode\"", at + 1)) {
        std::size_t value = at + 6;
        while (value < end && std::strchr(" \t\r\n:", bytes[value]))
            ++value;
        const bool two = value < end && bytes[value] == '2' &&
                         (value + 1 >= end || !std::strchr("0123456789.eE", bytes[value + 1]));
        if (two) {
            bytes[value] = '1';
            changed = true;
        }
    }
    return changed;
}

// glTF binary: 12-byte header (magic, version, total length), then chunks of (length, type,
// data), the first one JSON.
std::string checkGlb(std::span<const std::byte> bytes, std::optional<std::string>& patched) {
    auto u32 = [&](std::size_t at) {
        std::uint32_t value = 0;
        for (int k = 3; k >= 0; --k)
            value = (value << 8) |
                    std::to_integer<std::uint32_t>(bytes[at + static_cast<std::size_t>(k)]);
        return value;
    };
    const std::size_t size = bytes.size();
    if (size < 12)
        return "truncated glTF binary (" + std::to_string(size) + " bytes, not even a header)";
    const std::uint64_t total = u32(8);
    if (total > size)
        return "truncated glTF binary (the header says " + std::to_string(total) +
               " bytes, the file has " + std::to_string(size) + ")";
    if (u32(4) == 2 && total >= 20) {
        const std::uint64_t json = u32(12);
        if (20 + json > total)
            return "corrupt glTF binary (its JSON chunk claims " + std::to_string(json) +
                   " bytes of " + std::to_string(total) + ")";
        const std::uint64_t binary = 20 + json + 8 <= total ? u32(20 + json) : 0;
        if (20 + json + 8 + binary > total && 20 + json + 8 <= total)
            return "corrupt glTF binary (its binary chunk claims " + std::to_string(binary) +
                   " bytes of " + std::to_string(total) + ")";
        const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        if (std::string reason = checkGltfJson(text.substr(20, json)); !reason.empty())
            return reason;
        std::string copy(text);
        if (rewriteLineLoops(copy, 20, 20 + json))
            patched = std::move(copy);
    }
    return "";
}

} // namespace

PreRead checkBeforeReading(std::span<const std::byte> bytes) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    PreRead result;
    if (text.starts_with("glTF")) {
        result.reason = checkGlb(bytes, result.patched);
    } else if (text.starts_with("Kaydara FBX Binary")) {
        result.reason = FbxScan(bytes).run();
    } else if (text.find("FBXHeaderExtension") != std::string_view::npos) {
        result.reason = checkAsciiCurves(text);
        if (result.reason.empty())
            result.reason = checkConnections(asciiConnections(text));
    } else if (const std::size_t first = text.find_first_not_of(" \t\r\n");
               first != std::string_view::npos && text[first] == '{') {
        result.reason = checkGltfJson(text);
        std::string copy(text);
        if (result.reason.empty() && rewriteLineLoops(copy, 0, copy.size()))
            result.patched = std::move(copy);
    } else {
        result.reason = checkDeclaredCounts(text);
    }
    return result;
}

} // namespace snowcap::import_detail
