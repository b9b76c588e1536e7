#include "io/zlib_walk.hpp"

#include <algorithm>
#include <array>
#include <utility>

// RFC 1951 decoded symbol by symbol: a literal counts one byte, a length/distance pair counts
// its length, a stored block its LEN. Nothing is copied, so a run of 258-byte matches costs a
// few bits of work each, however many bytes they stand for. The checks are zlib's (inflate.c,
// inftrees.c): the header, the block types, code sets neither over-subscribed nor incomplete
// (bar the single one-bit code zlib allows), an end-of-block code, distances within what has
// been produced.
namespace snowcap {

namespace {

constexpr int kMaxBits = 15;
constexpr int kFastBits = 9; // codes this short decode with one table look-up

// The bits of a list of byte ranges, least significant first.
class BitReader {
public:
    explicit BitReader(const std::vector<std::span<const std::uint8_t>>& pieces)
        : pieces_(pieces) {}

    // Tops the buffer up to at least 57 bits, or to what is left.
    void fill() {
        while (count_ <= 56) {
            while (piece_ < pieces_.size() && at_ == pieces_[piece_].size())
                ++piece_, at_ = 0;
            if (piece_ == pieces_.size())
                return;
            buffer_ |= std::uint64_t(pieces_[piece_][at_++]) << count_;
            count_ += 8;
        }
    }
    int available() const { return count_; }
    std::uint64_t peek() const { return buffer_; }
    void drop(int n) {
        buffer_ >>= n;
        count_ -= n;
    }
    // `n` (<= 16) bits as a number, or -1 when the input ends first.
    long bits(int n) {
        if (count_ < n)
            fill();
        if (count_ < n)
            return -1;
        const long value = long(buffer_ & ((std::uint64_t(1) << n) - 1));
        drop(n);
        return value;
    }
    // To the next byte boundary (stored blocks start there).
    void align() { drop(count_ % 8); }
    // Skips up to `n` whole bytes; returns how many there were.
    std::uint64_t skipBytes(std::uint64_t n) {
        std::uint64_t skipped = 0;
        while (skipped < n && count_ >= 8)
            drop(8), ++skipped;
        while (skipped < n && piece_ < pieces_.size()) {
            const std::uint64_t here =
                std::min<std::uint64_t>(n - skipped, pieces_[piece_].size() - at_);
            at_ += std::size_t(here);
            skipped += here;
            if (at_ == pieces_[piece_].size())
                ++piece_, at_ = 0;
        }
        return skipped;
    }

private:
    const std::vector<std::span<const std::uint8_t>>& pieces_;
    std::size_t piece_ = 0, at_ = 0;
    std::uint64_t buffer_ = 0;
    int count_ = 0;
};

enum class CodeSet { Lengths, Literals, Distances };

// A canonical Huffman code: symbols by code length, and a table for the short codes.
struct Huffman {
    std::array<std::uint16_t, kMaxBits + 1> count{};
    std::array<std::uint16_t, 320> symbol{};
    std::array<std::uint16_t, 1 << kFastBits> fast{}; // (symbol << 4) | length; 0: not short

    // False when the lengths make no code zlib would accept.
    bool build(const std::uint8_t* lengths, int n, CodeSet set) {
        count.fill(0);
        fast.fill(0);
        for (int s = 0; s < n; ++s)
            ++count[lengths[s]];
        int longest = kMaxBits;
        while (longest > 0 && count[longest] == 0)
            --longest;
        count[0] = 0;
        if (longest == 0)
            return true; // no codes: valid, and any symbol read from it is an error
        int left = 1;
        for (int len = 1; len <= kMaxBits; ++len) {
            left = 2 * left - count[len];
            if (left < 0)
                return false; // over-subscribed
        }
        if (left > 0 && (set == CodeSet::Lengths || longest != 1))
            return false; // incomplete
        std::array<std::uint16_t, kMaxBits + 2> offset{};
        for (int len = 1; len <= kMaxBits; ++len)
            offset[len + 1] = std::uint16_t(offset[len] + count[len]);
        std::array<int, kMaxBits + 1> next{}; // the next canonical code of each length
        for (int len = 1, code = 0; len <= kMaxBits; ++len) {
            code = (code + count[len - 1]) << 1;
            next[len] = code;
        }
        for (int s = 0; s < n; ++s) {
            const int len = lengths[s];
            if (len == 0)
                continue;
            symbol[offset[len]++] = std::uint16_t(s);
            const int code = next[len]++;
            if (len > kFastBits)
                continue;
            int reversed = 0; // the stream sends a code's first bit first: index by it
            for (int b = 0; b < len; ++b)
                reversed |= ((code >> b) & 1) << (len - 1 - b);
            for (int i = reversed; i < (1 << kFastBits); i += 1 << len)
                fast[i] = std::uint16_t((s << 4) | len);
        }
        return true;
    }

