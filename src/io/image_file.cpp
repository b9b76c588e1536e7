#include "core/untrusted_file.hpp"
#include "io/image.hpp"
#include "io/zlib_walk.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#include <unistd.h>

// The files of io/image.hpp: atomic writes, PNG (stb) and PFM (our own reader, strict about
// sizes the file claims).
namespace snowcap {

// ---- files ------------------------------------------------------------------------------

namespace {

std::string failure(std::string_view verb, const std::filesystem::path& path,
                    std::string_view reason) {
    return "cannot " + std::string(verb) + " '" + path.string() + "': " + std::string(reason);
}

// Image inputs are untrusted like every file (core/untrusted_file.hpp): a FIFO or device is
// refused at once; 1 GiB is past any image these readers accept (PFM and PNG sides are capped).
std::variant<std::vector<std::uint8_t>, std::string>
readFileBytes(const std::filesystem::path& path) {
    return readUntrustedBytes(path, std::uint64_t(1) << 30);
}

void appendToVector(void* context, void* data, int size) {
    auto* bytes = static_cast<std::vector<std::uint8_t>*>(context);
    const auto* begin = static_cast<const std::uint8_t*>(data);
    bytes->insert(bytes->end(), begin, begin + size);
}

} // namespace

// Temp file beside the target (same file system, so rename is atomic), unique per process
// and call so concurrent writers never share one. Refuse publishes with link(2), which fails
// with EEXIST instead of replacing, so even a file created meanwhile by another writer survives.
std::optional<std::string> writeFileAtomically(const std::filesystem::path& path,
                                               const std::vector<std::uint8_t>& bytes,
                                               Overwrite overwrite) {
    static std::atomic<unsigned> counter{0};
    std::filesystem::path temp = path;
    temp += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);

    // Only a regular file (or nothing) is ever replaced: rename(2) over /dev/full, a FIFO or a
    // symbolic link would replace the special file itself (as root, /dev/full became a file).
    if (overwrite == Overwrite::Replace)
        if (auto refused = checkReplaceable(path))
            return failure("write", path, refused->substr(path.string().size() + 2));
    std::FILE* file = std::fopen(temp.c_str(), "wbx"); // x: never through a name already there
    if (file == nullptr) {
        return failure("write", path, std::strerror(errno));
    }
    bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    int writeErrno = errno;
    // On disk before the rename publishes it: a crash then leaves the old file or the new one.
    if (written && (std::fflush(file) != 0 || ::fsync(::fileno(file)) != 0)) {
        written = false;
        writeErrno = errno;
    }
    std::error_code error;
    if (std::fclose(file) != 0 || !written) {
        error = std::error_code(written ? errno : writeErrno, std::generic_category());
    } else if (overwrite == Overwrite::Replace) {
        if (auto refused = checkReplaceable(path)) // swapped for a special file meanwhile
            error = std::make_error_code(std::errc::file_exists);
        else
            std::filesystem::rename(temp, path, error);
    } else if (::link(temp.c_str(), path.c_str()) != 0) {
        error = std::error_code(errno, std::generic_category());
    }
    std::error_code ignored;
    if (error || overwrite == Overwrite::Refuse)
        std::filesystem::remove(temp, ignored); // after link(2) the temp name is a second name
    if (error) {
        return failure("write", path,
                       error == std::errc::file_exists ? "file exists, not overwritten"
                                                       : error.message());
    }
    return std::nullopt;
}

std::optional<std::string> writePng(const std::filesystem::path& path, const ImageRgba8& image,
                                    Overwrite overwrite) {
    if (image.empty() ||
        image.pixels.size() != static_cast<std::size_t>(image.width) * image.height * 4) {
        return failure("write", path, "image is empty or its pixel count does not match its size");
    }
    std::vector<std::uint8_t> encoded;
    if (stbi_write_png_to_func(appendToVector, &encoded, image.width, image.height, 4,
                               image.pixels.data(), image.width * 4) == 0) {
        return failure("write", path, "PNG encoding failed");
    }
    return writeFileAtomically(path, encoded, overwrite);
}

