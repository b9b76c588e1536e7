#pragma once
// How many bytes a zlib stream (RFC 1950 around RFC 1951 deflate) inflates to, found by decoding
// its Huffman symbols and adding up their lengths without writing a byte of output. The work is
// bounded by the compressed bytes, not by what they inflate to: a PNG whose pixel data is cut
// or padded is found out in time proportional to its file, where inflating it costs time
// proportional to the pixels its header claims (8192 x 8192 RGBA16: 537 MB of zeros from a
// 520 KB file). The verdicts match zlib's raw inflate on the same bytes (tests/io/ZlibWalkTest);
// the Adler-32 trailer is not checked, as the checksum needs the output.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace snowcap {

struct ZlibWalk {
    enum class End {
        Complete,  // the last block ended, having produced `produced` bytes (<= the limit)
        Truncated, // the input ended inside the stream
        Corrupt,   // not a valid stream: `reason` says where zlib would have stopped too
        TooLong,   // it inflates to more than the limit (walked no further)
    };
    End end = End::Corrupt;
    std::uint64_t produced = 0; // bytes produced up to where the walk ended
    std::string reason;         // for Corrupt
};

// Walks the zlib stream made of `pieces` in order (a PNG's IDAT chunks), stopping once it has
// produced more than `limit` bytes.
ZlibWalk walkZlib(const std::vector<std::span<const std::uint8_t>>& pieces, std::uint64_t limit);

} // namespace snowcap
