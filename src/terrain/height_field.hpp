#pragma once
// The ground's shape under every sim ([terrain], docs/terrain.md) on the CPU: a grid of heights
// in metres over a rectangle of the world, sampled bilinearly. A height lifts the flat ground
// (snow.surface_z_cm - snow.depth_cm) at its point, so the undisturbed snow top there is
// snow.surface_z_cm + the height. An empty field is flat: every height 0, the scene as it
// always was.
//
// Samples are cell centres, as GDAL and a UE Landscape's vertices both place them: the extent
// sizeCm covers `columns` x `rows` cells edge to edge, row 0 is the north edge (+Y), column 0
// the west edge (-X). Beyond the extent the edge samples hold (the terrain continues level).

#include <cstdint>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <vector>

namespace snowcap {

struct HeightSpan {
    double lowCm = 0.0, highCm = 0.0;
    bool operator==(const HeightSpan&) const = default;
};

class HeightField {
public:
    HeightField() = default; // flat
    // `heightsM` row-major, row 0 north; columns x rows of them, both >= 1.
    HeightField(int columns, int rows, std::vector<float> heightsM, glm::dvec2 centreCm,
                glm::dvec2 sizeCm);

    bool flat() const { return heightsM_.empty(); }
    int columns() const { return columns_; }
    int rows() const { return rows_; }
    glm::dvec2 centreCm() const { return centreCm_; }
    glm::dvec2 sizeCm() const { return sizeCm_; }
    // One cell's side (x, y) in cm; 0 when flat.
    glm::dvec2 cellCm() const;
    const std::vector<float>& heightsM() const { return heightsM_; }
    // Sample (column, row), clamped to the grid, in metres.
    float sampleM(int column, int row) const;

    // The height at world (x, y), bilinear between the four nearest samples, in cm.
    double heightCm(double xCm, double yCm) const;
    // The surface's upward unit normal there (central differences a cell apart; +Z when flat).
    glm::dvec3 normal(double xCm, double yCm) const;
    // The lowest and highest height anywhere in the square of side `widthCm` centred on
    // `centreCm` (bilinear heights lie between their samples', so the samples whose cells touch
    // the square bound them exactly).
    HeightSpan spanCm(glm::dvec2 centreCm, double widthCm) const;
    // Lowest and highest sample of the whole field, in cm (0, 0 when flat).
    HeightSpan spanCm() const;

private:
    int columns_ = 0, rows_ = 0;
    std::vector<float> heightsM_;
    glm::dvec2 centreCm_{0.0}, sizeCm_{0.0};
};

} // namespace snowcap