namespace {

// An RGBA8 image decoded by stb from a PNG in memory (of at most INT_MAX bytes), or stb's reason.
std::variant<ImageRgba8, std::string> decodePng(const std::vector<std::uint8_t>& data) {
    int w = 0, h = 0, channels = 0;
    stbi_uc* decoded =
        stbi_load_from_memory(data.data(), static_cast<int>(data.size()), &w, &h, &channels, 4);
    if (decoded == nullptr)
        return std::string(stbi_failure_reason() ? stbi_failure_reason() : "unknown");
    ImageRgba8 image(w, h);
    std::memcpy(image.pixels.data(), decoded, image.pixels.size());
    stbi_image_free(decoded);
    return image;
}

// The PNG's IDAT chunks, in order: together, its zlib stream. A chunk running past the end of
// the file gives what it holds, and is the last.
std::vector<std::span<const std::uint8_t>> idatChunks(const std::vector<std::uint8_t>& data) {
    std::vector<std::span<const std::uint8_t>> pieces;
    for (std::size_t at = 8; at + 8 <= data.size();) {
        const std::uint64_t length = (std::uint64_t(data[at]) << 24) |
                                     (std::uint64_t(data[at + 1]) << 16) |
                                     (std::uint64_t(data[at + 2]) << 8) | data[at + 3];
        if (std::memcmp(&data[at + 4], "IEND", 4) == 0)
            break;
        const std::uint64_t held = std::min<std::uint64_t>(length, data.size() - (at + 8));
        if (std::memcmp(&data[at + 4], "IDAT", 4) == 0)
            pieces.emplace_back(&data[at + 8], std::size_t(held));
        if (held < length)
            break;
        at += std::size_t(8 + length + 4);
    }
    return pieces;
}

// The bytes a PNG's pixels take inflated: a filter byte and the packed samples of each row, of
// the whole image or of each of the seven Adam7 passes (a pass with no pixels has no rows).
std::uint64_t unpackedBytes(std::uint64_t width, std::uint64_t height, std::uint64_t bitsAPixel,
                            bool interlaced) {
    const auto rows = [&](std::uint64_t w, std::uint64_t h) {
        return w == 0 || h == 0 ? 0 : h * ((w * bitsAPixel + 7) / 8 + 1);
    };
    if (!interlaced)
        return rows(width, height);
    static constexpr int kPass[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                        {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}}; // x0 y0 dx dy
    std::uint64_t total = 0;
    for (const auto& [x0, y0, dx, dy] : kPass)
        total += rows(width > std::uint64_t(x0) ? (width - x0 + dx - 1) / dx : 0,
                      height > std::uint64_t(y0) ? (height - y0 + dy - 1) / dy : 0);
    return total;
}

} // namespace

std::variant<ImageRgba8, std::string> readPng(const std::filesystem::path& path) {
    auto bytes = readFileBytes(path);
    if (auto* error = std::get_if<std::string>(&bytes)) {
        return std::move(*error);
    }
    const auto& data = std::get<std::vector<std::uint8_t>>(bytes);
    if (data.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        return failure("read", path, "file too large");
    }
    auto image = decodePng(data);
    if (auto* reason = std::get_if<std::string>(&image))
        return failure("read", path, "not a readable PNG: " + *reason);
    return image;
}