    // The next symbol; -1 for a code not in the set, -2 when the input ends inside a code.
    int decode(BitReader& in) const {
        if (in.available() < kMaxBits)
            in.fill();
        const std::uint16_t entry = fast[in.peek() & ((1u << kFastBits) - 1)];
        if (entry != 0 && (entry & 15) <= in.available()) {
            in.drop(entry & 15);
            return entry >> 4;
        }
        // Bit by bit: the codes of each length are consecutive numbers, starting at `first`.
        int code = 0, first = 0, index = 0;
        const std::uint64_t bits = in.peek();
        for (int len = 1; len <= kMaxBits; ++len) {
            if (len > in.available())
                return -2;
            code |= int((bits >> (len - 1)) & 1);
            if (code - count[len] < first) {
                in.drop(len);
                return symbol[index + (code - first)];
            }
            index += count[len];
            first = (first + count[len]) << 1;
            code <<= 1;
        }
        return -1;
    }
};

constexpr std::array<std::uint16_t, 29> kLengthBase = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                                       15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                                       67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<std::uint8_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                       2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<std::uint16_t, 30> kDistanceBase = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<std::uint8_t, 30> kDistanceExtra = {0, 0, 0,  0,  1,  1,  2,  2,  3,  3,
                                                         4, 4, 5,  5,  6,  6,  7,  7,  8,  8,
                                                         9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

struct Walker {
    BitReader in;
    std::uint64_t limit;
    ZlibWalk result;

    // Ends the walk; false, for the caller to return.
    bool end(ZlibWalk::End how, std::string reason = {}) {
        result.end = how;
        result.reason = std::move(reason);
        return false;
    }
    // A decoded symbol's failure: the input ended inside it, or it is no code of the set.
    bool badSymbol(int symbol, const char* reason) {
        return end(symbol == -2 ? ZlibWalk::End::Truncated : ZlibWalk::End::Corrupt, reason);
    }

    // The symbols of one Huffman block, up to its end-of-block code.
    bool codes(const Huffman& literals, const Huffman& distances) {
        for (;;) {
            int symbol = literals.decode(in);
            if (symbol < 0)
                return badSymbol(symbol, "invalid literal/length code");
            if (symbol < 256) {
                if (++result.produced > limit)
                    return end(ZlibWalk::End::TooLong);
                continue;
            }
            if (symbol == 256)
                return true;
            symbol -= 257;
            if (symbol >= 29)
                return end(ZlibWalk::End::Corrupt, "invalid literal/length code");
            const long lengthExtra = in.bits(kLengthExtra[symbol]);
            const int distanceSymbol = lengthExtra < 0 ? -2 : distances.decode(in);
            if (distanceSymbol < 0)
                return badSymbol(distanceSymbol, "invalid distance code");
            if (distanceSymbol >= 30)
                return end(ZlibWalk::End::Corrupt, "invalid distance code");
            const long distanceExtra = in.bits(kDistanceExtra[distanceSymbol]);
            if (distanceExtra < 0)
                return end(ZlibWalk::End::Truncated);
            if (std::uint64_t(kDistanceBase[distanceSymbol] + distanceExtra) > result.produced)
                return end(ZlibWalk::End::Corrupt, "invalid distance too far back");
            result.produced += std::uint64_t(kLengthBase[symbol] + lengthExtra);
            if (result.produced > limit)
                return end(ZlibWalk::End::TooLong);
        }
    }

    // A dynamic block's code tables (RFC 1951 3.2.7).
    bool dynamicTables(Huffman& literals, Huffman& distances) {
        const long nLiterals = in.bits(5), nDistances = in.bits(5), nLengths = in.bits(4);
        if (nLengths < 0)
            return end(ZlibWalk::End::Truncated);
        if (nLiterals + 257 > 286 || nDistances + 1 > 30)
            return end(ZlibWalk::End::Corrupt, "too many length or distance symbols");
        static constexpr int kOrder[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                           11, 4,  12, 3, 13, 2, 14, 1, 15};
        std::array<std::uint8_t, 19> codeLengths{};
        for (long i = 0; i < nLengths + 4; ++i) {
            const long length = in.bits(3);
            if (length < 0)
                return end(ZlibWalk::End::Truncated);
            codeLengths[kOrder[i]] = std::uint8_t(length);
        }
        Huffman lengthCode;
        if (!lengthCode.build(codeLengths.data(), 19, CodeSet::Lengths))
            return end(ZlibWalk::End::Corrupt, "invalid code lengths set");
        const int total = int(nLiterals + 257 + nDistances + 1);
        std::array<std::uint8_t, 320> lengths{};
        for (int i = 0; i < total;) {
            const int symbol = lengthCode.decode(in);
            if (symbol < 0)
                return badSymbol(symbol, "invalid code lengths set");
            if (symbol < 16) {
                lengths[i++] = std::uint8_t(symbol);
                continue;
            }
            if (symbol == 16 && i == 0)
                return end(ZlibWalk::End::Corrupt, "invalid bit length repeat");
            const std::uint8_t repeated = symbol == 16 ? lengths[i - 1] : 0;
            const long extra = in.bits(symbol == 16 ? 2 : symbol == 17 ? 3 : 7);
            if (extra < 0)
                return end(ZlibWalk::End::Truncated);
            const long times = extra + (symbol == 18 ? 11 : 3);
            if (i + times > total)
                return end(ZlibWalk::End::Corrupt, "invalid bit length repeat");
            for (long k = 0; k < times; ++k)
                lengths[i++] = repeated;
        }
        if (lengths[256] == 0)
            return end(ZlibWalk::End::Corrupt, "invalid code -- missing end-of-block");
        if (!literals.build(lengths.data(), int(nLiterals + 257), CodeSet::Literals))
            return end(ZlibWalk::End::Corrupt, "invalid literal/lengths set");
        if (!distances.build(lengths.data() + nLiterals + 257, int(nDistances + 1),
                             CodeSet::Distances))
            return end(ZlibWalk::End::Corrupt, "invalid distances set");
        return true;
    }

    // A stored block: LEN bytes as they are, after its header at the next byte boundary.
    bool stored() {
        in.align();
        const long length = in.bits(16), complement = in.bits(16);
        if (complement < 0)
            return end(ZlibWalk::End::Truncated);
        if ((length ^ 0xffff) != complement)
            return end(ZlibWalk::End::Corrupt, "invalid stored block lengths");
        // No further than one byte past the limit: that is enough to know.
        const std::uint64_t room = limit - result.produced; // produced <= limit here
        const std::uint64_t wanted = room < std::uint64_t(length) ? room + 1 : length;
        const std::uint64_t skipped = in.skipBytes(wanted);
        result.produced += skipped;
        if (result.produced > limit)
            return end(ZlibWalk::End::TooLong);
        if (skipped < std::uint64_t(length))
            return end(ZlibWalk::End::Truncated);
        return true;
    }

    void walk() {
        const long method = in.bits(8), flags = in.bits(8);
        if (flags < 0)
            return void(end(ZlibWalk::End::Truncated));
        if ((method & 15) != 8 || (method >> 4) > 7 || (method * 256 + flags) % 31 != 0)
            return void(end(ZlibWalk::End::Corrupt, "not a zlib stream (header)"));
        if (flags & 0x20)
            return void(end(ZlibWalk::End::Corrupt, "a preset dictionary (PNG has none)"));
        static const auto fixed = [] {
            std::array<std::uint8_t, 288> lengths{};
            for (int s = 0; s < 288; ++s)
                lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
            std::array<std::uint8_t, 32> distanceLengths;
            distanceLengths.fill(5); // 30 and 31 complete the code but are never valid
            std::pair<Huffman, Huffman> codes;
            codes.first.build(lengths.data(), 288, CodeSet::Literals);
            codes.second.build(distanceLengths.data(), 32, CodeSet::Distances);
            return codes;
        }();
        Huffman literals, distances;
        for (bool last = false; !last;) {
            const long header = in.bits(3);
            if (header < 0)
                return void(end(ZlibWalk::End::Truncated));
            last = header & 1;
            const long type = header >> 1;
            if (type == 3)
                return void(end(ZlibWalk::End::Corrupt, "invalid block type"));
            const bool walked =
                type == 0   ? stored()
                : type == 1 ? codes(fixed.first, fixed.second)
                            : dynamicTables(literals, distances) && codes(literals, distances);
            if (!walked)
                return;
        }
        end(ZlibWalk::End::Complete);
    }
};

} // namespace

ZlibWalk walkZlib(const std::vector<std::span<const std::uint8_t>>& pieces, std::uint64_t limit) {
    Walker walker{BitReader(pieces), limit, {}};
    walker.walk();
    return walker.result;
}

} // namespace snowcap
