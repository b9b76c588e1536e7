// Heightmap files: grayscale PNG (8 or 16 bits) and raw .r16, read as untrusted. The PNG is
// decoded here rather than by stb: stb allocates whatever the header claims before it finds the
// data short, and turns 16-bit samples into 8. This reader checks the header against the budget
// first, inflates into a buffer of exactly the size the header gives (zlib, which never writes
// past it) and refuses a stream that ends short.
#include "core/untrusted_file.hpp"
#include "io/image.hpp"
#include "terrain/terrain.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <zlib.h>

namespace snowcap {

namespace {

std::uint32_t bigEndian32(const std::uint8_t* at) {
    return (std::uint32_t(at[0]) << 24) | (std::uint32_t(at[1]) << 16) |
           (std::uint32_t(at[2]) << 8) | std::uint32_t(at[3]);
}

std::optional<std::string> checkSize(std::uint64_t columns, std::uint64_t rows,
                                     std::uint64_t maxBytes) {
    if (columns == 0 || rows == 0)
        return "its header claims " + std::to_string(columns) + " x " + std::to_string(rows) +
               " samples";
    if (columns > kMaxTerrainSide || rows > kMaxTerrainSide)
        return std::to_string(columns) + " x " + std::to_string(rows) + " samples, at most " +
               std::to_string(kMaxTerrainSide) + " a side";
    if (columns * rows * sizeof(float) > maxBytes)
        return std::to_string(columns) + " x " + std::to_string(rows) + " samples take " +
               std::to_string((columns * rows * sizeof(float)) >> 20) +
               " MiB as heights, over terrain.max_mib (" + std::to_string(maxBytes >> 20) + ")";
    return std::nullopt;
}

// PNG's filter types, one byte before each row; `bpp` bytes a sample.
int paeth(int a, int b, int c) {
    const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}

bool unfilterRow(std::uint8_t filter, std::uint8_t* row, const std::uint8_t* above,
                 std::size_t bytes, std::size_t bpp) {
    for (std::size_t x = 0; x < bytes; ++x) {
        const int a = x >= bpp ? row[x - bpp] : 0;
        const int b = above ? above[x] : 0;
        const int c = (above && x >= bpp) ? above[x - bpp] : 0;
        int add = 0;
        switch (filter) {
        case 0:
            add = 0;
            break;
        case 1:
            add = a;
            break;
        case 2:
            add = b;
            break;
        case 3:
            add = (a + b) / 2;
            break;
        case 4:
            add = paeth(a, b, c);
            break;
        default:
            return false;
        }
        row[x] = std::uint8_t(row[x] + add);
    }
    return true;
}

} // namespace

std::variant<HeightmapSamples, std::string> readHeightmapPng(const std::filesystem::path& path,
                                                             std::uint64_t maxBytes) {
    // The file is at most the heights' budget (it packs 2 bytes a sample or fewer into 4).
    auto read = readUntrustedBytes(path, maxBytes, "terrain.max_mib");
    if (auto* error = std::get_if<std::string>(&read))
        return std::move(*error);
    const auto& data = std::get<std::vector<std::uint8_t>>(read);
    const std::string who = path.string() + ": ";
    static constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (data.size() < 8 || std::memcmp(data.data(), kSignature, 8) != 0)
        return who + "not a PNG (it does not begin with the PNG signature)";
    if (data.size() < 8 + 8 + 13 || bigEndian32(&data[8]) != 13 ||
        std::memcmp(&data[12], "IHDR", 4) != 0)
        return who + "not a PNG (no IHDR header after the signature)";
    const std::uint32_t columns = bigEndian32(&data[16]), rows = bigEndian32(&data[20]);
    const unsigned depth = data[24], colourType = data[25], interlace = data[28];
    if (auto reason = checkSize(columns, rows, maxBytes))
        return who + *reason;
    if (colourType != 0 || (depth != 8 && depth != 16))
        return who + "not a grayscale heightmap (PNG colour type " + std::to_string(colourType) +
               ", bit depth " + std::to_string(depth) + "; a heightmap is gray, 16 or 8 bits)";
    if (interlace != 0)
        return who + "an interlaced PNG (save the heightmap without interlacing)";
    const std::size_t bpp = depth / 8;
    const std::size_t rowBytes = std::size_t(columns) * bpp;
    const std::size_t unpacked = (rowBytes + 1) * rows;
    if (data.size() * 1032 < unpacked)
        return who + "its " + std::to_string(data.size()) + " bytes cannot hold the " +
               std::to_string(columns) + " x " + std::to_string(rows) +
               " samples its header claims (deflate packs at most 1032 to 1)";

    // Walk the chunks after IHDR, inflating every IDAT into `raw` as it comes.
    std::vector<std::uint8_t> raw(unpacked);
    z_stream stream{};
    if (inflateInit(&stream) != Z_OK)
        return who + "zlib would not start";
    stream.next_out = raw.data();
    stream.avail_out = static_cast<uInt>(raw.size());
    std::size_t at = 8 + 8 + 13 + 4;
    bool ended = false, broken = false;
    while (at + 8 <= data.size() && !ended && !broken) {
        const std::uint32_t length = bigEndian32(&data[at]);
        if (length > data.size() - at - 8) {
            broken = true; // a chunk that claims more than the file holds: truncated
            break;
        }
        const std::uint8_t* type = &data[at + 4];
        if (std::memcmp(type, "IDAT", 4) == 0 && length > 0) {
            stream.next_in = const_cast<Bytef*>(&data[at + 8]);
            stream.avail_in = length;
            const int status = inflate(&stream, Z_NO_FLUSH);
            if (status == Z_STREAM_END)
                ended = true;
            else if (status != Z_OK && status != Z_BUF_ERROR)
                broken = true;
            else if (stream.avail_out == 0)
                ended = true; // every sample is in; what follows cannot add one
        } else if (std::memcmp(type, "IEND", 4) == 0) {
            break;
        }
        at += std::size_t(8) + length + 4;
    }
    const std::size_t got = raw.size() - stream.avail_out;
    inflateEnd(&stream);
    if (got < unpacked)
        return who + "its pixel data is shorter than its " + std::to_string(columns) + " x " +
               std::to_string(rows) + " samples need (it inflates to " + std::to_string(got) +
               " of " + std::to_string(unpacked) + " bytes)";

    HeightmapSamples samples{int(columns), int(rows), {}};
    samples.values.resize(std::size_t(columns) * rows);
    for (std::uint32_t y = 0; y < rows; ++y) {
        std::uint8_t* row = &raw[y * (rowBytes + 1)];
        const std::uint8_t* above = y > 0 ? &raw[(y - 1) * (rowBytes + 1) + 1] : nullptr;
        if (!unfilterRow(row[0], row + 1, above, rowBytes, bpp))
            return who + "row " + std::to_string(y) + " has an unknown PNG filter (" +
                   std::to_string(row[0]) + ")";
        std::uint16_t* out = &samples.values[std::size_t(y) * columns];
        for (std::uint32_t x = 0; x < columns; ++x)
            out[x] = depth == 16 ? std::uint16_t((row[1 + 2 * x] << 8) | row[2 + 2 * x])
                                 : std::uint16_t(row[1 + x] * 257);
    }
    return samples;
}

std::variant<HeightmapSamples, std::string> readHeightmapR16(const std::filesystem::path& path,
                                                             std::uint64_t maxBytes) {
    // Two bytes a sample in the file, four as heights: the file may be half the budget.
    auto opened = UntrustedFile::open(path, maxBytes / 2, "terrain.max_mib");
    if (auto* error = std::get_if<std::string>(&opened))
        return std::move(*error);
    UntrustedFile& file = std::get<UntrustedFile>(opened);
    const std::string who = path.string() + ": ";
    const std::uint64_t count = file.size() / 2;
    const auto side = static_cast<std::uint64_t>(std::llround(std::sqrt(double(count))));
    if (file.size() % 2 != 0 || side * side != count)
        return who + "a .r16 of " + std::to_string(file.size()) +
               " bytes is not a square of 16-bit samples (2 n^2 bytes)";
    if (auto reason = checkSize(side, side, maxBytes))
        return who + *reason;
    HeightmapSamples samples{int(side), int(side), std::vector<std::uint16_t>(count)};
    std::vector<std::uint8_t> bytes(file.size());
    if (auto error = file.read(bytes.data(), bytes.size()))
        return std::move(*error);
    for (std::size_t i = 0; i < count; ++i)
        samples.values[i] = std::uint16_t(bytes[2 * i] | (bytes[2 * i + 1] << 8));
    return samples;
}

} // namespace snowcap

