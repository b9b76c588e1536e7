// kind = "dem" through GDAL. The file is read as untrusted bytes first (core/untrusted_file.hpp)
// and GDAL opens that copy in its in-memory file system (/vsimem/), so it never follows the name
// to a FIFO, a device or a file swapped in meanwhile, and never reads a sidecar beside it. The
// size the raster claims is checked against the budget before a sample is read.
#include "core/untrusted_file.hpp"
#include "terrain/terrain.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_vsi.h>
#include <gdal.h>
#include <ogr_srs_api.h>

namespace snowcap {

namespace {

// GDAL's last error message, or `fallback` when it left none.
std::string gdalReason(const char* fallback) {
    const char* message = CPLGetLastErrorMsg();
    return (message && *message) ? std::string(message) : std::string(fallback);
}

// The in-memory copy GDAL opens, removed with the dataset.
class MemoryDataset {
public:
    MemoryDataset(std::vector<std::uint8_t>& bytes) {
        static std::atomic<unsigned> counter{0};
        name_ = "/vsimem/snowcap_dem_" + std::to_string(counter++);
        VSIFCloseL(
            VSIFileFromMemBuffer(name_.c_str(), bytes.data(), vsi_l_offset(bytes.size()), FALSE));
        dataset_ =
            GDALOpenEx(name_.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    }
    ~MemoryDataset() {
        if (dataset_)
            GDALClose(dataset_);
        VSIUnlink(name_.c_str());
    }
    MemoryDataset(const MemoryDataset&) = delete;
    MemoryDataset& operator=(const MemoryDataset&) = delete;
    GDALDatasetH get() const { return dataset_; }

private:
    std::string name_;
    GDALDatasetH dataset_ = nullptr;
};

} // namespace

std::variant<HeightField, std::string> readDem(const std::filesystem::path& path,
                                               const TerrainSettings& terrain) {
    static const bool registered = [] {
        GDALAllRegister();
        // Nothing beside the file: no directory listing, no .aux.xml written back.
        CPLSetConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "EMPTY_DIR");
        CPLSetConfigOption("GDAL_PAM_ENABLED", "NO");
        return true;
    }();
    (void)registered;
    const auto budget = static_cast<std::uint64_t>(terrain.maxMiB * 1024.0 * 1024.0);
    // A DEM may store 8 bytes a sample where the field keeps 4: the file may be twice the budget.
    auto read = readUntrustedBytes(path, budget * 2, "terrain.max_mib");
    if (auto* error = std::get_if<std::string>(&read))
        return std::move(*error);
    auto& bytes = std::get<std::vector<std::uint8_t>>(read);
    const std::string who = path.string() + ": ";

    CPLPushErrorHandler(CPLQuietErrorHandler);
    CPLErrorReset();
    struct PopHandler {
        ~PopHandler() { CPLPopErrorHandler(); }
    } pop;
    MemoryDataset dataset(bytes);
    if (!dataset.get())
        return who + "not a raster GDAL reads (" + gdalReason("no driver took it") + ")";
    GDALDatasetH ds = dataset.get();
    const int columns = GDALGetRasterXSize(ds), rows = GDALGetRasterYSize(ds);
    if (GDALGetRasterCount(ds) < 1)
        return who + "a raster with no band";
    if (columns <= 0 || rows <= 0)
        return who + "its header claims " + std::to_string(columns) + " x " + std::to_string(rows) +
               " samples";
    if (columns > kMaxTerrainSide || rows > kMaxTerrainSide)
        return who + std::to_string(columns) + " x " + std::to_string(rows) + " samples, at most " +
               std::to_string(kMaxTerrainSide) + " a side";
    const std::uint64_t heightBytes = std::uint64_t(columns) * rows * sizeof(float);
    if (heightBytes > budget)
        return who + std::to_string(columns) + " x " + std::to_string(rows) + " samples take " +
               std::to_string(heightBytes >> 20) + " MiB as heights, over terrain.max_mib (" +
               std::to_string(budget >> 20) + ")";

    double transform[6] = {0, 1, 0, 0, 0, -1};
    const bool georeferenced = GDALGetGeoTransform(ds, transform) == CE_None;
    if (!georeferenced)
        return who + "not georeferenced (no geotransform): give it one, or use kind = "
                     "\"heightmap\" with size_m";
    if (transform[2] != 0.0 || transform[4] != 0.0)
        return who + "a rotated raster (its geotransform turns it): warp it north up first "
                     "(gdalwarp)";
    double metresPerUnit = 1.0;
    if (OGRSpatialReferenceH srs = GDALGetSpatialRef(ds)) {
        if (OSRIsGeographic(srs))
            return who + "in a geographic CRS (degrees): reproject it to a projected CRS in "
                         "metres first (gdalwarp -t_srs EPSG:<a UTM zone>)";
        metresPerUnit = OSRGetLinearUnits(srs, nullptr);
        if (!(metresPerUnit > 0.0))
            metresPerUnit = 1.0;
    }
    const double cellX = std::abs(transform[1]) * metresPerUnit;
    const double cellY = std::abs(transform[5]) * metresPerUnit;
    if (!(cellX > 0.0) || !(cellY > 0.0) || !std::isfinite(cellX) || !std::isfinite(cellY))
        return who + "its geotransform gives cells of " + std::to_string(cellX) + " x " +
               std::to_string(cellY) + " m";

    GDALRasterBandH band = GDALGetRasterBand(ds, 1);
    std::vector<float> heights(std::size_t(columns) * rows);
    if (GDALRasterIO(band, GF_Read, 0, 0, columns, rows, heights.data(), columns, rows, GDT_Float32,
                     0, 0) != CE_None)
        return who + "cannot read its heights (" + gdalReason("GDAL gave no reason") + ")";
    // Rows from north: a south-up raster (positive y step) is turned; a west-pointing x step
    // reverses the columns.
    if (transform[5] > 0.0)
        for (int row = 0; row < rows / 2; ++row)
            std::swap_ranges(heights.begin() + std::ptrdiff_t(row) * columns,
                             heights.begin() + std::ptrdiff_t(row + 1) * columns,
                             heights.begin() + std::ptrdiff_t(rows - 1 - row) * columns);
    if (transform[1] < 0.0)
        for (int row = 0; row < rows; ++row)
            std::reverse(heights.begin() + std::ptrdiff_t(row) * columns,
                         heights.begin() + std::ptrdiff_t(row + 1) * columns);
    int hasNoData = 0;
    const double noData = GDALGetRasterNoDataValue(band, &hasNoData);
    const auto missing = [&](float h) {
        return !std::isfinite(h) || (hasNoData && double(h) == float(noData));
    };
    float lowest = INFINITY;
    for (float h : heights)
        if (!missing(h))
            lowest = std::min(lowest, h);
    if (!std::isfinite(lowest))
        return who + "holds no valid height (every sample is no-data)";
    for (float& h : heights)
        if (missing(h))
            h = lowest;
    return HeightField(columns, rows, std::move(heights),
                       {terrain.centreCm[0], terrain.centreCm[1]},
                       glm::dvec2(cellX * columns, cellY * rows) * 100.0);
}

} // namespace snowcap
