#include "scene/crowd.hpp"

#include "scene/deformer_path.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>
#include <random>
#include <set>

namespace snowcap {

namespace {

using Formation = CrowdSettings::Formation;

// mt19937's sequence is fixed by the standard (its distributions are not): a uniform draw in
// [0, 1) from its top 24 bits, so a seed gives the same crowd everywhere.
class Draw {
public:
    explicit Draw(std::uint32_t seed) : engine_(seed) {}
    double uniform() { return double(engine_() >> 8) * (1.0 / 16777216.0); }

private:
    std::mt19937 engine_;
};

std::vector<glm::vec2> scatter(const CrowdSettings& crowd, Draw& draw) {
    const double radius = crowd.spacingCm * std::sqrt(double(crowd.count) / std::numbers::pi);
    const double closest = 0.7 * crowd.spacingCm;
    std::vector<glm::vec2> points;
    for (int i = 0; i < crowd.count; ++i) {
        glm::vec2 best(0.0f);
        double bestGap = -1.0;
        // The candidate farthest from the members placed so far, of a few: dense packings
        // still finish (the gap is then below `closest`, not an endless retry).
        for (int attempt = 0; attempt < 30 && bestGap < closest; ++attempt) {
            const double r = radius * std::sqrt(draw.uniform());
            const double a = 2.0 * std::numbers::pi * draw.uniform();
            const glm::vec2 p(float(r * std::cos(a)), float(r * std::sin(a)));
            double gap = 1e30;
            for (const glm::vec2& q : points)
                gap = std::min(gap, double(glm::length(p - q)));
            if (gap > bestGap) {
                best = p;
                bestGap = gap;
            }
        }
        points.push_back(best);
    }
    return points;
}

} // namespace

std::vector<glm::vec2> formationOffsets(const CrowdSettings& crowd) {
    const float spacing = float(crowd.spacingCm);
    std::vector<glm::vec2> offsets;
    switch (crowd.formation) {
    case Formation::Column: {
        const int width = std::max(1, std::min(crowd.width, crowd.count));
        for (int k = 0; k < crowd.count; ++k) {
            const int row = k / width, file = k % width;
            offsets.push_back(
                {-float(row) * spacing, (float(file) - 0.5f * float(width - 1)) * spacing});
        }
        break;
    }
    case Formation::Grid: {
        const int side = int(std::ceil(std::sqrt(double(crowd.count))));
        const int rows = (crowd.count + side - 1) / side;
        for (int k = 0; k < crowd.count; ++k) {
            const int row = k / side, column = k % side;
            offsets.push_back({(0.5f * float(rows - 1) - float(row)) * spacing,
                               (float(column) - 0.5f * float(side - 1)) * spacing});
        }
        break;
    }
    case Formation::Scatter: {
        // Its own stream (seed + 1), so the phases and speeds do not change with the formation.
        Draw draw(std::uint32_t(crowd.seed) + 1u);
        offsets = scatter(crowd, draw);
        break;
    }
    }
    return offsets;
}

std::vector<DeformerSettings> crowdMembers(const CrowdSettings& crowd) {
    const DeformerSettings& base = crowd.member;
    const DeformerPath path = DeformerPath::fromSettings(base, 0.0);
    const float heading = path.at(path.startS()).headingRad;
    const glm::vec2 forward(std::cos(heading), std::sin(heading));
    const glm::vec2 left(-forward.y, forward.x);
    const std::vector<glm::vec2> offsets = formationOffsets(crowd);
    Draw draw(std::uint32_t(crowd.seed));
    std::vector<DeformerSettings> members;
    members.reserve(offsets.size());
    for (std::size_t k = 0; k < offsets.size(); ++k) {
        DeformerSettings member = base;
        member.name = base.name + "." + std::to_string(k);
        const glm::vec2 shift = forward * offsets[k].x + left * offsets[k].y;
        const glm::vec3 by(shift, 0.0f);
        for (DeformerSettings::Key& key : member.path)
            key.positionCm += by;
        for (glm::vec3& point : member.waypointsCm)
            point += by;
        member.circleCentreCm += by;
        // Two draws per member whatever its keys use, so one member's draws never shift another's.
        const double phase = draw.uniform(), speed = draw.uniform();
        member.clipPhase = std::fmod(base.clipPhase + crowd.phaseSpread * phase, 1.0);
        const double factor = 1.0 + crowd.speedSpread * (2.0 * speed - 1.0);
        member.clipSpeed = base.clipSpeed * factor;
        member.speedCmS = std::min(base.speedCmS * factor, 10000.0);
        if (member.pathKind == DeformerSettings::PathKind::Keys && !member.path.empty()) {
            // Keys set their own pace: the same path in 1 / factor of the time.
            const double start = member.path.front().timeS;
            for (DeformerSettings::Key& key : member.path)
                key.timeS = start + (key.timeS - start) / factor;
        }
        members.push_back(std::move(member));
    }
    return members;
}

std::variant<std::vector<DeformerSettings>, std::string>
scenarioDeformers(const Settings& settings) {
    std::vector<DeformerSettings> all = settings.deformers;
    std::set<std::string> names;
    for (const DeformerSettings& d : all)
        names.insert(d.name);
    for (const CrowdSettings& crowd : settings.crowds)
        for (DeformerSettings& member : crowdMembers(crowd)) {
            if (!names.insert(member.name).second)
                return "crowd '" + crowd.member.name + "': its member name '" + member.name +
                       "' is already a deformer's";
            all.push_back(std::move(member));
        }
    return all;
}

} // namespace snowcap
