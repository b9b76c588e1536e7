// A look through a binary FBX file before Assimp reads it, for the one kind of damage that hurts
// more than a failed read: an array whose header claims far more values than its bytes can hold.
// Assimp 5.2 sizes its buffer from that claim before decompressing, so one flipped bit in a count
// can make it fill gigabytes and get the process killed. Everything else is left to Assimp's own
// checks: where the node structure does not add up, this returns "" and lets Assimp say why.

#include "scene/model_import.hpp"

#include <cstdint>
#include <cstring>

namespace snowcap::import_detail {
namespace {

// zlib cannot expand data by more than about 1032:1 (RFC 1950/1951: a run-length worst case).
constexpr std::uint64_t kMaxInflateRatio = 1032;
constexpr int kMaxDepth = 64;

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
        return reason_;
    }

private:
    const unsigned char* data_;
    std::size_t size_;
    bool wide_ = false;
    std::string reason_;

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
        for (std::uint64_t p = 0; p < properties && reason_.empty(); ++p)
            if (!property(at, propertiesEnd))
                return false;
        std::size_t child = propertiesEnd;
        while (child < nodeEnd && reason_.empty())
            if (!node(child, nodeEnd, depth + 1))
                break;
        cursor = nodeEnd;
        return true;
    }

    bool property(std::size_t& at, std::size_t end) {
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
        case 'C': return skip(1);
        case 'Y': return skip(2);
        case 'I': case 'F': return skip(4);
        case 'D': case 'L': return skip(8);
        case 'S': case 'R': {
            if (end - at < 4)
                return false;
            const std::uint64_t length = read(at, 4);
            at += 4;
            return skip(length);
        }
        case 'f': case 'i': case 'd': case 'l': case 'b': {
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
            at += 12 + stored;
            return true;
        }
        default: return false;
        }
    }
};

} // namespace

std::string checkBinaryFbx(std::span<const std::byte> bytes) {
    static constexpr char kMagic[] = "Kaydara FBX Binary";
    if (bytes.size() < sizeof kMagic - 1 ||
        std::memcmp(bytes.data(), kMagic, sizeof kMagic - 1) != 0)
        return "";
    return FbxScan(bytes).run();
}

} // namespace snowcap::import_detail