std::variant<ImageRgba8, std::string> readPngWithin(const std::filesystem::path& path, int maxSide,
                                                    std::uint64_t maxBytes) {
    auto bytes = readUntrustedBytes(path, maxBytes);
    if (auto* error = std::get_if<std::string>(&bytes))
        return std::move(*error);
    const auto& data = std::get<std::vector<std::uint8_t>>(bytes);
    const std::string who = path.string() + ": ";
    static constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (data.size() < 8 || std::memcmp(data.data(), kSignature, 8) != 0)
        return who + "not a PNG (it does not begin with the PNG signature)";
    // The first chunk must be IHDR: 13 bytes of width, height (big endian), depth, colour type...
    const auto be32 = [&](std::size_t at) {
        return (std::uint32_t(data[at]) << 24) | (std::uint32_t(data[at + 1]) << 16) |
               (std::uint32_t(data[at + 2]) << 8) | std::uint32_t(data[at + 3]);
    };
    if (data.size() < 8 + 8 + 13 || be32(8) != 13 || std::memcmp(&data[12], "IHDR", 4) != 0)
        return who + "not a PNG (no IHDR header after the signature)";
    const std::uint32_t width = be32(16), height = be32(20);
    if (width == 0 || height == 0)
        return who + "its header claims " + std::to_string(width) + " x " + std::to_string(height) +
               " pixels";
    if (width > std::uint32_t(maxSide) || height > std::uint32_t(maxSide))
        return who + std::to_string(width) + " x " + std::to_string(height) + " pixels, at most " +
               std::to_string(maxSide) + " a side";
    if (data.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        return who + "file too large";
    // The budget from the header, before a pixel is decoded: the pixels take `unpacked` bytes
    // inflated. stb allocates all the header claims before it finds the data short (8192 x
    // 8192 RGBA16 in 510 KB: 596 MiB), and grows its buffer for whatever more the stream
    // inflates to, so the stream is walked first (io/zlib_walk.hpp: its symbols decoded and
    // counted, nothing inflated), at a cost bounded by the file's bytes: one that ends short,
    // runs long or breaks is refused having allocated nothing.
    static constexpr int kChannels[7] = {1, 0, 3, 1, 2, 0, 4}; // by colour type
    const unsigned depth = data[24], colourType = data[25];
    if (colourType > 6 || kChannels[colourType] == 0 || depth == 0 || depth > 16)
        return who + "not a readable PNG (colour type " + std::to_string(colourType) +
               ", bit depth " + std::to_string(depth) + ")";
    const std::uint64_t unpacked =
        unpackedBytes(width, height, std::uint64_t(kChannels[colourType]) * depth, data[28] != 0);
    const std::string pixels = std::to_string(width) + " x " + std::to_string(height) + " pixels";
    // Deflate packs at most 1032 bytes into one: a file smaller than that share of what its
    // pixels need is cut short whatever it holds, and is refused without reading further.
    if (data.size() * 1032 < unpacked)
        return who + "its " + std::to_string(data.size()) + " bytes cannot hold the " + pixels +
               " its header claims (" + std::to_string(unpacked) +
               " bytes inflated; deflate packs at most 1032 to 1)";
    const ZlibWalk walk = walkZlib(idatChunks(data), unpacked);
    switch (walk.end) {
    case ZlibWalk::End::Corrupt:
        return who + "not a readable PNG (its pixel data is no zlib stream: " + walk.reason + ")";
    case ZlibWalk::End::TooLong:
        return who + "its pixel data inflates to more than its " + pixels + " need (" +
               std::to_string(unpacked) + " bytes)";
    case ZlibWalk::End::Truncated:
    case ZlibWalk::End::Complete:
        if (walk.produced < unpacked)
            return who + "its pixel data is shorter than its " + pixels + " need (it inflates to " +
                   std::to_string(walk.produced) + " of " + std::to_string(unpacked) + " bytes)";
        break;
    }
    auto image = decodePng(data);
    if (auto* reason = std::get_if<std::string>(&image)) {
        // stb's word for pixel data that ends before the header's size is filled.
        if (*reason == "not enough pixels" || *reason == "outofdata")
            return who + "its pixel data is shorter than its " + std::to_string(width) + " x " +
                   std::to_string(height) + " pixels need (stb: " + *reason + ")";
        return who + "not a readable PNG (stb: " + *reason + ")";
    }
    const ImageRgba8& decoded = std::get<ImageRgba8>(image);
    if (decoded.width != int(width) || decoded.height != int(height)) // not for a PNG stb took
        return who + "decoded as " + std::to_string(decoded.width) + " x " +
               std::to_string(decoded.height) + " pixels, its header says " +
               std::to_string(width) + " x " + std::to_string(height);
    return image;
}

// ---- PFM --------------------------------------------------------------------------------

namespace {

// The header is four whitespace-separated tokens ("Pf", width, height, scale) and exactly one
// whitespace byte before the binary data.
struct PfmHeaderReader {
    const std::vector<std::uint8_t>& bytes;
    std::size_t pos = 0;

    static bool isSpace(std::uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

    std::optional<std::string_view> token() {
        while (pos < bytes.size() && isSpace(bytes[pos])) {
            ++pos;
        }
        const std::size_t begin = pos;
        while (pos < bytes.size() && !isSpace(bytes[pos]) && pos - begin < 32) {
            ++pos;
        }
        if (pos == begin || pos >= bytes.size() || !isSpace(bytes[pos])) {
            return std::nullopt; // empty, runs into the end, or too long to be a header field
        }
        return std::string_view(reinterpret_cast<const char*>(&bytes[begin]), pos - begin);
    }
};

template <typename Number> std::optional<Number> parseNumber(std::string_view text) {
    Number value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

constexpr long long kMaxPfmTexels = 1LL << 28; // 16384^2: beyond any snow buffer we write

} // namespace

std::optional<std::string> writePfm(const std::filesystem::path& path, const ImageFloat& image,
                                    Overwrite overwrite) {
    if (image.empty() || image.values.size() != static_cast<std::size_t>(image.width) *
                                                    static_cast<std::size_t>(image.height)) {
        return failure("write", path, "image is empty or its value count does not match its size");
    }
    const std::string header =
        "Pf\n" + std::to_string(image.width) + " " + std::to_string(image.height) + "\n-1.0\n";
    std::vector<std::uint8_t> bytes(header.begin(), header.end());
    const std::size_t dataStart = bytes.size();
    bytes.resize(dataStart + image.values.size() * 4);
    for (std::size_t i = 0; i < image.values.size(); ++i) {
        std::uint32_t bits = std::bit_cast<std::uint32_t>(image.values[i]);
        if constexpr (std::endian::native == std::endian::big) {
            bits = __builtin_bswap32(bits);
        }
        std::memcpy(&bytes[dataStart + i * 4], &bits, 4);
    }
    return writeFileAtomically(path, bytes, overwrite);
}

std::optional<std::string> writePfmColour(const std::filesystem::path& path, int width, int height,
                                          const std::vector<float>& rgb, Overwrite overwrite) {
    if (width <= 0 || height <= 0 ||
        rgb.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3)
        return failure("write", path, "image is empty or its value count does not match its size");
    const std::string header =
        "PF\n" + std::to_string(width) + " " + std::to_string(height) + "\n-1.0\n";
    std::vector<std::uint8_t> bytes(header.begin(), header.end());
    const std::size_t dataStart = bytes.size();
    bytes.resize(dataStart + rgb.size() * 4);
    for (std::size_t i = 0; i < rgb.size(); ++i) {
        std::uint32_t bits = std::bit_cast<std::uint32_t>(rgb[i]);
        if constexpr (std::endian::native == std::endian::big) {
            bits = __builtin_bswap32(bits);
        }
        std::memcpy(&bytes[dataStart + i * 4], &bits, 4);
    }
    return writeFileAtomically(path, bytes, overwrite);
}

std::variant<ImageFloat, std::string> readPfm(const std::filesystem::path& path) {
    auto loaded = readFileBytes(path);
    if (auto* error = std::get_if<std::string>(&loaded)) {
        return std::move(*error);
    }
    const auto& bytes = std::get<std::vector<std::uint8_t>>(loaded);
    const auto bad = [&](const std::string& reason) {
        return failure("read", path, reason);
    };

    PfmHeaderReader header{bytes};
    const auto magic = header.token();
    if (magic == "PF" || magic == "PF4") {
        return bad("colour PFM ('" + std::string(*magic) + "', " + (*magic == "PF" ? "3" : "4") +
                   " channels); expected greyscale 'Pf' with 1 channel");
    }
    if (magic != "Pf") {
        return bad("not a greyscale PFM file (header does not start with 'Pf')");
    }
    const auto widthToken = header.token();
    const auto heightToken = header.token();
    const auto scaleToken = header.token();
    if (!widthToken || !heightToken || !scaleToken) {
        return bad("bad PFM header: expected 'Pf', width, height and scale");
    }
    const auto width = parseNumber<int>(*widthToken);
    const auto height = parseNumber<int>(*heightToken);
    if (!width || !height || *width <= 0 || *height <= 0 ||
        static_cast<long long>(*width) * *height > kMaxPfmTexels) {
        return bad("bad PFM header: size '" + std::string(*widthToken) + " " +
                   std::string(*heightToken) + "' is not two positive integers of sane size");
    }
    const auto scale = parseNumber<double>(*scaleToken);
    if (!scale || !std::isfinite(*scale) || *scale == 0.0) {
        return bad("bad PFM header: scale '" + std::string(*scaleToken) +
                   "' is not a non-zero number");
    }
    const std::size_t dataStart = header.pos + 1; // the single whitespace byte after the scale
    const std::size_t expected = static_cast<std::size_t>(*width) * *height * 4;
    const std::size_t found = bytes.size() - dataStart;
    if (found != expected) {
        return bad((found < expected ? "truncated data: " : "unexpected trailing data: ") +
                   std::to_string(expected) + " bytes of floats expected for " +
                   std::to_string(*width) + "x" + std::to_string(*height) + ", found " +
                   std::to_string(found));
    }

    // A negative scale means little-endian data, a positive one big-endian.
    const std::endian fileOrder = *scale < 0.0 ? std::endian::little : std::endian::big;
    ImageFloat image(*width, *height);
    for (std::size_t i = 0; i < image.values.size(); ++i) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &bytes[dataStart + i * 4], 4);
        if (fileOrder != std::endian::native) {
            bits = __builtin_bswap32(bits);
        }
        image.values[i] = std::bit_cast<float>(bits);
    }
    return image;
}

} // namespace snowcap
