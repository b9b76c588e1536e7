#pragma once
// Small writers shared by the hostile fixture files.

#include "hostile_fixtures.hpp"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace hostile {

inline void writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

template <class T> std::string bytesOf(const std::vector<T>& values) {
    std::string bytes(values.size() * sizeof(T), '\0');
    if (!values.empty())
        std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

template <class T> std::string bytesOf(T value) {
    std::string bytes(sizeof(T), '\0');
    std::memcpy(bytes.data(), &value, sizeof(T));
    return bytes;
}

inline std::string base64(const std::string& bytes) {
    static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t n = std::uint8_t(bytes[i]) << 16;
        if (i + 1 < bytes.size())
            n |= std::uint8_t(bytes[i + 1]) << 8;
        if (i + 2 < bytes.size())
            n |= std::uint8_t(bytes[i + 2]);
        out += digits[(n >> 18) & 63];
        out += digits[(n >> 12) & 63];
        out += i + 1 < bytes.size() ? digits[(n >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? digits[n & 63] : '=';
    }
    return out;
}

// A PNG signature and IHDR claiming 65535 x 65535 RGBA (16 GiB decoded), and nothing else.
inline std::string hugePngHeader() {
    std::string png = "\x89PNG\r\n\x1a\n";
    // Length 13, "IHDR", width, height, depth 8, colour type 6, then compression, filter and
    // interlace 0: 21 bytes (25 read past the literal's end: found by ASan).
    png += std::string("\0\0\0\x0dIHDR\0\0\xff\xff\0\0\xff\xff\x08\x06\0\0\0", 21);
    png += std::string(4, '\0'); // CRC left wrong: a reader that checks it refuses sooner
    return png;
}

std::string validCollada();
void writeTextFixtures(const std::filesystem::path& dir, std::vector<Fixture>& out);
void writeBinaryFixtures(const std::filesystem::path& dir, const std::filesystem::path& assets,
                         std::vector<Fixture>& out);

} // namespace hostile
