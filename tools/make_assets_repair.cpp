// Repairing what Assimp 5.2's exporters write (make_assets_repair.hpp).

#include "make_assets_repair.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace snowcap::assets {
namespace {

namespace fs = std::filesystem;

// Assimp 5.2's binary FBX writer leaves out the 25-byte null record that must close the child
// list of every node (its NULL_RECORD constant turns into an empty string; assimp issue #4686),
// so its own reader rejects the file ("block offset is out of range"); it also stamps the wall
// clock into the header. This re-serialises the node tree with the null records and a fixed
// stamp, keeping every property byte as written.
struct FbxNode {
    std::string name, properties;
    std::uint64_t propertyCount = 0;
    std::vector<FbxNode> children;
};

std::uint64_t readU64(const std::string& bytes, std::size_t at) {
    std::uint64_t value = 0;
    for (int k = 7; k >= 0; --k)
        value = (value << 8) | static_cast<unsigned char>(bytes[at + k]);
    return value;
}

void putU64(std::string& bytes, std::uint64_t value, std::size_t at = std::string::npos) {
    std::string little(8, '\0');
    for (int k = 0; k < 8; ++k)
        little[k] = static_cast<char>((value >> (8 * k)) & 0xff);
    at == std::string::npos ? void(bytes += little) : void(bytes.replace(at, 8, little));
}

// Nodes from `cursor` up to `end`; stops at a null record or at bytes that are not a node.
std::vector<FbxNode> readFbxNodes(const std::string& bytes, std::size_t& cursor, std::size_t end) {
    std::vector<FbxNode> nodes;
    while (cursor + 25 <= end) {
        const std::uint64_t nodeEnd = readU64(bytes, cursor);
        if (nodeEnd <= cursor || nodeEnd > end)
            break;
        FbxNode node;
        node.propertyCount = readU64(bytes, cursor + 8);
        const std::uint64_t propertyBytes = readU64(bytes, cursor + 16);
        const std::size_t nameLength = static_cast<unsigned char>(bytes[cursor + 24]);
        node.name = bytes.substr(cursor + 25, nameLength);
        node.properties = bytes.substr(cursor + 25 + nameLength, propertyBytes);
        std::size_t child = cursor + 25 + nameLength + propertyBytes;
        node.children = readFbxNodes(bytes, child, nodeEnd);
        if (node.name == "CreationTimeStamp") // 'I' + int32: a fixed 2024-01-01 00:00:00:000
            for (FbxNode& field : node.children)
                if (field.name != "Version")
                    field.properties = std::string("I") +
                                       char(field.name == "Year"                           ? 0xe8
                                            : field.name == "Month" || field.name == "Day" ? 1
                                                                                           : 0) +
                                       char(field.name == "Year" ? 0x07 : 0) + std::string(2, '\0');
        nodes.push_back(std::move(node));
        cursor = nodeEnd;
    }
    return nodes;
}

void writeFbxNode(std::string& out, const FbxNode& node) {
    const std::size_t start = out.size();
    putU64(out, 0);
    putU64(out, node.propertyCount);
    putU64(out, node.properties.size());
    out += static_cast<char>(node.name.size());
    out += node.name + node.properties;
    for (const FbxNode& child : node.children)
        writeFbxNode(out, child);
    // Which nodes close with a null record even when they have no children follows the FBX SDK
    // (and Blender's writer): those without properties, and animation stacks and layers, which
    // readers parse as compound scopes.
    if (!node.children.empty() || node.propertyCount == 0 || node.name == "AnimationStack" ||
        node.name == "AnimationLayer")
        out += std::string(25, '\0');
    putU64(out, out.size(), start);
}

std::string readBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

bool repairBinaryFbx(const fs::path& file) {
    const std::string bytes = readBytes(file);
    constexpr std::size_t kHeader = 27; // magic (23 bytes) + version (4)
    if (bytes.size() < kHeader + 16 || bytes.compare(0, 18, "Kaydara FBX Binary") != 0)
        return false;
    std::size_t cursor = kHeader;
    const std::vector<FbxNode> nodes = readFbxNodes(bytes, cursor, bytes.size());
    while (cursor < bytes.size() && bytes[cursor] == '\0') // the top-level null record, if any
        ++cursor;
    if (nodes.empty() || cursor + 16 > bytes.size())
        return false;
    std::string out = bytes.substr(0, kHeader);
    for (const FbxNode& node : nodes)
        writeFbxNode(out, node);
    out += std::string(25, '\0');
    out += bytes.substr(cursor, 16);                // footer id
    out += std::string(16 - out.size() % 16, '\0'); // aligned as the writer does
    out += std::string(4, '\0') + bytes.substr(23, 4) + std::string(120, '\0');
    out += bytes.substr(bytes.size() - 16); // footer magic
    std::ofstream(file, std::ios::binary | std::ios::trunc) << out;
    return true;
}

// Assimp 5.2's glTF writer leaves a gap after the JOINTS_0 data that it fills with whatever was
// on the heap (pointers included), so the .glb changes from run to run. No buffer view covers
// those bytes; zeroing every uncovered byte of the binary chunk makes the file deterministic.
bool scrubGlb(const fs::path& file) {
    std::string bytes = readBytes(file);
    auto u32 = [&](std::size_t at) {
        std::uint32_t value = 0;
        for (int k = 3; k >= 0; --k)
            value = (value << 8) | static_cast<unsigned char>(bytes[at + k]);
        return value;
    };
    if (bytes.size() < 28 || bytes.compare(0, 4, "glTF") != 0)
        return false;
    const std::size_t jsonLength = u32(12), binHeader = 20 + jsonLength;
    if (binHeader + 8 > bytes.size())
        return true; // no binary chunk
    const std::size_t binLength = u32(binHeader), binStart = binHeader + 8;
    const auto document = nlohmann::json::parse(bytes.substr(20, jsonLength), nullptr, false);
    if (document.is_discarded() || binStart + binLength > bytes.size())
        return false;
    std::vector<char> covered(binLength, 0);
    for (const auto& view : document.value("bufferViews", nlohmann::json::array())) {
        const std::size_t offset = view.value("byteOffset", 0u),
                          length = view.value("byteLength", 0u);
        if (view.value("buffer", 0) == 0 && offset + length <= binLength)
            std::fill_n(covered.begin() + offset, length, 1);
    }
    for (std::size_t i = 0; i < binLength; ++i)
        if (!covered[i])
            bytes[binStart + i] = '\0';
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    return true;
}

} // namespace snowcap::assets
