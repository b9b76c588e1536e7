#pragma once
// Loading Settings from TOML layers and `--set key=value` overrides.
//
// The layers are read in order, each deep-merged over the previous one: tables merge key by key,
// arrays and scalars replace (so a scenario's [[deformer]] list replaces the default one). Then
// every override is merged as one more layer. Only then is the merged table validated and turned
// into Settings, so an error always points at the layer that supplied the offending value.
//
// Errors are values: one line, "ORIGIN: PROBLEM", where ORIGIN is
// "FILE:LINE:COL" for a value read from a file and the flag text ("--set sim.a.decay=1.5") for a
// value given on the command line. Examples:
//   config/x.toml:3:1: unknown key 'snow.resolutoin'
//   config/x.toml:2:7: key 'run.fps': expected a number, got string
//   --set sim.a.decay=1.5: key 'sim.a.decay': must be in (0, 1], got 1.5
//   config/nope.toml: cannot open file (No such file or directory)

#include "core/settings.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace snowcap {

struct ConfigError {
    std::string message; // one line, no trailing newline
};

// Reads `files` in order, then applies `overrides` ("dotted.key=value"; the value is parsed as
// TOML, and taken as a plain string when it is not TOML, so `decay_timing=per_frame` works).
// Returns the Settings or the first error. Never throws.
std::variant<Settings, ConfigError> loadSettings(const std::vector<std::filesystem::path>& files,
                                                 const std::vector<std::string>& overrides);

// Where the merged value of `key` ("foliage[0].mesh") came from, as an error line begins:
// "FILE:LINE:COL", or the --set flag's text; the nearest entry or table that holds it when the
// key itself was left out (a default). Empty when no layer has it or a layer does not load.
// For what is found wrong after loading (a foliage mesh that does not import), so that line
// points into the file like the reader's own.
std::string keyOrigin(const std::vector<std::filesystem::path>& files,
                      const std::vector<std::string>& overrides, std::string_view key);

// One TOML document from memory, validated like a file named `origin` (the fuzz target and the
// tests' entry point: the same parser, schema and one-line errors, no file system).
std::variant<Settings, ConfigError> loadSettingsFromText(std::string_view text,
                                                         const std::string& origin);

// A bare NAME (no '/', not ending in ".toml") is <root>/config/scenarios/NAME.toml; anything
// else is a path, returned unchanged. Existence is checked by loadSettings, which can say why.
std::filesystem::path resolveScenario(const std::string& nameOrPath,
                                      const std::filesystem::path& root);

// The spellings used in the TOML files, stats.json and the UI.
std::string_view toString(DecayTiming timing);
std::string_view toString(ContactTiming timing);
std::string_view toString(AccumulateMode mode);
std::string_view toString(DeformerShape shape);
std::string_view toString(NormalMode mode);
std::string_view toString(SurfaceGeometry geometry);
std::string_view toString(ViewMode mode);
std::string_view toString(BlurMode mode);
std::string_view toString(BufferFormat format);
std::string_view toString(RefillMode mode);
std::string_view toString(CaptureProxyMode mode);
std::string_view toString(CaptureSubsetMode mode);
std::string_view toString(CaptureDepth depth);
std::string_view toString(RimMode mode);
std::string_view toString(SimModel model);
std::string_view toString(Substance substance);
std::string_view toString(GroundKind kind);
std::string_view toString(TerrainKind kind);
std::string_view toString(CaptureReference reference);
std::string_view toString(RegionMode mode);
std::string_view toString(Persistence mode);
std::string_view toString(WorldCompression compression);
std::string_view toString(Quality quality);
std::string_view toString(ContactType type);
std::string_view toString(NetMode mode);

// Every value an enum has in this build, in declaration order (its toString list ends at
// "unknown"), so code that walks a switch's values never needs editing when one is added.
template <class E> std::vector<E> allValues() {
    std::vector<E> values;
    for (int i = 0; i < 64 && toString(static_cast<E>(i)) != "unknown"; ++i)
        values.push_back(static_cast<E>(i));
    return values;
}

std::optional<DecayTiming> parseDecayTiming(std::string_view name);
std::optional<AccumulateMode> parseAccumulateMode(std::string_view name);
std::optional<DeformerShape> parseDeformerShape(std::string_view name);

} // namespace snowcap
