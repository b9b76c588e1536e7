// Header counts checked against the file's size, for the text formats whose Assimp readers size
// their arrays from the header before reading a single vertex. A 309-byte OFF file claiming
// 353,535,235,358 vertices gets Assimp 5.2 to allocate and fill ~16 GB (the count wraps to
// 32 bits, 1.35e9 vertices); the child process's memory cap would stop it at the cap, but a claim
// no file of that size can back is refused here at once, in kilobytes.
//
// The minimum bytes per item are what the grammar allows at its tersest: an ASCII number is at
// least one character and one separator, so an OFF vertex (x y z) is >= 6 bytes, a face (its
// vertex count) >= 2; a PLY ASCII property >= 2 bytes, a binary one its type's size. A PLY
// header that never ends is refused too (Assimp's reader does not return from one).

#include "scene/model_import.hpp"

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace snowcap::import_detail {
namespace {

constexpr std::uint64_t kMax32 = 0xffffffffull;

std::string_view token(std::string_view text, std::size_t& at) {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])))
        ++at;
    const std::size_t start = at;
    while (at < text.size() && !std::isspace(static_cast<unsigned char>(text[at])))
        ++at;
    return text.substr(start, at - start);
}

// A decimal count; saturates instead of wrapping (a wrapped count is how the trouble starts).
bool count(std::string_view word, std::uint64_t& value) {
    if (word.empty())
        return false;
    value = 0;
    for (char c : word) {
        if (c < '0' || c > '9')
            return false;
        value = value > (UINT64_MAX - 9) / 10 ? UINT64_MAX : value * 10 + std::uint64_t(c - '0');
    }
    return true;
}

std::string tooMany(std::string_view what, std::uint64_t claimed, std::size_t bytes) {
    return "header claims " + std::to_string(claimed) + " " + std::string(what) +
           ", more than its " + std::to_string(bytes) + " bytes can hold";
}

// OFF and its variants (COFF, NOFF, STOFF, 4OFF, ...): "OFF" then (after comments) the vertex,
// face and edge counts.
std::string checkOff(std::string_view text) {
    std::size_t at = 0;
    const std::string_view magic = token(text, at);
    if (magic.size() < 3 || magic.size() > 8 || magic.substr(magic.size() - 3) != "OFF")
        return "";
    std::uint64_t numbers[2] = {0, 0};
    for (std::uint64_t& number : numbers) {
        std::string_view word = token(text, at);
        while (word.starts_with("#")) { // a comment runs to the end of its line
            while (at < text.size() && text[at] != '\n')
                ++at;
            word = token(text, at);
        }
        if (!count(word, number))
            return ""; // not the counts Assimp expects: its own reader says why
    }
    const std::size_t body = text.size() - at;
    if (numbers[0] > kMax32 || numbers[0] > body / 6)
        return tooMany("vertices", numbers[0], text.size());
    if (numbers[1] > kMax32 || numbers[1] > (body - numbers[0] * 6) / 2)
        return tooMany("faces", numbers[1], text.size());
    return "";
}

std::size_t plyTypeSize(std::string_view type) {
    if (type == "char" || type == "uchar" || type == "int8" || type == "uint8")
        return 1;
    if (type == "short" || type == "ushort" || type == "int16" || type == "uint16")
        return 2;
    if (type == "int" || type == "uint" || type == "float" || type == "int32" || type == "uint32" ||
        type == "float32")
        return 4;
    if (type == "double" || type == "float64")
        return 8;
    return 0;
}

// PLY: every `element NAME COUNT` times the least bytes one item of it can take.
std::string checkPly(std::string_view text) {
    if (!text.starts_with("ply"))
        return "";
    const std::size_t end = text.find("end_header");
    // Assimp 5.2's PLY reader loops forever looking for the end of such a header.
    if (end == std::string_view::npos)
        return "truncated PLY header (no end_header)";
    const std::size_t bodyStart = text.find('\n', end);
    const std::size_t body = bodyStart == std::string_view::npos ? 0 : text.size() - bodyStart - 1;
    bool ascii = true;
    struct Element {
        std::string name;
        std::uint64_t count = 0, itemBytes = 0;
    };
    std::vector<Element> elements;
    std::size_t at = 3;
    while (at < end) {
        const std::string_view word = token(text, at);
        if (word == "format") {
            ascii = token(text, at) == "ascii";
        } else if (word == "element") {
            Element element;
            element.name = std::string(token(text, at));
            if (!count(token(text, at), element.count))
                return "";
            elements.push_back(element);
        } else if (word == "property" && !elements.empty()) {
            std::string_view type = token(text, at);
            if (type == "list")
                type = token(text, at); // the list's count type: a list is at least its count
            elements.back().itemBytes += ascii ? 2 : plyTypeSize(type);
        } else if (word == "comment" || word == "obj_info") {
            while (at < text.size() && text[at] != '\n')
                ++at;
        }
    }
    std::uint64_t needed = 0;
    for (const Element& element : elements) {
        if (element.count > kMax32)
            return tooMany(element.name + " items", element.count, text.size());
        const std::uint64_t bytes = element.count * std::max<std::uint64_t>(element.itemBytes, 1);
        needed += bytes;
        if (needed > body)
            return tooMany(element.name + " items", element.count, text.size());
    }
    return "";
}

} // namespace

std::string checkDeclaredCounts(std::string_view text) {
    if (std::string reason = checkOff(text); !reason.empty())
        return reason;
    return checkPly(text);
}

} // namespace snowcap::import_detail
