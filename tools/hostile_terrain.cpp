// The hostile terrain files (hostile_inputs.hpp): heightmaps, DEMs and meshes that are cut short,
// lie about their size, are not what their name says, or are no file at all; each is refused
// with one line naming terrain.file, exit 2, within the suite's time and memory.

#include "hostile_inputs.hpp"
#include "hostile_png.hpp"

#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace hostile {

namespace fs = std::filesystem;

namespace {

void writeBytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

} // namespace

std::vector<InputFixture> writeTerrainFixtures(const fs::path& dir) {
    fs::create_directories(dir);
    std::vector<InputFixture> all;
    const auto refused = [&](const std::string& name, const std::string& kind,
                             const fs::path& file) {
        InputFixture* f = addFixture(
            all, "14 terrain files", name,
            {"--quiet", "render", "--scenario", "press_release", "--frames", "1", "--no-progress",
             "--set", "snow.resolution=64", "--set", "terrain.kind=" + kind, "--set",
             "terrain.file=" + file.string(), "--out", (dir / ("out_" + name)).string()},
            "terrain.file", file);
        f->absent = {dir / ("out_" + name) / "stats.json"};
        return f;
    };

    // Heightmaps: colour and cut short, a side past 16384, a side within it whose samples are not
    // there.
    writeBytes(dir / "cut.png", pngClaiming(512, 512, 16, 1000));
    refused("heightmap RGBA16 cut short", "heightmap", dir / "cut.png");
    writeBytes(dir / "huge.png", pngClaiming(20000, 20000, 16, 200));
    refused("heightmap side 20000", "heightmap", dir / "huge.png");
    writeBytes(dir / "lying.png", pngClaiming(16384, 16384, 16, 100));
    refused("heightmap 16384 squared, 100 bytes of samples", "heightmap", dir / "lying.png");
    writeBytes(dir / "odd.r16", std::string(3, '\x7f'));
    refused("raw r16 of 3 bytes", "heightmap", dir / "odd.r16");

    // DEMs: text named .tif, a TIFF header pointing past its end.
    writeBytes(dir / "text.tif", "this is not a GeoTIFF\n");
    refused("dem of text", "dem", dir / "text.tif");
    writeBytes(dir / "cut.tif", std::string("II*\0\xff\xff\xff\x7f", 8));
    refused("dem whose first directory lies past its end", "dem", dir / "cut.tif");

    // Meshes: faces naming vertices that are not there.
    writeBytes(dir / "bad.obj", "v 0 0 0\nv 1 0 0\nf 1 2 9\n");
    refused("mesh of faces without vertices", "mesh", dir / "bad.obj");

    // No file at all: a directory and a FIFO, for each kind (a FIFO must not block the read).
    fs::create_directories(dir / "folder.png");
    const fs::path fifo = dir / "terrain_fifo";
    fs::remove(fifo);
    ::mkfifo(fifo.c_str(), 0600);
    for (const std::string kind : {"heightmap", "dem", "mesh"}) {
        refused(kind + " directory", kind, dir / "folder.png");
        refused(kind + " fifo", kind, fifo)->stillFifo = fifo;
    }
    return all;
}

} // namespace hostile
