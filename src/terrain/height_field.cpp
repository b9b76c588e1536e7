#include "terrain/height_field.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <utility>

namespace snowcap {

HeightField::HeightField(int columns, int rows, std::vector<float> heightsM, glm::dvec2 centreCm,
                         glm::dvec2 sizeCm)
    : columns_(columns), rows_(rows), heightsM_(std::move(heightsM)), centreCm_(centreCm),
      sizeCm_(sizeCm) {}

glm::dvec2 HeightField::cellCm() const {
    if (flat())
        return glm::dvec2(0.0);
    return {sizeCm_.x / columns_, sizeCm_.y / rows_};
}

float HeightField::sampleM(int column, int row) const {
    column = std::clamp(column, 0, columns_ - 1);
    row = std::clamp(row, 0, rows_ - 1);
    return heightsM_[static_cast<std::size_t>(row) * columns_ + column];
}

double HeightField::heightCm(double xCm, double yCm) const {
    if (flat())
        return 0.0;
    const glm::dvec2 cell = cellCm();
    // Continuous sample coordinates: column i's centre at i, row j's at j (row 0 north).
    const double u = (xCm - (centreCm_.x - sizeCm_.x * 0.5)) / cell.x - 0.5;
    const double v = ((centreCm_.y + sizeCm_.y * 0.5) - yCm) / cell.y - 0.5;
    const double uc = std::clamp(u, 0.0, double(columns_ - 1));
    const double vc = std::clamp(v, 0.0, double(rows_ - 1));
    const int i = std::min(int(uc), std::max(columns_ - 2, 0));
    const int j = std::min(int(vc), std::max(rows_ - 2, 0));
    const double fu = uc - i, fv = vc - j;
    const double north = sampleM(i, j) * (1.0 - fu) + sampleM(i + 1, j) * fu;
    const double south = sampleM(i, j + 1) * (1.0 - fu) + sampleM(i + 1, j + 1) * fu;
    return (north * (1.0 - fv) + south * fv) * 100.0;
}

glm::dvec3 HeightField::normal(double xCm, double yCm) const {
    if (flat())
        return {0.0, 0.0, 1.0};
    const glm::dvec2 cell = cellCm();
    const double dhdx = (heightCm(xCm + cell.x, yCm) - heightCm(xCm - cell.x, yCm)) / (2 * cell.x);
    const double dhdy = (heightCm(xCm, yCm + cell.y) - heightCm(xCm, yCm - cell.y)) / (2 * cell.y);
    return glm::normalize(glm::dvec3(-dhdx, -dhdy, 1.0));
}

HeightSpan HeightField::spanCm(glm::dvec2 centreCm, double widthCm) const {
    if (flat())
        return {};
    const glm::dvec2 cell = cellCm();
    const double west = centreCm_.x - sizeCm_.x * 0.5, north = centreCm_.y + sizeCm_.y * 0.5;
    const double half = widthCm * 0.5;
    // The samples either side of every point of the square: floor and floor + 1.
    const auto columnOf = [&](double x) {
        return (x - west) / cell.x - 0.5;
    };
    const auto rowOf = [&](double y) {
        return (north - y) / cell.y - 0.5;
    };
    const auto clampIndex = [](double at, int count) {
        return int(std::clamp(at, 0.0, double(count - 1)));
    };
    const int i0 = clampIndex(std::floor(columnOf(centreCm.x - half)), columns_);
    const int i1 = clampIndex(std::floor(columnOf(centreCm.x + half)) + 1, columns_);
    const int j0 = clampIndex(std::floor(rowOf(centreCm.y + half)), rows_);
    const int j1 = clampIndex(std::floor(rowOf(centreCm.y - half)) + 1, rows_);
    float low = sampleM(i0, j0), high = low;
    for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) {
            const float h = sampleM(i, j);
            low = std::min(low, h);
            high = std::max(high, h);
        }
    return {low * 100.0, high * 100.0};
}

HeightSpan HeightField::spanCm() const {
    if (flat())
        return {};
    const auto [low, high] = std::minmax_element(heightsM_.begin(), heightsM_.end());
    return {*low * 100.0, *high * 100.0};
}

} // namespace snowcap
