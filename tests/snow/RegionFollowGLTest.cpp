// Following regions on the driver: the shift pass against its CPU reference (snapped bit-exact,
// naive to the half rounding), and a field whose region and capture follow a deformer 100 m
// away and back.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "snow/region_shift.hpp"

#include <random>

namespace snowcap {
namespace {

using test::makeField;
using test::redOf;

constexpr int kN = 64;
constexpr double kWidthCm = 256.0; // 4 cm texels

Settings smallSettings(RegionMode a, RegionMode b) {
    Settings settings;
    settings.snow.resolution = kN;
    settings.snow.orthoWidthCm = kWidthCm;
    settings.sims[0].region = a;
    settings.sims[1].region = b;
    return settings;
}

// Distinct half-representable values in a disc, so a misplaced or re-rounded texel shows.
std::vector<float> printPattern() {
    std::vector<float> texels(kN * kN, 0.0f);
    for (int y = 0; y < kN; ++y)
        for (int x = 0; x < kN; ++x) {
            const double r = std::hypot(x - 30, y - 34);
            if (r <= 9.0)
                texels[y * kN + x] = roundToHalf(static_cast<float>(1.0 - r / 10.0 + 0.002 * x),
                                                 HalfRounding::NearestEven);
        }
    return texels;
}

void upload(const gpu::Texture2D& texture, const std::vector<float>& red) {
    glTextureSubImage2D(texture.id(), 0, 0, 0, kN, kN, GL_RED, GL_FLOAT, red.data());
}

const gpu::ShaderProgram& shiftProgram(gpu::ShaderLibrary& shaders, bool bilinear) {
    auto loaded = shaders.load(regionShiftProgram(bilinear));
    if (auto* error = std::get_if<std::string>(&loaded))
        throw std::runtime_error(*error);
    return *std::get<gpu::ShaderProgram*>(loaded);
}

TEST(RegionFollowGL, SnappedShiftsAreBitExactCopiesAndMatchTheCpu) {
    // 300 random whole-texel moves on the driver (the 10,000-move property is pinned on the CPU
    // reference in RegionFollowTest; this pins the pass to the reference bit for bit), then back
    // to the start: the buffer is the original.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto field = makeField(smallSettings(RegionMode::FollowSnapped, RegionMode::Fixed), shaders);
    ASSERT_TRUE(field);
    SnowSim& sim = field->sim(0);
    const std::vector<float> original = printPattern();
    upload(sim.persistent(), original);
    const gpu::ShaderProgram& shift = shiftProgram(shaders, false);
    const glm::dvec2 origin = sim.region().centreCm;
    const double texel = sim.region().texelCm();
    std::vector<float> cpu = original;
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> wander(-12, 12);
    for (int move = 0; move < 300; ++move) {
        const glm::dvec2 next = origin + glm::dvec2(wander(rng), wander(rng)) * texel;
        cpu = shiftBufferCpu(cpu, kN, shiftOffsetTexels(sim.region().centreCm, next, texel), false);
        sim.shiftRegion(next, shift);
        if (move % 100 == 99)
            ASSERT_EQ(redOf(sim.persistent()), cpu) << "move " << move;
    }
    sim.shiftRegion(origin, shift);
    EXPECT_EQ(redOf(sim.persistent()), original);
    EXPECT_EQ(sim.params().regionCentreCm[0], static_cast<float>(origin.x));
}

TEST(RegionFollowGL, NaiveShiftsMatchTheCpuAndLoseEnergy) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto field = makeField(smallSettings(RegionMode::FollowNaive, RegionMode::Fixed), shaders);
    ASSERT_TRUE(field);
    SnowSim& sim = field->sim(0);
    const std::vector<float> original = printPattern();
    upload(sim.persistent(), original);
    const gpu::ShaderProgram& shift = shiftProgram(shaders, true);
    std::vector<float> cpu = original;
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> wander(-10.0, 10.0); // cm: fractional texels
    for (int move = 0; move < 30; ++move) {
        const glm::dvec2 next = glm::dvec2(wander(rng), wander(rng));
        cpu = shiftBufferCpu(
            cpu, kN, shiftOffsetTexels(sim.region().centreCm, next, sim.region().texelCm()), true);
        sim.shiftRegion(next, shift);
    }
    const std::vector<float> gpu = redOf(sim.persistent());
    double worst = 0.0, energy = 0.0, before = 0.0;
    for (std::size_t i = 0; i < gpu.size(); ++i) {
        // Same float operations (precise) and exact half rounding: allow one half ulp for a
        // driver that evaluates the weights differently.
        worst =
            std::max(worst, std::abs(double(gpu[i]) - cpu[i]) / halfUlp(std::max(cpu[i], 1e-3f)));
        energy += double(gpu[i]) * gpu[i];
        before += double(original[i]) * original[i];
    }
    RecordProperty("max_difference_half_ulps", std::to_string(worst));
    RecordProperty("energy_kept", std::to_string(energy / before));
    EXPECT_LE(worst, 1.0);
    EXPECT_LT(energy / before, 0.9); // smeared: measured 0.79 kept after 30 moves
}

TEST(RegionFollowGL, RegionAndCaptureFollowADeformerAwayAndBack) {
    // A: fixed, B: follow_snapped. The sphere presses at the origin, jumps 100 m away and
    // presses there (only B's region is there to see it), then comes back and hovers: B's print
    // at the origin was left behind (gone, no ghost), A's is still where it was.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = smallSettings(RegionMode::Fixed, RegionMode::FollowSnapped);
    settings.sims[0].decay = settings.sims[1].decay = 1.0;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    test::Sphere sphere;
    const double dt = 1.0 / 60.0;
    DeformerInstance pressed = sphere.at({0, 0, -20});
    for (int i = 0; i < 5; ++i) // add mode: five steps of a 20 cm press saturate
        field->step({&pressed, 1}, dt);
    EXPECT_EQ(field->captureCount(), 1); // both regions still at the origin: one capture
    const auto texelOf = [&](int s, glm::dvec2 world) {
        const Region& r = field->sim(s).region();
        const glm::ivec2 t = worldToTexel(world, r);
        return redOf(field->sim(s).persistent())[t.y * kN + t.x];
    };
    EXPECT_GT(texelOf(0, {0, 0}), 0.5f);
    EXPECT_GT(texelOf(1, {0, 0}), 0.5f);

    const glm::vec3 away{10000.0f, 2.0f, -20.0f};
    DeformerInstance there = sphere.at(away);
    for (int i = 0; i < 5; ++i)
        field->step({&there, 1}, dt);
    EXPECT_EQ(field->captureCount(), 2); // B's capture moved with B
    EXPECT_EQ(field->captureOf(1).key().region.centreCm, field->sim(1).region().centreCm);
    const glm::dvec2 centreB = field->sim(1).region().centreCm;
    EXPECT_NEAR(centreB.x, away.x, 2.0);
    EXPECT_NEAR(centreB.y, away.y, 2.0);
    EXPECT_GT(texelOf(1, {away.x, away.y}), 0.5f);
    EXPECT_EQ(test::maxOf(redOf(field->sim(0).persistent())) > 0.5f, true); // A kept its print

    DeformerInstance back = sphere.at({0, 0, 500}); // above the snow: no new print
    field->step({&back, 1}, dt);
    EXPECT_NEAR(field->sim(1).region().centreCm.x, 0.0, 2.0);
    EXPECT_EQ(test::maxOf(redOf(field->sim(1).persistent())), 0.0f); // no ghost of either print
    EXPECT_GT(texelOf(0, {0, 0}), 0.5f);
}

} // namespace
} // namespace snowcap
