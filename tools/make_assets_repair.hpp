#pragma once
// Repairs for what Assimp 5.2's writers leave in the bundled meshes (tools/make_assets.cpp):
// a binary FBX its own reader rejects, and a .glb whose gap bytes change from run to run.

#include <filesystem>

namespace snowcap::assets {

// Re-serialises a binary FBX with the null records Assimp 5.2's writer leaves out and a fixed
// time stamp, every property byte as written; false if the file is not such an FBX.
bool repairBinaryFbx(const std::filesystem::path& file);
// Zeroes every byte of a .glb's binary chunk that no buffer view covers; false if the file is
// not a .glb or its header lies.
bool scrubGlb(const std::filesystem::path& file);

} // namespace snowcap::assets
