#pragma once
// Lossless packing of one world tile's half-float bits (snow.world_compress): the bits are
// split into their high and low bytes (a trail's high bytes are a handful of exponents, long
// runs of 0 around the band a boot pressed; the low bytes are the noisy mantissas), then
// handed to a well-kept general compressor, lz4 (fast) or zstd (smaller). Decoding gives the
// exact bits back; docs/world.md, section 5, has the measurement that chose the default.

#include "core/settings.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace snowcap {

using TileCompression = WorldCompression; // snow.world_compress

// The packed bytes of `bits` (never empty). `shuffle`: split high and low bytes first (what
// the store does; off only to measure what the split buys).
std::vector<std::uint8_t> packTile(TileCompression compression, std::span<const std::uint16_t> bits,
                                   bool shuffle = true);
// Unpacks into `bits` (its size is the tile's): false when the bytes do not decode to exactly
// that many values (a corrupt packing; the store never makes one).
bool unpackTile(TileCompression compression, std::span<const std::uint8_t> packed,
                std::span<std::uint16_t> bits, bool shuffle = true);

} // namespace snowcap
