#pragma once
// The snow buffers as OpenEXR files (io/exr.hpp) for DCC tools: each sim's persistent buffer
// as half floats, read back as GL_HALF_FLOAT so the file holds the texture's own bits, and the
// capture depth as SceneDepth in cm.

#include "gpu/objects.hpp"
#include "io/exr.hpp"
#include "snow/contact_capture.hpp"
#include "snow/snow_sim.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

// The texture's level 0 as half-float bit patterns (channels per texel, rows bottom first).
// For R16F / RGBA16F these are the stored bits exactly; other formats are converted by GL.
std::vector<std::uint16_t> readHalfBits(const gpu::Texture2D& texture);

// The persistent buffer of a sim, channels R (r16f) or R, G, B, A (rgba16f: intensity, age in
// seconds, contact type code, distance in texels to the print the type belongs to).
ExrImage persistentExr(const SnowSim& sim, const std::string& simName);
// The capture depth as SceneDepth in cm, channel R. 32-bit float, not half: the capture is
// D32F or D16 (0.031 cm steps) and half floats would quantise a depth of 200-250 cm (the
// contact range) to 1/8 cm.
ExrImage captureDepthExr(const ContactCapture& capture);

std::optional<std::string> writePersistentExr(const std::filesystem::path& path, const SnowSim& sim,
                                              const std::string& simName);
std::optional<std::string> writeCaptureDepthExr(const std::filesystem::path& path,
                                                const ContactCapture& capture);

} // namespace snowcap
