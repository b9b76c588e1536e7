#pragma once
// The typed options of snowcap's parameters: each enum is one key's choice, spelled in the
// comment as TOML writes it (the parameter table, core/params_table*.cpp, maps the spellings).
// Apart from settings.hpp so a file that only needs an option's type does not take every
// struct of parameters with it.

namespace snowcap {

enum class DecayTiming { PerFrame, DeltaTime };          // "per_frame" | "delta_time"
enum class ContactTiming { PerFrame, DeltaTime };        // "per_frame" | "delta_time"
enum class AccumulateMode { Add, Max };                  // "add" | "max"
enum class DeformerShape { Sphere, Box, Capsule };       // "sphere" | "box" | "capsule"
enum class BodyShape { Sphere, Box, Capsule, Mesh };     // "sphere" | "box" | "capsule" | "mesh"
enum class NormalMode { HeightToNormal, Sobel };         // "height_to_normal" | "sobel"
enum class SurfaceGeometry { VertexGrid, Tessellation }; // "vertex" | "tessellation"
enum class ViewMode { Perspective, Top };                // "perspective" | "top"
// "per_pixel" | "prepass" | "separable"
enum class BlurMode { PerPixel, Prepass, Separable };
enum class BufferFormat { R16F, RGBA16F };  // "r16f" | "rgba16f"
enum class RefillMode { Multiply, Linear }; // "multiply" | "linear"
enum class RimMode { Off, On };             // "off" | "on"
// "decay" | "snowpack": a decaying contact mask (the UE original) or snow with depth, density
// and mass (docs/snowpack.md)
enum class SimModel { Decay, Snowpack };
// "snow" | "mud" | "sand": what a snowpack sim's column is made of; a preset of its keys
// (core/substance.hpp, docs/ground.md)
enum class Substance { Snow, Mud, Sand };
// "colour" | "grass" | "mud" | "rock" | "texture": what lies under the snow ([ground],
// docs/ground.md); "colour" is look.ground_colour, the layer as it always was; "texture" takes
// its albedo from a PNG (ground.texture)
enum class GroundKind { Colour, Grass, Mud, Rock, Texture };
// "flat" | "heightmap" | "noise" | "dem": the shape of the ground under every sim ([terrain],
// docs/terrain.md); "flat" is the plane at snow.surface_z_cm - snow.depth_cm, as it always was
enum class TerrainKind { Flat, Heightmap, Noise, Dem, Mesh };
// "north" | "south": which edge of a heightmap its first row is (maps: north; UE: south)
enum class TerrainFirstRow { North, South };
// "terrain" | "plane": what a sim's capture measures penetration from (docs/terrain.md): the
// local undisturbed snow top, or the write-up's one flat plane at snow.surface_z_cm
enum class CaptureReference { Terrain, Plane };
// "fixed" | "follow_naive" | "follow_snapped"
enum class RegionMode { Fixed, FollowNaive, FollowSnapped };
// "window" | "world": what a following region does with the texels it scrolls past
enum class Persistence { Window, World };
// "off" | "lz4" | "zstd": how a world store packs the tiles no window touches (snow/tile_codec)
enum class WorldCompression { Off, Lz4, Zstd };
// "custom" | "off" | "low" | "medium" | "high" | "ultra"
enum class Quality { Custom, Off, Low, Medium, High, Ultra };
// "foot" | "vehicle" | "animal" | "other": what made a print (the rgba16f format's B channel)
enum class ContactType { Foot, Vehicle, Animal, Other };
// "auto" | "off": whether the capture draws each mesh's simplified proxy or the mesh itself
enum class CaptureProxyMode { Auto, Off };
// "auto" | "off": whether the capture draws only the triangles of each mesh that can come
// down to the snow (scene/capture_subset.hpp) or every one
enum class CaptureSubsetMode { Auto, Off };
// "auto" | "d32f" | "d16": the capture's depth store; auto = d16 where its step suffices
// (snow/contact_capture.hpp, captureDepthFormat)
enum class CaptureDepth { Auto, D32F, D16 };
// "auto" | "y" | "z": a mesh file's up axis; auto = its metadata, else the format's convention
// (docs/meshes.md, section 2)
enum class UpAxis { Auto, Y, Z };
// "inputs" | "state" | "hybrid": what a networked session sends its clients (docs/network.md)
enum class NetMode { Inputs, State, Hybrid };

} // namespace snowcap