namespace snowcap {

namespace {

void appendBigEndian32(std::vector<std::uint8_t>& out, std::uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(std::uint8_t(value >> shift));
}

void appendChunk(std::vector<std::uint8_t>& out, const char (&type)[5],
                 const std::vector<std::uint8_t>& body) {
    appendBigEndian32(out, std::uint32_t(body.size()));
    const std::size_t typeAt = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), body.begin(), body.end());
    const uLong crc = crc32(0L, &out[typeAt], uInt(4 + body.size()));
    appendBigEndian32(out, std::uint32_t(crc));
}

} // namespace

std::optional<std::string> writeHeightmapPng(const std::filesystem::path& path,
                                             const HeightmapSamples& samples) {
    if (samples.columns <= 0 || samples.rows <= 0 ||
        samples.values.size() != std::size_t(samples.columns) * samples.rows)
        return "cannot write '" + path.string() + "': the heightmap's size does not match it";
    // Rows with filter 0 (none), samples big-endian, deflated by zlib.
    const std::size_t rowBytes = std::size_t(samples.columns) * 2 + 1;
    std::vector<std::uint8_t> raw(rowBytes * samples.rows);
    for (int y = 0; y < samples.rows; ++y) {
        std::uint8_t* row = &raw[y * rowBytes];
        row[0] = 0;
        for (int x = 0; x < samples.columns; ++x) {
            const std::uint16_t value = samples.values[std::size_t(y) * samples.columns + x];
            row[1 + 2 * x] = std::uint8_t(value >> 8);
            row[2 + 2 * x] = std::uint8_t(value);
        }
    }
    uLongf packedSize = compressBound(uLong(raw.size()));
    std::vector<std::uint8_t> packed(packedSize);
    if (compress2(packed.data(), &packedSize, raw.data(), uLong(raw.size()), 6) != Z_OK)
        return "cannot write '" + path.string() + "': zlib failed";
    packed.resize(packedSize);
    std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    std::vector<std::uint8_t> header;
    appendBigEndian32(header, std::uint32_t(samples.columns));
    appendBigEndian32(header, std::uint32_t(samples.rows));
    header.insert(header.end(), {16, 0, 0, 0, 0}); // 16 bits, gray, deflate, filter 0, plain
    appendChunk(png, "IHDR", header);
    appendChunk(png, "IDAT", packed);
    appendChunk(png, "IEND", {});
    return writeFileAtomically(path, png);
}

} // namespace snowcap
