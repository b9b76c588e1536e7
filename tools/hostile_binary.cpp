// The binary formats' hostile fixtures: GLB cut at every chunk boundary and lying about its
// length, binary and ASCII STL, FBX (damaged copies of the bundled assets) and .zae archives,
// among them an archive bomb (a 3.6 MiB zip whose .dae inflates to 3.5 GiB).

#include "hostile_write.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <zlib.h>

namespace hostile {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A one-triangle GLB: 12-byte header, JSON chunk, BIN chunk. `cuts` gets the chunk boundaries.
std::string triangleGlb(std::vector<std::size_t>& cuts) {
    std::string bin = bytesOf(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0}) +
                      bytesOf(std::vector<std::uint16_t>{0, 1, 2, 0});
    std::string json =
        R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],)"
        R"("meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],)"
        R"("buffers":[{"byteLength":44}],"bufferViews":[{"buffer":0,"byteLength":36},)"
        R"({"buffer":0,"byteOffset":36,"byteLength":6}],"accessors":[{"bufferView":0,)"
        R"("componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},)"
        R"({"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}]})";
    while (json.size() % 4)
        json += ' ';
    std::string glb = "glTF" + bytesOf<std::uint32_t>(2) +
                      bytesOf<std::uint32_t>(12 + 8 + json.size() + 8 + bin.size());
    cuts = {12};
    glb += bytesOf<std::uint32_t>(json.size()) + "JSON";
    cuts.push_back(glb.size());
    glb += json;
    cuts.push_back(glb.size() - json.size() / 2);
    cuts.push_back(glb.size());
    glb += bytesOf<std::uint32_t>(bin.size()) + std::string("BIN\0", 4);
    cuts.push_back(glb.size());
    glb += bin;
    cuts.push_back(glb.size() - 8);
    return glb;
}

void glbFixtures(const fs::path& dir, std::vector<Fixture>& out) {
    std::vector<std::size_t> cuts;
    const std::string glb = triangleGlb(cuts);
    for (std::size_t cut : cuts) {
        const std::string name = "truncated_at_" + std::to_string(cut) + ".glb";
        writeFile(dir / name, glb.substr(0, cut));
        out.push_back({"glTF/GLB", name,
                       "cut at byte " + std::to_string(cut) + " of " + std::to_string(glb.size()),
                       Expect::Refuse, ""});
    }
    std::string lying = glb;
    lying.replace(8, 4, bytesOf<std::uint32_t>(0xfffffff0u));
    writeFile(dir / "length_claims_4gib.glb", lying);
    out.push_back(
        {"glTF/GLB", "length_claims_4gib.glb", "header length 4 GiB", Expect::Refuse, ""});
    writeFile(dir / "valid.glb", glb);
    out.push_back({"glTF/GLB", "valid.glb", "the undamaged GLB (control)", Expect::Load, ""});
}

std::string stlFacet(float x) {
    std::string facet = bytesOf(std::vector<float>{0, 0, 1, 0, 0, 0, x, 0, 0, 0, 1, 0});
    return facet + std::string(2, '\0');
}

void stlFixtures(const fs::path& dir, std::vector<Fixture>& out) {
    auto add = [&](const std::string& name, const std::string& bytes, const std::string& what,
                   Expect expect) {
        writeFile(dir / name, bytes);
        out.push_back({"STL", name, what, expect, ""});
    };
    const std::string header(80, 'h');
    add("facet_count_claims.stl", header + bytesOf<std::uint32_t>(4000000000u) + stlFacet(1),
        "4e9 facets claimed, one present", Expect::Refuse);
    add("truncated_facets.stl", header + bytesOf<std::uint32_t>(2) + stlFacet(1),
        "2 facets claimed, one present", Expect::Refuse);
    add("truncated_header.stl", header.substr(0, 40), "cut inside the 80-byte header",
        Expect::Refuse);
    add("nan_position.stl",
        header + bytesOf<std::uint32_t>(1) + stlFacet(std::numeric_limits<float>::quiet_NaN()),
        "a NaN coordinate", Expect::Refuse);
    add("huge_position.stl", header + bytesOf<std::uint32_t>(1) + stlFacet(1e38f),
        "a 1e38 coordinate", Expect::Refuse);
    add("truncated_ascii.stl", "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n",
        "ASCII cut inside the first facet", Expect::Refuse);
}

// FBX: the bundled sphere, cut short at a few points, and with its vertex array's count raised
// far past the bytes that follow.
void fbxFixtures(const fs::path& dir, const fs::path& assets, std::vector<Fixture>& out) {
    const std::string fbx = readFile(assets / "sphere.fbx");
    if (fbx.size() < 1000)
        return;
    auto add = [&](const std::string& name, const std::string& bytes, const std::string& what) {
        writeFile(dir / name, bytes);
        out.push_back({"FBX", name, what, Expect::Refuse, ""});
    };
    add("truncated_header.fbx", fbx.substr(0, 20), "cut inside the 27-byte header");
    for (int percent : {10, 50, 90})
        add("truncated_" + std::to_string(percent) + ".fbx",
            fbx.substr(0, fbx.size() * percent / 100),
            "cut at " + std::to_string(percent) + "% of its bytes");
    const std::size_t vertices = fbx.find("Vertices");
    if (vertices != std::string::npos && vertices + 13 < fbx.size()) {
        std::string lying = fbx;
        lying.replace(vertices + 9, 4, bytesOf<std::uint32_t>(0x40000000u)); // after type 'd'
        add("array_count_claims.fbx", lying, "vertex array claiming 2^30 doubles");
    }
}

