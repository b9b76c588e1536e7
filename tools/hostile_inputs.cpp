// The hostile-input fixtures beyond meshes (tools/make_hostile_inputs.cpp runs them): world
// files, scenario files, special files where a file is expected, command lines and output
// targets, each built to lie, break off, block or replace. Standalone: the world files are
// written here from the format in docs/world.md, not with snowcap's own encoder, so a change of
// format that the document does not follow shows up as a failing fixture.

#include "hostile_inputs.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace hostile {

namespace {

std::uint32_t crc32(const void* data, std::size_t bytes, std::uint32_t crc = 0) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    crc = ~crc;
    const auto* p = static_cast<const std::uint8_t*>(data);
    for (std::size_t i = 0; i < bytes; ++i)
        crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

template <class T> void put(std::string& out, T value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// A world file as docs/world.md describes version 2, with hooks to lie in each part.
struct WorldSpec {
    std::uint32_t version = 2;
    std::uint32_t tile = 16, resolution = 64, simIndex = 1;
    double texelCm = 2.0, originX = 0.0, originY = 0.0;
    double timeS = 12.5, decayPending = 0.003, agePendingS = 0.01, refillPending = 0.0002;
    std::vector<std::pair<std::int32_t, std::int32_t>> tiles{{0, 0}, {1, 0}, {-2, 3}};
    bool tileCrcOverCoordinates = true; // version 1 had none over them
};

std::string worldBytes(const WorldSpec& w) {
    std::string out = "SNOWCAPW";
    put(out, w.version);
    put(out, std::uint32_t(1));
    if (w.version >= 2)
        put(out, crc32(out.data(), out.size()));
    const std::size_t start = out.size();
    for (std::uint32_t v : {w.simIndex, 0u, 1u, w.tile, w.resolution})
        put(out, v);
    for (double v :
         {w.texelCm, w.originX, w.originY, w.timeS, w.decayPending, w.agePendingS, w.refillPending})
        put(out, v);
    put(out, std::uint32_t(w.tiles.size()));
    put(out, crc32(out.data() + start, out.size() - start));
    for (std::size_t t = 0; t < w.tiles.size(); ++t) {
        std::vector<std::uint16_t> bits(std::size_t(w.tile) * w.tile);
        for (std::size_t i = 0; i < bits.size(); ++i)
            bits[i] = std::uint16_t((i * 37 + t * 101) % 0x3c00);
        const auto [x, y] = w.tiles[t];
        std::uint32_t crc = 0;
        if (w.tileCrcOverCoordinates) {
            std::uint32_t head[4] = {w.simIndex, 0u, std::uint32_t(x), std::uint32_t(y)};
            crc = crc32(bits.data(), bits.size() * 2, crc32(head, sizeof head));
        } else {
            crc = crc32(bits.data(), bits.size() * 2);
        }
        put(out, x);
        put(out, y);
        put(out, crc);
        out.append(reinterpret_cast<const char*>(bits.data()), bits.size() * 2);
    }
    return out;
}

void writeFile(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// A file of `bytes` that holds `head` and then a hole: no disk is spent on the rest.
void writeSparse(const fs::path& path, const std::string& head, std::uint64_t bytes) {
    writeFile(path, head);
    if (::truncate(path.c_str(), off_t(bytes)) != 0)
        throw std::runtime_error("cannot make the sparse file " + path.string());
}

void makeFifo(const fs::path& path) {
    fs::remove(path);
    if (::mkfifo(path.c_str(), 0600) != 0)
        throw std::runtime_error("cannot make the FIFO " + path.string());
}

std::string repeat(const std::string& unit, std::size_t count, std::size_t width) {
    std::string out;
    out.reserve(count * (unit.size() + width));
    for (std::size_t i = 0; i < count; ++i) {
        std::string item = unit;
        const std::string n = std::to_string(i);
        for (std::size_t at; (at = item.find('#')) != std::string::npos;)
            item.replace(at, 1, n);
        out += item;
    }
    return out;
}

// The keys every world fixture's run needs: world_walk's sim b keeps a world at 2 cm texels.
std::vector<std::string> renderWorldIn(const fs::path& dir, const fs::path& file) {
    return {"render",
            "--scenario",
            "world_walk",
            "--frames",
            "1",
            "--out",
            (dir / "out_world_in").string(),
            "--no-progress",
            "--world-in",
            file.string()};
}

std::vector<std::string> params(const fs::path& file) {
    return {"params", "--scenario", file.string()};
}

} // namespace

std::vector<InputFixture> writeInputFixtures(const fs::path& dir) {
    fs::create_directories(dir);
    std::vector<InputFixture> all;
    const auto add = [&all](std::string cls, std::string name, std::vector<std::string> args,
                            std::string message, fs::path names = {}) {
        return addFixture(all, std::move(cls), std::move(name), std::move(args), std::move(message),
                          std::move(names));
    };

    // ---- special files where a file is read ----------------------------------------------
    const fs::path fifo = dir / "fifo";
    makeFifo(fifo);
    const fs::path folder = dir / "a_directory.toml";
    fs::create_directories(folder);
    const fs::path zeroLink = dir / "zero_link.world";
    fs::remove(zeroLink);
    fs::create_symlink("/dev/zero", zeroLink);
    for (const auto& [what, path, kind] :
         std::vector<std::tuple<std::string, fs::path, std::string>>{
             {"dev_zero", "/dev/zero", "a character device"},
             {"dev_urandom", "/dev/urandom", "a character device"},
             {"fifo", fifo, "a FIFO"},
             {"directory", folder, "a directory"},
             {"link_to_dev_zero", zeroLink, "a character device"}}) {
        add("special file", "world-in " + what, renderWorldIn(dir, path),
            "not a regular file (" + kind + ")", path);
        add("special file", "scenario " + what, params(path), "not a regular file (" + kind + ")",
            path);
    }
    add("special file", "render --scenario fifo",
        {"render", "--scenario", fifo.string(), "--out", (dir / "out_fifo").string()},
        "not a regular file (a FIFO)", fifo);
    add("special file", "inspect-mesh fifo", {"inspect-mesh", fifo.string()},
        "not a regular file (a FIFO)", fifo);
    add("special file", "inspect-mesh directory", {"inspect-mesh", folder.string()},
        "not a regular file (a directory)", folder);

    // ---- world files ---------------------------------------------------------------------
    const auto world = [&](const std::string& name, const WorldSpec& spec) {
        const fs::path path = dir / (name + ".world");
        writeFile(path, worldBytes(spec));
        return path;
    };
    {
        const fs::path path = dir / "sparse_3gb_no_magic.world";
        writeSparse(path, "", 3ull << 30);
        add("world file", "3 GB sparse, no magic", renderWorldIn(dir, path), "no SNOWCAPW magic",
            path);
    }
    {
        WorldSpec spec;
        spec.tiles = {{0, 0}};
        const fs::path path = dir / "sparse_3gb_valid_header.world";
        // Headers and tile 0's coordinates and checksum, then 3 GB of hole: tile 0's payload
        // (zeros) fails its checksum after 512 bytes read.
        writeSparse(path, worldBytes(spec).substr(0, 20 + 84 + 12), 3ull << 30);
        add("world file", "3 GB sparse, valid headers, zero tiles", renderWorldIn(dir, path),
            "checksum does not match", path);
        const fs::path big = dir / "sparse_8gb_valid_header.world";
        writeSparse(big, worldBytes(spec).substr(0, 20 + 84 + 12), 8ull << 30);
        add("world file", "8 GB sparse, valid headers", renderWorldIn(dir, big),
            "limit import.max_world_mib", big);
    }
    {
        WorldSpec spec;
        spec.tiles.assign(4000, {0, 0});
        for (std::size_t i = 0; i < spec.tiles.size(); ++i)
            spec.tiles[i] = {std::int32_t(i % 100), std::int32_t(i / 100)};
        std::string bytes = worldBytes(spec);
        bytes.resize(20 + 84 + 3000 * (12 + 512)); // breaks off in tile 3000
        const fs::path path = dir / "truncated.world";
        writeFile(path, bytes);
        add("world file", "truncated inside a tile", renderWorldIn(dir, path), "claims 4000 tiles",
            path);
    }
    {
        WorldSpec spec;
        spec.version = 1;
        spec.tileCrcOverCoordinates = false;
        const fs::path path = world("version_1", spec);
        add("world file", "version 1 (coordinates under no checksum)", renderWorldIn(dir, path),
            "version 1", path);
    }
    {
        std::string bytes = worldBytes({});
        bytes[12] ^= 0x04; // sim count, file header checksum left as it was
        const fs::path path = dir / "header_bit.world";
        writeFile(path, bytes);
        add("world file", "a bit flipped in the file header", renderWorldIn(dir, path),
            "file header's checksum", path);
        bytes = worldBytes({});
        bytes[20 + 20 + 3] ^= 0x10; // the texel size, sim header checksum as it was
        const fs::path sim = dir / "sim_header_bit.world";
        writeFile(sim, bytes);
        add("world file", "a bit flipped in a sim header", renderWorldIn(dir, sim),
            "header checksum", sim);
    }
    {
        const std::size_t firstTile = 20 + 84; // file header, sim header and its checksum
        std::string bytes = worldBytes({});
        bytes[firstTile] ^= 0x01; // tile 0's x
        const fs::path path = dir / "tile_x_bit.world";
        writeFile(path, bytes);
        add("world file", "a bit flipped in a tile coordinate", renderWorldIn(dir, path),
            "checksum does not match", path);
        // Two tiles' coordinates swapped (each tile keeps its own checksum).
        bytes = worldBytes({});
        const std::size_t second = firstTile + 12 + 512;
        std::string a = bytes.substr(firstTile, 8), b = bytes.substr(second, 8);
        bytes.replace(firstTile, 8, b);
        bytes.replace(second, 8, a);
        const fs::path swapped = dir / "tiles_swapped.world";
        writeFile(swapped, bytes);
        add("world file", "two tiles' coordinates swapped", renderWorldIn(dir, swapped),
            "checksum does not match", swapped);
    }
    {
        WorldSpec spec;
        spec.tiles = {
            {0, 0},
            {std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min()}};
        const fs::path path = world("tile_far_away", spec);
        add("world file", "tile at (2^31-1, -2^31), checksums right", renderWorldIn(dir, path),
            "outside the world", path);
        spec.tiles = {{3, 4}, {3, 4}};
        const fs::path twice = world("tile_twice", spec);
        add("world file", "one tile twice", renderWorldIn(dir, twice), "in the file twice", twice);
    }
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        struct Clock {
            std::string name, message;
            double WorldSpec::*member;
            double value;
        };
        for (const Clock& c : std::vector<Clock>{
                 {"decay_nan", "decay remainder", &WorldSpec::decayPending, nan},
                 {"decay_negative", "decay remainder", &WorldSpec::decayPending, -0.5},
                 {"time_nan", "clock time", &WorldSpec::timeS, nan},
                 {"time_1e300", "clock time", &WorldSpec::timeS, 1e300},
                 {"time_minus_1e300", "clock time", &WorldSpec::timeS, -1e300},
                 {"age_inf", "age remainder", &WorldSpec::agePendingS, inf},
                 {"refill_negative", "refill remainder", &WorldSpec::refillPending, -1.0},
                 {"texel_nan", "texel size", &WorldSpec::texelCm, nan},
                 {"origin_inf", "grid origin", &WorldSpec::originX, inf}}) {
            WorldSpec spec;
            spec.*c.member = c.value;
            const fs::path path = world("clock_" + c.name, spec);
            add("world clock", c.name + " (checksums right)", renderWorldIn(dir, path), c.message,
                path);
        }
    }

    // ---- world outputs -------------------------------------------------------------------
    {
        const fs::path target = dir / "out_fifo.world";
        makeFifo(target);
        InputFixture* f =
            add("world output", "--world-out onto a FIFO",
                {"render", "--scenario", "world_walk", "--frames", "1", "--out",
                 (dir / "out_world_out").string(), "--no-progress", "--world-out", target.string()},
                "not a regular file (a FIFO), not replaced", target);
        f->stillFifo = target;
        // The real device, as root (who could replace it): never replaced, nothing written.
        if (::geteuid() == 0) {
            InputFixture* full =
                add("world output", "--world-out /dev/full (as root)",
                    {"render", "--scenario", "world_walk", "--frames", "1", "--out",
                     (dir / "out_world_out").string(), "--no-progress", "--world-out", "/dev/full"},
                    "not a regular file (a character device), not replaced", "/dev/full");
            full->stillCharDevice = "/dev/full";
        } else {
            std::printf("skipped: --world-out /dev/full needs root (only root could replace "
                        "the device; the FIFO case covers the refusal)\n");
        }
        add("world output", "--world-out into a missing directory",
            {"render", "--scenario", "world_walk", "--frames", "1", "--out",
             (dir / "out_world_out").string(), "--no-progress", "--world-out",
             (dir / "no" / "such" / "dir" / "x.world").string()},
            "is not a directory", dir / "no" / "such" / "dir" / "x.world");
    }

    // ---- output directories --------------------------------------------------------------
    {
        const fs::path busy = dir / "out_busy";
        fs::create_directories(busy);
        InputFixture* f = add("output lock", "render into a directory another run holds",
                              {"render", "--scenario", "press_release", "--frames", "1", "--out",
                               busy.string(), "--no-progress"},
                              "another snowcap run (PID ", busy);
        f->holdLock = busy;
        InputFixture* g =
            add("output lock", "sweep into a directory another run holds",
                {"sweep", "--scenario", "press_release", "--vary", "sim.a.decay=0.9,0.95", "--at",
                 "0.1", "--out", busy.string(), "--no-progress"},
                "another snowcap run (PID ", busy);
        g->holdLock = busy;
    }

    // ---- scenario files ------------------------------------------------------------------
    {
        const fs::path path = dir / "huge_50mb.toml";
        writeSparse(path, "[run]\n", 50ull << 20);
        add("scenario size", "50 MB scenario", params(path), "limit import.max_config_mib", path);
        const fs::path render = dir / "huge_50mb_render.toml";
        writeSparse(render, "[run]\n", 50ull << 20);
        add("scenario size", "50 MB scenario (render)",
            {"render", "--scenario", render.string(), "--out", (dir / "out_huge").string()},
            "limit import.max_config_mib", render);
    }
    const auto scenario = [&](const std::string& name, const std::string& text) {
        const fs::path path = dir / (name + ".toml");
        writeFile(path, text);
        return path;
    };
    {
        const fs::path probes =
            scenario("probes_10k", repeat("[[probe]]\nname=\"p#\"\nat_cm=[0,0]\n", 10000, 5));
        add("scenario counts", "10,000 [[probe]] tables", params(probes),
            "10000 tables, more than 1024 (limit import.max_probes)", probes);
        // The same file under a cap that lets it through: loads, linear in the names.
        InputFixture* f =
            add("scenario counts", "10,000 probes allowed (linear name check)",
                {"params", "--scenario", probes.string(), "--set", "import.max_probes=100000"}, "");
        f->exitCode = 0;
        const fs::path twice = scenario(
            "probe_name_twice", repeat("[[probe]]\nname = \"p#\"\nat_cm = [0, 0]\n", 3000, 6) +
                                    "[[probe]]\nname = \"p17\"\nat_cm = [0, 0]\n");
        add("scenario counts", "a probe name used twice",
            {"params", "--scenario", twice.string(), "--set", "import.max_probes=100000"},
            "'p17' is already used by probe[17]", twice);
        const fs::path deformers =
            scenario("deformers_2000",
                     repeat("[[deformer]]\nname = \"d#\"\npath = [[0, 0, 0, 0]]\n", 2000, 6));
        add("scenario counts", "2,000 [[deformer]] tables", params(deformers),
            "2000 tables, more than 1024 (limit import.max_deformers)", deformers);
        const fs::path crowds =
            scenario("crowd_members", repeat("[[crowd]]\nname = \"c#\"\ncount = 10000\npath = "
                                             "[[0, 0, 0, 0]]\n",
                                             3, 2));
        add("scenario counts", "3 crowds of 10,000", params(crowds),
            "limit import.max_crowd_members", crowds);
        const fs::path foliage =
            scenario("foliage_300", repeat("[[foliage]]\nname = \"f#\"\ncount = 1\n", 300, 4));
        add("scenario counts", "300 [[foliage]] tables", params(foliage),
            "300 tables, more than 256 (limit import.max_foliage)", foliage);
        const fs::path plants = scenario(
            "foliage_dense",
            "[[foliage]]\nname = \"meadow\"\ndensity_per_m2 = 10000\nsize_cm = [100000, 100000]\n");
        add("scenario counts", "foliage of 1e10 plants (the file is named)", params(plants),
            "limit import.max_plants", plants);
    }
    {
        // What only the scatter and the import can find (after the reader): the line still
        // names the scenario file, with the line and column of the key at fault.
        const std::string run = "[run]\nframes = 1\n";
        const fs::path mesh =
            scenario("foliage_missing_mesh", run + "[[foliage]]\nname = \"weeds\"\ncount = 3\n"
                                                   "mesh = \"assets/meshes/no_such_plant.glb\"\n");
        // --quiet: these reach the GL context, whose info line is a log, not the error.
        add("scenario values", "a foliage mesh that does not exist",
            {"--quiet", "render", "--scenario", mesh.string(), "--out",
             (dir / "out_foliage").string(), "--no-progress"},
            ":6:8: key 'foliage[0].mesh': foliage 'weeds': ", mesh);
        const fs::path tight =
            scenario("foliage_too_tight", run + "[[foliage]]\nname = \"hedge\"\ncount = 400\n"
                                                "size_cm = [100, 100]\nmin_spacing_cm = 50\n");
        add("scenario values", "foliage spacing that leaves no room",
            {"--quiet", "render", "--scenario", tight.string(), "--out",
             (dir / "out_foliage").string(), "--no-progress"},
            ":7:18: key 'foliage[0].min_spacing_cm': foliage 'hedge': only ", tight);
    }
    {
        // A path past its key cap (lowered here: at the default 100,000 a path that long is
        // past import.max_config_mib already, refused below by its size).
        std::string keys = "[[deformer]]\nname = \"walker\"\npath = [";
        for (int i = 0; i < 2000; ++i)
            keys += "[" + std::to_string(i) + ",0,0,0],";
        keys += "]\n";
        const fs::path path = scenario("path_2000_keys", keys);
        add("scenario counts", "one path of 2,000 keys, cap 1,000",
            {"params", "--scenario", path.string(), "--set", "import.max_path_keys=1000"},
            "2000 keys, more than 1000 (limit import.max_path_keys)", path);
        std::string many = "[[deformer]]\nname = \"walker\"\npath = [";
        for (int i = 0; i < 120000; ++i)
            many += "[" + std::to_string(i) + ",0,0,0],";
        many += "]\n";
        const fs::path big = scenario("path_120k_keys", many);
        add("scenario size", "a path of 120,000 keys (1.6 MB) under the default cap", params(big),
            "limit import.max_config_mib", big);
    }
    {
        // The worst the parse itself costs within the default 1 MiB: the most nodes a byte.
        std::string tables;
        for (int i = 0; i < 104000; ++i)
            tables += "[[probe]]\n";
        const fs::path empty = scenario("probes_104k_empty", tables);
        add("scenario counts", "104,000 empty [[probe]] tables (1 MiB)", params(empty),
            "104000 tables, more than 1024 (limit import.max_probes)", empty);
        std::string numbers = "a = [";
        for (int i = 0; i < 520000; ++i)
            numbers += "0,";
        const fs::path ints = scenario("ints_520k", numbers + "]\n");
        add("scenario size", "an array of 520,000 integers (1 MiB)", params(ints),
            "unknown key 'a'", ints);
    }
    {
        const std::string longValue(900u << 10, 'x'); // under import.max_config_mib
        const fs::path path = scenario("long_value", "[view]\nmode = \"" + longValue + "\"\n");
        InputFixture* f = add("scenario values", "a 900 KB string value in an error", params(path),
                              "xxxxxxxx\u2026'", path);
        f->maxLineBytes = 400;
        const std::string longKey(900u << 10, 'k');
        const fs::path key = scenario("long_key", "[view]\n" + longKey + " = 1\n");
        InputFixture* g =
            add("scenario values", "a 900 KB unknown key", params(key), "kkkkkkkk\u2026'", key);
        g->maxLineBytes = 400;
    }

    // ---- command lines -------------------------------------------------------------------
    add("command line", "render --frames 0", {"render", "--frames", "0"},
        "not in range 1 to 2147483647");
    add("command line", "render --every -1", {"render", "--every", "-1"}, "");
    add("command line", "sweep --frames 0", {"sweep", "--at", "1", "--frames", "0"},
        "not in range 1 to 2147483647");
    add("command line", "sweep --jobs 0", {"sweep", "--at", "1", "--jobs", "0"}, "--jobs");
    add("command line", "bench --frames x", {"bench", "--frames", "x"}, "--frames");
    add("command line", "view --size 1", {"view", "--size", "1", "1"}, "--size");
    // With what each needs besides (else "--at is required" comes first, also one line).
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"render"},
                                               {"view"},
                                               {"sweep", "--at", "1"},
                                               {"bench"},
                                               {"params"},
                                               {"export-ue", "--out", (dir / "out_ue").string()},
                                               {"inspect-mesh", "x.glb"}}) {
        std::vector<std::string> bad = args;
        bad.push_back("--no-such-flag");
        add("command line", args[0] + " --no-such-flag", bad, "--no-such-flag");
    }
    add("command line", "inspect-mesh without FILE", {"inspect-mesh"}, "FILE");
    add("command line", "an unknown subcommand", {"no-such-command"}, "no-such-command");
    add("command line", "sweep --vary with a bad key",
        {"sweep", "--at", "1", "--vary", "sim.a.nope=1,2", "--out", (dir / "out_vary").string()},
        "--vary sim.a.nope=1");
    add("command line", "sweep --vary with a bad value",
        {"sweep", "--at", "1", "--vary", "sim.a.decay=0.5,7", "--out", (dir / "out_vary").string()},
        "--vary sim.a.decay=7");
    for (const std::string command : {"render", "sweep", "params", "inspect-mesh"}) {
        InputFixture* f = add("command line", command + " --help", {command, "--help"}, "");
        f->exitCode = 0;
        f->anyStderr = true;
    }
    return all;
}

} // namespace hostile
