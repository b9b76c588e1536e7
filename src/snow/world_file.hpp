#pragma once
// World files (render --world-out / --world-in, view --world-in): every world store of a field
// with its windows folded in, and each sim's clock, so a loaded run steps on exactly as the
// saved one would have. The format (docs/world.md, "World files"), little endian:
//
//   "SNOWCAPW" u32 version (2)  u32 sim count  u32 CRC-32 of these 16 bytes
//   per sim:   u32 sim index  u32 format (0 = r16f)  u32 channels  u32 tile texels
//              u32 window resolution  f64 texel cm  f64 grid origin x, y (cm)
//              f64 clock time, decay remainder, age remainder, refill remainder
//              u32 tile count  u32 CRC-32 of this sim's header fields above
//   per tile:  i32 tile x, y  u32 CRC-32 of (u32 sim index, u32 format, i32 x, i32 y, payload)
//              payload: tile texels² x channels u16 (the half floats' bits, row 0 = lowest y)
//
// Every tile is as of the saved step (its age is in the file's clock, not in the tile).
// Parsing checks everything before anything is used: a bad file loads nothing. A file is read
// header first and one tile at a time, each part under its checksum before it is believed, and
// nothing is allocated for a part before the bytes left can hold it. Version 1 (tile
// coordinates under no checksum) is refused with a line saying so.

#include "core/settings.hpp"
#include "core/sim_clock.hpp"
#include "snow/world_store.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

class SnowField;

struct WorldFileSim {
    int simIndex = 0;
    int format = 0; // 0 = r16f
    int channels = 1;
    int tileTexels = 0;
    int resolution = 0;
    double texelCm = 0.0;
    glm::dvec2 originCm{0.0};
    SimClock::State clock;
    std::vector<std::pair<WorldStore::Key, std::vector<std::uint16_t>>> tiles;
};

struct WorldFile {
    static constexpr std::uint32_t kVersion = 2;
    std::vector<WorldFileSim> sims;
};

// The world's extent: grid origins and tiles within ±1 km x 100 of the origin. A float in cm
// still resolves 1 cm there (2^24 cm = 168 km), and every texel coordinate fits an int.
inline constexpr double kWorldExtentCm = 1.0e7;
// Texel sizes a run can have (snow.region_size_cm / resolution), and the clock's reach: 1e9 s
// is 31 years of simulated time, past any run; a time of 1e300 or NaN is a damaged file.
inline constexpr double kMinTexelCm = 1.0e-3, kMaxTexelCm = 1.0e5, kMaxClockS = 1.0e9;

std::uint32_t crc32(const void* data, std::size_t bytes, std::uint32_t crc = 0);

std::vector<std::uint8_t> encodeWorldFile(const WorldFile& file);
// The reason on failure, without the file name (the caller adds it).
std::variant<WorldFile, std::string> decodeWorldFile(const std::vector<std::uint8_t>& bytes);

// Why these settings cannot save or load a world file (nullopt when they can): a following
// snowpack's world store (sim.X.model = "snowpack", persistence = "world") holds columns of
// four floats, which this format does not carry. One line naming the key.
std::optional<std::string> worldFileRefusal(const Settings& settings);
// The field's world stores with each window folded in (read back now), as a file. Leaves
// the field as it was. Fails when no sim has sim.X.persistence = "world".
std::variant<WorldFile, std::string> snapshotWorld(SnowField& field);
// Puts a file into a field: every sim of the file must exist there with a world store of the
// same format, tile size, window resolution, texel size and grid origin; otherwise the reason,
// and the field is untouched. On success the stores hold the file's tiles, the clocks its
// state and each window the store's texels.
std::optional<std::string> applyWorld(SnowField& field, const WorldFile& file);

// The file on disk: one line naming the file and the reason on failure; loads nothing then.
// Anything but a regular file, or one past `maxBytes` (import.max_world_mib), is refused
// before a byte is read.
std::variant<WorldFile, std::string> readWorldFile(const std::filesystem::path& path,
                                                   std::uint64_t maxBytes = 0);

} // namespace snowcap
