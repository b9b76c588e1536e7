#include "snow/snow_params.hpp"

#include "core/ground.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace snowcap {

namespace {

void put(float (&out)[4], glm::vec3 rgb, float w) {
    out[0] = rgb.x;
    out[1] = rgb.y;
    out[2] = rgb.z;
    out[3] = w;
}

} // namespace

double effectiveBlurDistance(const MaterialSettings& material, int resolution) {
    return material.rtBlurDistance > 0.0 ? material.rtBlurDistance
                                         : blurDistanceForResolution(resolution);
}

double effectiveDisplacementCm(const MaterialSettings& material, double snowDepthCm) {
    if (material.displacementMagnitudeCm > 0.0)
        return material.displacementMagnitudeCm;
    const double range = material.tgh - material.tgl;
    return range > 0.0 ? snowDepthCm / range : 0.0;
}

SnowParamsBlock makeSnowParams(const Settings& settings, const Region& region, int simIndex) {
    const SimSettings& sim = settings.sims[simIndex];
    const MaterialSettings& material = sim.material;
    const LookSettings& look = settings.look;
    SnowParamsBlock block{};
    block.regionCentreCm[0] = static_cast<float>(region.centreCm.x);
    block.regionCentreCm[1] = static_cast<float>(region.centreCm.y);
    block.orthoWidthCm = static_cast<float>(region.widthCm);
    block.captureDistanceCm = static_cast<float>(settings.capture.distanceCm);
    setLaw(block, AccumulateLaw::of(sim, settings.capture));
    setStep(block, SimStep{});
    block.rtBlurDistance = static_cast<float>(effectiveBlurDistance(material, region.resolution));
    block.resolution = static_cast<float>(region.resolution);
    block.surfaceZCm = static_cast<float>(settings.snow.surfaceZCm);
    block.captureZCm = static_cast<float>(settings.snow.captureZCm);
    block.snowDepthCm = static_cast<float>(settings.snow.depthCm);
    block.maskMulti = static_cast<float>(material.maskMulti);
    block.tgl = static_cast<float>(material.tgl);
    block.tgh = static_cast<float>(material.tgh);
    block.displacementCm =
        static_cast<float>(effectiveDisplacementCm(material, settings.snow.depthCm));
    block.distanceSteps = static_cast<float>(material.distanceSteps);
    block.radialSteps = static_cast<float>(material.radialSteps);
    block.edgeControl = static_cast<float>(material.edgeControl);
    block.normalIntensity = static_cast<float>(material.normalIntensity);
    block.normalMode = sim.normals == NormalMode::Sobel ? 1.0f : 0.0f;
    block.formatRgba = sim.format == BufferFormat::RGBA16F ? 1.0f : 0.0f;
    block.rimsOn = sim.rims == RimMode::On ? 1.0f : 0.0f;
    block.rimHeightCm = static_cast<float>(material.rimHeightCm);
    block.rimWidthUv = static_cast<float>(material.rimWidthCm / region.widthCm);
    block.ageSoftenS = 30.0f;
    put(block.snowColourWrap, look.snowColour, static_cast<float>(look.wrap));
    put(block.packedColourReveal, look.packedColour, static_cast<float>(look.groundReveal));
    const GroundLayer ground = groundLayer(settings.ground, look);
    put(block.groundColour, ground.colour, static_cast<float>(look.detailNormal));
    put(block.ssSnow, look.ssSnow, 0.0f);
    put(block.ssGround, look.ssGround, ground.wetDarkening);
    const glm::vec3 sun = glm::length(look.sunDirection) > 0.0f ? glm::normalize(look.sunDirection)
                                                                : glm::vec3(0, 0, 1);
    put(block.sunDirection, sun, 0.0f);
    put(block.sunColour, look.sunColour, 0.0f);
    put(block.skyColour, look.skyColour, 0.0f);
    const auto f = [](double v) {
        return static_cast<float>(v);
    };
    block.snowPackedOr[0] = f(look.snowOr[0]);
    block.snowPackedOr[1] = f(look.snowOr[1]);
    block.snowPackedOr[2] = f(look.packedOr[0]);
    block.snowPackedOr[3] = f(look.packedOr[1]);
    block.groundOrCrevice[0] = f(ground.orValues[0]);
    block.groundOrCrevice[1] = f(ground.orValues[1]);
    block.groundOrCrevice[2] = f(look.creviceOcclusion);
    // kind = "texture": the texture's repeats per cm (GROUND_TEXTURE reads it); 0 otherwise.
    block.groundOrCrevice[3] =
        settings.ground.kind == GroundKind::Texture ? f(1.0 / settings.ground.textureTileCm) : 0.0f;
    return block;
}

void setLaw(SnowParamsBlock& block, const AccumulateLaw& law) {
    block.invCaptureDistance = law.invCaptureDistance;
    block.captureOffsetCm = law.captureOffsetCm;
    block.captureFarCm = law.captureFarCm;
    block.zeroFloor = law.zeroFloor();
}

void setStep(SnowParamsBlock& block, const SimStep& step) {
    block.contactScale = step.contactScale;
    block.stepFactor = step.stepFactor;
    block.refillStep = step.refillStep;
    block.ageStepS = step.ageStepS;
}

} // namespace snowcap
