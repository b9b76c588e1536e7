#pragma once
// PNG files that lie, for the hostile suites (tools/hostile_runs.cpp): every chunk's checksum
// right, the pixel data cut short or running long.

#include <cstdint>
#include <string>

namespace hostile {

// A PNG whose header claims width x height at `depth` bits RGBA and whose IDAT holds the first
// `idatBytes` of the deflated zeros it would need (all of it when it takes fewer: then the
// file is whole, and its IDAT is its size less 57 bytes).
std::string pngClaiming(std::uint32_t width, std::uint32_t height, int depth,
                        std::size_t idatBytes);

// A PNG of width x height RGBA at `depth` bits whose IDAT is a zlib stream of `raw` zero bytes
// written by hand as one fixed-Huffman block, cut to its first `keep` bytes when `keep` is less.
std::string pngOfZeros(std::uint32_t width, std::uint32_t height, int depth, std::uint64_t raw,
                       std::uint64_t keep);

} // namespace hostile
