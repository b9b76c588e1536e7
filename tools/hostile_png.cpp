// The lying PNGs of tools/hostile_png.hpp.
#include "hostile_png.hpp"

#include <algorithm>
#include <vector>
#include <zlib.h>

namespace hostile {

namespace {

std::string be32(std::uint32_t v) {
    return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

std::string chunk(const std::string& type, const std::string& body) {
    const std::string typed = type + body;
    const auto crc = static_cast<std::uint32_t>(
        ::crc32(0, reinterpret_cast<const Bytef*>(typed.data()), uInt(typed.size())));
    return be32(std::uint32_t(body.size())) + typed + be32(crc);
}

} // namespace

std::string pngClaiming(std::uint32_t width, std::uint32_t height, int depth,
                        std::size_t idatBytes) {
    std::string ihdr = be32(width) + be32(height);
    ihdr += {char(depth), 6, 0, 0, 0};
    std::string idat;
    z_stream stream{};
    deflateInit(&stream, 9);
    const std::uint64_t raw = std::uint64_t(height) * (std::uint64_t(width) * 4 * depth / 8 + 1);
    std::vector<unsigned char> zeros(1 << 20, 0), out(1 << 16);
    for (std::uint64_t fed = 0; idat.size() < idatBytes;) {
        const std::uint64_t now = std::min<std::uint64_t>(zeros.size(), raw - fed);
        stream.next_in = zeros.data();
        stream.avail_in = uInt(now);
        fed += now;
        const int flush = fed >= raw ? Z_FINISH : Z_NO_FLUSH;
        int result = Z_OK;
        do {
            stream.next_out = out.data();
            stream.avail_out = uInt(out.size());
            result = deflate(&stream, flush);
            idat.append(reinterpret_cast<char*>(out.data()), out.size() - stream.avail_out);
        } while (stream.avail_out == 0 || (flush == Z_FINISH && result != Z_STREAM_END));
        if (flush == Z_FINISH)
            break;
    }
    deflateEnd(&stream);
    if (idat.size() > idatBytes)
        idat.resize(idatBytes);
    return "\x89PNG\r\n\x1a\n" + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", "");
}

// A PNG of width x height RGBA at `depth` bits whose IDAT is a zlib stream of `raw` zero bytes
// written by hand as one fixed-Huffman block (a zero, then 258-byte copies of it: 13 bits
// each), cut to its first `keep` bytes when `keep` is less. Quick to make at any size, where
// deflating 537 MB of zeros takes seconds.
std::string pngOfZeros(std::uint32_t width, std::uint32_t height, int depth, std::uint64_t raw,
                       std::uint64_t keep) {
    std::string stream = "\x78\x01"; // deflate, 32 KiB window, no dictionary
    std::uint64_t bits = 0;
    int count = 0;
    const auto put = [&](std::uint32_t value, int n) { // value's bits, least significant first
        bits |= std::uint64_t(value) << count;
        for (count += n; count >= 8; count -= 8, bits >>= 8)
            stream.push_back(char(bits & 0xff));
    };
    const auto code = [&](std::uint32_t value, int n) { // a Huffman code, first bit first
        for (int b = n - 1; b >= 0; --b)
            put((value >> b) & 1, 1);
    };
    put(1, 1), put(1, 2); // the last block; fixed Huffman codes
    code(0x30, 8);        // literal 0
    std::uint64_t left = raw - 1;
    for (; left >= 258; left -= 258)
        code(0xc5, 8), code(0, 5); // length 258 (symbol 285), distance 1 (code 0)
    for (; left > 0; --left)
        code(0x30, 8);
    code(0, 7); // end of block
    if (count > 0)
        put(0, 8 - count);
    const std::uint32_t adler = std::uint32_t((raw % 65521) << 16 | 1); // of raw zeros
    stream += be32(adler);
    if (stream.size() > keep)
        stream.resize(std::size_t(keep));
    std::string ihdr = be32(width) + be32(height);
    ihdr += {char(depth), 6, 0, 0, 0};
    return "\x89PNG\r\n\x1a\n" + chunk("IHDR", ihdr) + chunk("IDAT", stream) + chunk("IEND", "");
}

} // namespace hostile