// A stored-or-deflated single-entry zip (local header, data, central directory, end record).
std::string zipOne(const std::string& entry, const std::string& data, std::uint32_t crc,
                   std::uint32_t size, std::uint16_t method) {
    auto u16 = [](std::uint16_t v) {
        return bytesOf(v);
    };
    auto u32 = [](std::uint32_t v) {
        return bytesOf(v);
    };
    const std::string common = u16(20) + u16(0) + u16(method) + u16(0) + u16(0) + u32(crc) +
                               u32(std::uint32_t(data.size())) + u32(size) +
                               u16(std::uint16_t(entry.size())) + u16(0);
    std::string zip = u32(0x04034b50) + common + entry + data;
    const std::uint32_t central = std::uint32_t(zip.size());
    zip += u32(0x02014b50) + u16(20) + common + u16(0) + u16(0) + u16(0) + u32(0) + u32(0) + entry;
    const std::uint32_t centralSize = std::uint32_t(zip.size()) - central;
    zip += u32(0x06054b50) + u16(0) + u16(0) + u16(1) + u16(1) + u32(centralSize) + u32(central) +
           u16(0);
    return zip;
}

// Raw deflate of `dae` followed by `blocks` MiB of spaces. Once the window holds nothing but
// spaces, every flushed 1 MiB block deflates to the same bytes, so those are repeated instead of
// compressing gigabytes; the CRC is combined the same way. Ends with an empty final block.
std::string deflateWithPadding(const std::string& dae, std::size_t blocks, std::uint32_t& crc) {
    z_stream stream{};
    deflateInit2(&stream, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
    std::string out;
    std::vector<unsigned char> buffer(1 << 16);
    const std::string spaces(1 << 20, ' ');
    auto feed = [&](const std::string& data) {
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
        stream.avail_in = uInt(data.size());
        do {
            stream.next_out = buffer.data();
            stream.avail_out = uInt(buffer.size());
            deflate(&stream, Z_SYNC_FLUSH);
            out.append(reinterpret_cast<char*>(buffer.data()), buffer.size() - stream.avail_out);
        } while (stream.avail_out == 0);
    };
    feed(dae);
    feed(spaces);
    std::size_t before = out.size();
    feed(spaces);
    const std::string unit = out.substr(before);
    before = out.size();
    feed(spaces);
    deflateEnd(&stream);
    if (out.substr(before) != unit)
        return ""; // zlib did not settle into a repeating block: no bomb from this build
    for (std::size_t i = 3; i < blocks; ++i)
        out += unit;
    out += std::string("\x03\x00", 2); // BFINAL, fixed codes, end of block: the stream ends
    const uLong spacesCrc =
        crc32(0, reinterpret_cast<const Bytef*>(spaces.data()), uInt(spaces.size()));
    crc = crc32(0, reinterpret_cast<const Bytef*>(dae.data()), uInt(dae.size()));
    for (std::size_t i = 0; i < blocks; ++i)
        crc = crc32_combine(crc, spacesCrc, z_off_t(spaces.size()));
    return out;
}

void zaeFixtures(const fs::path& dir, std::vector<Fixture>& out) {
    const std::string dae = validCollada();
    const std::uint32_t crc =
        crc32(0, reinterpret_cast<const Bytef*>(dae.data()), uInt(dae.size()));
    const std::string valid = zipOne("model.dae", dae, crc, std::uint32_t(dae.size()), 0);
    writeFile(dir / "valid.zae", valid);
    out.push_back(
        {"Collada/ZAE", "valid.zae", "an undamaged one-entry archive (control)", Expect::Load, ""});
    writeFile(dir / "truncated.zae", valid.substr(0, valid.size() / 2));
    out.push_back({"Collada/ZAE", "truncated.zae", "archive cut in half", Expect::Refuse, ""});
    writeFile(dir / "size_claims_4gib.zae", zipOne("model.dae", dae, crc, 0xfffffff0u, 0));
    out.push_back({"Collada/ZAE", "size_claims_4gib.zae", "entry declaring 4 GiB uncompressed",
                   Expect::Refuse, ""});
    constexpr std::size_t kBombMiB = 3584; // 3.5 GiB: past the default memory cap too
    std::uint32_t bombCrc = 0;
    const std::string bomb = deflateWithPadding(dae, kBombMiB, bombCrc);
    if (bomb.empty())
        throw std::runtime_error("zlib's output for the archive bomb did not repeat");
    writeFile(dir / "archive_bomb.zae",
              zipOne("model.dae", bomb, bombCrc, std::uint32_t(dae.size() + (kBombMiB << 20)), 8));
    out.push_back(
        {"Collada/ZAE", "archive_bomb.zae",
         "archive bomb: " + std::to_string(bomb.size() >> 10) + " KiB inflating to 3.5 GiB",
         Expect::Refuse, ""});
}

} // namespace

void writeBinaryFixtures(const fs::path& dir, const fs::path& assets, std::vector<Fixture>& out) {
    glbFixtures(dir, out);
    stlFixtures(dir, out);
    fbxFixtures(dir, assets, out);
    zaeFixtures(dir, out);
}

std::vector<Fixture> writeFixtures(const fs::path& dir, const fs::path& assets) {
    fs::create_directories(dir);
    std::vector<Fixture> fixtures;
    writeTextFixtures(dir, fixtures);
    writeBinaryFixtures(dir, assets, fixtures);
    return fixtures;
}

} // namespace hostile
