#pragma once
// The hostile-file suite's fixtures (tools/hostile_fixtures.cpp writes them, tools/make_hostile.cpp
// runs them): per format family, files built to lie, break off or point nowhere.

#include <filesystem>
#include <string>
#include <vector>

namespace hostile {

// What the importer must do with a fixture.
enum class Expect {
    Refuse, // exit 2 and one line on stderr containing `message`
    Load,   // exit 0: the data is usable (what is wrong is dropped or repaired)
};

struct Fixture {
    std::string family; // "glTF/GLB", "FBX", "OBJ", "PLY", "STL", "OFF", "Collada/ZAE"
    std::string name;   // file name, extension included
    std::string what;   // the hostile class, in words
    Expect expect = Expect::Refuse;
    std::string message; // a part of the one line (Refuse), "" = any
};

// Writes every fixture into `dir` (created) and returns them in order. `assets` is the
// repository's assets/meshes (the FBX fixtures are damaged copies of the bundled files).
std::vector<Fixture> writeFixtures(const std::filesystem::path& dir,
                                   const std::filesystem::path& assets);

} // namespace hostile
