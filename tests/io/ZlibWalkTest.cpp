// io/zlib_walk.hpp against zlib itself: for streams of every kind zlib writes (stored, fixed
// and dynamic blocks; every strategy), whole, cut anywhere and with bytes flipped anywhere, the
// walk must end as zlib's raw inflate of the same bytes ends (complete, out of input, or a data
// error) having counted exactly the bytes zlib produced.
#include "io/zlib_walk.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>
#include <zlib.h>

namespace snowcap {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes compressed(const Bytes& data, int level, int strategy) {
    z_stream stream{};
    EXPECT_EQ(deflateInit2(&stream, level, Z_DEFLATED, 15, 8, strategy), Z_OK);
    Bytes out(deflateBound(&stream, uLong(data.size())));
    stream.next_in = const_cast<Bytef*>(data.data());
    stream.avail_in = uInt(data.size());
    stream.next_out = out.data();
    stream.avail_out = uInt(out.size());
    EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

// How zlib's raw inflate (no header or trailer checks, as the walk) ends on the deflate data
// after the 2-byte zlib header.
ZlibWalk zlibReference(const Bytes& stream) {
    ZlibWalk result;
    z_stream z{};
    EXPECT_EQ(inflateInit2(&z, -15), Z_OK);
    Bytes window(1 << 16);
    z.next_in = const_cast<Bytef*>(stream.data() + 2);
    z.avail_in = uInt(stream.size() - 2);
    for (;;) {
        z.next_out = window.data();
        z.avail_out = uInt(window.size());
        const int code = inflate(&z, Z_NO_FLUSH);
        result.produced += window.size() - z.avail_out;
        if (code == Z_STREAM_END) {
            result.end = ZlibWalk::End::Complete;
            break;
        }
        if (code == Z_DATA_ERROR) {
            result.end = ZlibWalk::End::Corrupt;
            result.reason = z.msg ? z.msg : "";
            break;
        }
        if (code == Z_BUF_ERROR || (z.avail_in == 0 && z.avail_out != 0)) {
            result.end = ZlibWalk::End::Truncated;
            break;
        }
        EXPECT_EQ(code, Z_OK);
    }
    inflateEnd(&z);
    return result;
}

ZlibWalk walked(const Bytes& stream, std::uint64_t limit = ~std::uint64_t(0)) {
    return walkZlib({std::span<const std::uint8_t>(stream)}, limit);
}

std::string endName(ZlibWalk::End end) {
    switch (end) {
    case ZlibWalk::End::Complete:
        return "complete";
    case ZlibWalk::End::Truncated:
        return "truncated";
    case ZlibWalk::End::Corrupt:
        return "corrupt";
    case ZlibWalk::End::TooLong:
        return "too long";
    }
    return "?";
}

// The walk of `stream`, checked against zlib's.
ZlibWalk expectSameAsZlib(const Bytes& stream, const std::string& what) {
    const ZlibWalk reference = zlibReference(stream);
    const ZlibWalk walk = walked(stream);
    EXPECT_EQ(endName(walk.end), endName(reference.end))
        << what << " (zlib: '" << reference.reason << "', walk: '" << walk.reason << "')";
    EXPECT_EQ(walk.produced, reference.produced) << what;
    return walk;
}

// The data sets: zeros (long distance-1 runs), noise (literals), text-like repeats with
// changes (every length and distance), and a smooth gradient filtered as a PNG row would be.
std::vector<std::pair<std::string, Bytes>> dataSets() {
    std::mt19937 random(7);
    Bytes zeros(1 << 18, 0), noise(1 << 13), text, gradient;
    for (auto& b : noise)
        b = std::uint8_t(random());
    const std::string words[] = {"snow ", "depth ", "compaction ", "the ", "density ", "\n"};
    while (text.size() < (1 << 15)) {
        const std::string& w = words[random() % 6];
        text.insert(text.end(), w.begin(), w.end());
        if (random() % 50 == 0)
            text.push_back(std::uint8_t(random()));
    }
    for (int y = 0; y < 64; ++y) {
        gradient.push_back(1); // a filter byte
        for (int x = 0; x < 512; ++x)
            gradient.push_back(std::uint8_t(x % 3 == 0 ? 1 : random() % 3));
    }
    return {{"zeros", zeros}, {"noise", noise}, {"text", text}, {"gradient", gradient}};
}

struct Encoding {
    int level, strategy;
    std::string name;
};
const std::vector<Encoding> kEncodings = {{0, Z_DEFAULT_STRATEGY, "stored"},
                                          {1, Z_DEFAULT_STRATEGY, "level 1"},
                                          {6, Z_DEFAULT_STRATEGY, "level 6"},
                                          {9, Z_DEFAULT_STRATEGY, "level 9"},
                                          {6, Z_FILTERED, "filtered"},
                                          {6, Z_HUFFMAN_ONLY, "huffman only"},
                                          {6, Z_RLE, "rle"},
                                          {6, Z_FIXED, "fixed"}};

// Every data set in every encoding: (what, the data, its zlib stream).
struct Sample {
    std::string name;
    const Bytes* data;
    Bytes stream;
};
const std::vector<Sample>& samples() {
    static const std::vector<std::pair<std::string, Bytes>> sets = dataSets();
    static const std::vector<Sample> all = [] {
        std::vector<Sample> made;
        for (const auto& [name, data] : sets)
            for (const Encoding& e : kEncodings)
                made.push_back(
                    {name + ", " + e.name, &data, compressed(data, e.level, e.strategy)});
        return made;
    }();
    return all;
}

TEST(ZlibWalk, AWholeStreamCountsExactlyWhatItInflatesTo) {
    for (const auto& [name, data, stream] : samples()) {
        const ZlibWalk walk = walked(stream);
        EXPECT_EQ(endName(walk.end), "complete") << name << ": " << walk.reason;
        EXPECT_EQ(walk.produced, data->size()) << name;
    }
}

TEST(ZlibWalk, AStreamCutAnywhereEndsAsZlibEndsIt) {
    for (const auto& [name, data, stream] : samples()) {
        // Every byte of the first 64 and of the last 64, and 64 places between.
        for (std::size_t i = 0; i < 192; ++i) {
            const std::size_t cut = i < 64    ? i + 2
                                    : i < 128 ? 2 + (stream.size() - 2) * (i - 64) / 64
                                              : stream.size() - (192 - i);
            if (cut < 3 || cut >= stream.size() - 4) // the trailer is not walked
                continue;
            const Bytes part(stream.begin(), stream.begin() + std::ptrdiff_t(cut));
            expectSameAsZlib(part, name + ", cut at " + std::to_string(cut));
        }
    }
}

TEST(ZlibWalk, AFlippedByteEndsAsZlibEndsIt) {
    std::mt19937 random(11);
    int corrupt = 0, complete = 0;
    for (const auto& [name, data, stream] : samples()) {
        for (int i = 0; i < 150; ++i) {
            // No trailer: zlib's raw inflate has none.
            Bytes flipped(stream.begin(), stream.end() - 4);
            // Half the flips in the first 300 bytes, where the block headers and code tables are.
            const std::size_t span =
                i % 2 ? std::min<std::size_t>(300, stream.size() - 6) : stream.size() - 6;
            const std::size_t at = 2 + random() % span;
            flipped[at] ^= std::uint8_t(1 + random() % 255);
            const ZlibWalk walk =
                expectSameAsZlib(flipped, name + ", byte " + std::to_string(at) + " flipped");
            corrupt += walk.end == ZlibWalk::End::Corrupt;
            complete += walk.end == ZlibWalk::End::Complete;
        }
    }
    // The flips reached every verdict: the comparison above was not of one kind only.
    EXPECT_GT(corrupt, 100);
    EXPECT_GT(complete, 100);
}

TEST(ZlibWalk, PiecesWalkAsOneStream) {
    const Sample& text = samples()[2 * kEncodings.size() + 2]; // text, level 6
    const Bytes& stream = text.stream;
    std::vector<std::span<const std::uint8_t>> pieces;
    std::mt19937 random(3);
    for (std::size_t at = 0; at < stream.size();) {
        const std::size_t n = std::min<std::size_t>(stream.size() - at, random() % 9);
        pieces.emplace_back(stream.data() + at, n); // empty pieces too
        at += n;
    }
    const ZlibWalk walk = walkZlib(pieces, ~std::uint64_t(0));
    EXPECT_EQ(endName(walk.end), "complete") << walk.reason;
    EXPECT_EQ(walk.produced, text.data->size());
}

TEST(ZlibWalk, AStreamPastTheLimitStopsJustPastIt) {
    const Bytes zeros(1 << 20, 0);
    for (const Encoding& e : kEncodings) {
        const ZlibWalk walk = walked(compressed(zeros, e.level, e.strategy), 1000);
        EXPECT_EQ(endName(walk.end), "too long") << e.name;
        EXPECT_GT(walk.produced, 1000u) << e.name;
        EXPECT_LE(walk.produced, 1000u + 258u) << e.name; // at most one match further
    }
    // Exactly at the limit is not past it.
    const ZlibWalk exact = walked(compressed(zeros, 9, Z_DEFAULT_STRATEGY), zeros.size());
    EXPECT_EQ(endName(exact.end), "complete");
}

TEST(ZlibWalk, TheZlibHeaderIsChecked) {
    const Bytes stream = compressed(Bytes(100, 7), 6, Z_DEFAULT_STRATEGY);
    Bytes method = stream;
    method[0] = 0x79; // compression method 9
    EXPECT_EQ(endName(walked(method).end), "corrupt");
    Bytes check = stream;
    check[1] ^= 1; // the header's check bits no longer divide by 31
    EXPECT_EQ(endName(walked(check).end), "corrupt");
    Bytes dictionary = stream;
    dictionary[1] = 0xbb; // FDICT set (0x78bb % 31 == 0)
    EXPECT_EQ((0x78 * 256 + 0xbb) % 31, 0);
    EXPECT_EQ(walked(dictionary).reason, "a preset dictionary (PNG has none)");
    EXPECT_EQ(endName(walked(Bytes{0x78}).end), "truncated");
    EXPECT_EQ(endName(walked(Bytes{}).end), "truncated");
}

} // namespace
} // namespace snowcap
