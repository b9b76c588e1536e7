#include "snow/tile_codec.hpp"

#include <cstring>
#include <lz4.h>
#include <memory>
#include <zstd.h>

namespace snowcap {

namespace {

// zstd's fastest level: tiles are packed while the walk goes on, and level 1 already takes
// nearly all of what higher levels find in a trail tile (docs/world.md, section 5).
constexpr int kZstdLevel = 1;

std::vector<std::uint8_t> bytesOf(std::span<const std::uint16_t> bits, bool shuffle) {
    std::vector<std::uint8_t> bytes(bits.size() * 2);
    if (!shuffle) {
        std::memcpy(bytes.data(), bits.data(), bytes.size());
        return bytes;
    }
    for (std::size_t i = 0; i < bits.size(); ++i) {
        bytes[i] = static_cast<std::uint8_t>(bits[i] >> 8);
        bytes[bits.size() + i] = static_cast<std::uint8_t>(bits[i] & 0xff);
    }
    return bytes;
}

void bitsOf(std::span<const std::uint8_t> bytes, std::span<std::uint16_t> bits, bool shuffle) {
    if (!shuffle) {
        std::memcpy(bits.data(), bytes.data(), bytes.size());
        return;
    }
    for (std::size_t i = 0; i < bits.size(); ++i)
        bits[i] = static_cast<std::uint16_t>(bytes[i] << 8 | bytes[bits.size() + i]);
}

// One compression context per thread, made once (a context per call costs more than a tile).
ZSTD_CCtx* zstdCompressor() {
    thread_local std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> context(ZSTD_createCCtx(),
                                                                              ZSTD_freeCCtx);
    return context.get();
}
ZSTD_DCtx* zstdDecompressor() {
    thread_local std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> context(ZSTD_createDCtx(),
                                                                              ZSTD_freeDCtx);
    return context.get();
}

} // namespace

std::vector<std::uint8_t> packTile(TileCompression compression, std::span<const std::uint16_t> bits,
                                   bool shuffle) {
    std::vector<std::uint8_t> bytes = bytesOf(bits, shuffle);
    std::vector<std::uint8_t> packed;
    switch (compression) {
    case TileCompression::Off:
        return bytes;
    case TileCompression::Lz4: {
        const int size = static_cast<int>(bytes.size());
        packed.resize(static_cast<std::size_t>(LZ4_compressBound(size)));
        const int n = LZ4_compress_default(reinterpret_cast<const char*>(bytes.data()),
                                           reinterpret_cast<char*>(packed.data()), size,
                                           static_cast<int>(packed.size()));
        if (n <= 0)
            return bytes; // cannot happen with a bound-sized buffer; stay lossless anyway
        packed.resize(static_cast<std::size_t>(n));
        break;
    }
    case TileCompression::Zstd: {
        packed.resize(ZSTD_compressBound(bytes.size()));
        const std::size_t n = ZSTD_compressCCtx(zstdCompressor(), packed.data(), packed.size(),
                                                bytes.data(), bytes.size(), kZstdLevel);
        if (ZSTD_isError(n))
            return bytes;
        packed.resize(n);
        break;
    }
    }
    packed.shrink_to_fit(); // the cap counts what a tile holds, so hold no slack
    return packed;
}

bool unpackTile(TileCompression compression, std::span<const std::uint8_t> packed,
                std::span<std::uint16_t> bits, bool shuffle) {
    const std::size_t want = bits.size() * 2;
    std::vector<std::uint8_t> bytes(want);
    switch (compression) {
    case TileCompression::Off:
        if (packed.size() != want)
            return false;
        std::memcpy(bytes.data(), packed.data(), want);
        break;
    case TileCompression::Lz4: {
        const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(packed.data()),
                                          reinterpret_cast<char*>(bytes.data()),
                                          static_cast<int>(packed.size()), static_cast<int>(want));
        if (n != static_cast<int>(want))
            return false;
        break;
    }
    case TileCompression::Zstd: {
        const std::size_t n = ZSTD_decompressDCtx(zstdDecompressor(), bytes.data(), want,
                                                  packed.data(), packed.size());
        if (ZSTD_isError(n) || n != want)
            return false;
        break;
    }
    }
    bitsOf(bytes, bits, shuffle);
    return true;
}

} // namespace snowcap
