// Config errors: the exact one-line message for every kind of mistake (the message is the user
// interface of a config loader, so it is pinned): each kind by hand, then every class of bad
// value over the keys those leave out.

#include "TestSupport.hpp"
#include "core/config.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

std::string loadError(const std::vector<fs::path>& files,
                      const std::vector<std::string>& overrides = {}) {
    auto result = loadSettings(files, overrides);
    if (const auto* error = std::get_if<ConfigError>(&result))
        return error->message;
    return "(loaded without error)";
}

// ---- errors: each kind, with its exact message ---------------------------------------------

// Writes one config file in a fresh scratch directory; `at(line, column)` is how messages
// locate a value in it.
class ConfigErrors : public ::testing::Test {
protected:
    void SetUp() override { file_ = test::scratchDir() / "x.toml"; }

    std::string errorOf(const std::string& toml, const std::vector<std::string>& overrides = {}) {
        test::writeText(file_, toml);
        return loadError({file_}, overrides);
    }
    std::string at(int line, int column) const {
        return file_.string() + ":" + std::to_string(line) + ":" + std::to_string(column);
    }

    fs::path file_;
};

TEST_F(ConfigErrors, UnknownKeys) {
    EXPECT_EQ(errorOf("[snow]\nresolutoin = 2048\n"),
              at(2, 1) + ": unknown key 'snow.resolutoin' (did you mean 'resolution'?)");
    EXPECT_EQ(errorOf("colour = 'white'\n"), at(1, 1) + ": unknown key 'colour'");
    // sim.a .. sim.h exist on demand (tests/core/SimCountTest.cpp); a ninth is unknown.
    EXPECT_EQ(errorOf("[sim.i]\ndecay = 0.9\n"),
              at(1, 6) + ": unknown key 'sim.i' (the sims are sim.a .. sim.h)");
    EXPECT_EQ(errorOf("[[deformer]]\nname = 'd'\npath = [[0, 0, 0, 0]]\ncolour = 1\n"),
              at(4, 1) + ": unknown key 'deformer[0].colour'");
    EXPECT_EQ(
        errorOf("[[probe]]\nname = 'p'\nat_cm = [0, 0]\n[[probe]]\nname = 'q'\nat = [0, 0]\n"),
        at(6, 1) + ": unknown key 'probe[1].at'");
    EXPECT_EQ(
        errorOf("", {"snow.resolutoin=512"}),
        "--set snow.resolutoin=512: unknown key 'snow.resolutoin' (did you mean 'resolution'?)");
    EXPECT_EQ(errorOf("", {"sim.i.decay=0.5"}),
              "--set sim.i.decay=0.5: unknown key 'sim.i' (the sims are sim.a .. sim.h)");
}

TEST_F(ConfigErrors, WrongTypes) {
    EXPECT_EQ(errorOf("[run]\nfps = 'fast'\n"),
              at(2, 7) + ": key 'run.fps': expected a number, got string");
    EXPECT_EQ(errorOf("run = 5\n"), at(1, 7) + ": key 'run': expected a table, got integer");
    EXPECT_EQ(errorOf("[sim.a]\nhalf_safe = 1\n"),
              at(2, 13) + ": key 'sim.a.half_safe': expected a boolean, got integer");
    EXPECT_EQ(errorOf("[sim.a]\ndecay = true\n"),
              at(2, 9) + ": key 'sim.a.decay': expected a number, got boolean");
    EXPECT_EQ(errorOf("[snow]\nregion_centre_cm = 5\n"),
              at(2, 20) + ": key 'snow.region_centre_cm': expected [x, y], got integer");
    EXPECT_EQ(errorOf("[snow]\nregion_centre_cm = [1, 2, 3]\n"),
              at(2, 20) + ": key 'snow.region_centre_cm': expected [x, y], got 3 values");
    EXPECT_EQ(errorOf("[snow]\nregion_centre_cm = [1, 'two']\n"),
              at(2, 24) + ": key 'snow.region_centre_cm[1]': expected a number, got string");
    EXPECT_EQ(errorOf("deformer = 3\n"),
              at(1, 12) + ": key 'deformer': expected an array of tables, got integer");
    EXPECT_EQ(errorOf("", {"run.fps=fast"}),
              "--set run.fps=fast: key 'run.fps': expected a number, got string");
}

TEST_F(ConfigErrors, IntegersForFloatsButNotFloatsForIntegers) {
    EXPECT_EQ(errorOf("[run]\nfps = 50\nframes = 10\n"), "(loaded without error)");
    EXPECT_EQ(errorOf("[snow]\nresolution = 2048.0\n"),
              at(2, 14) + ": key 'snow.resolution': expected an integer, got float");
    EXPECT_EQ(errorOf("[run]\nframes = 1e3\n"),
              at(2, 10) + ": key 'run.frames': expected an integer, got float");
    EXPECT_EQ(errorOf("", {"snow.resolution=512.0"}),
              "--set snow.resolution=512.0: key 'snow.resolution': expected an integer, got float");
}

TEST_F(ConfigErrors, OutOfRange) {
    EXPECT_EQ(errorOf("[run]\nfps = 0\n"),
              at(2, 7) + ": key 'run.fps': must be in (0, 1000], got 0");
    EXPECT_EQ(errorOf("[run]\nfps = 1000.5\n"),
              at(2, 7) + ": key 'run.fps': must be in (0, 1000], got 1000.5");
    EXPECT_EQ(errorOf("[run]\nframes = 0\n"),
              at(2, 10) + ": key 'run.frames': must be at least 1, got 0");
    EXPECT_EQ(errorOf("[snow]\northo_width_cm = -5\n"),
              at(2, 18) + ": key 'snow.ortho_width_cm': must be greater than 0, got -5");
    EXPECT_EQ(errorOf("[snow]\ndepth_cm = 0.0\n"),
              at(2, 12) + ": key 'snow.depth_cm': must be greater than 0, got 0");
    EXPECT_EQ(errorOf("[capture]\ndistance_cm = -1\n"),
              at(2, 15) + ": key 'capture.distance_cm': must be greater than 0, got -1");
    EXPECT_EQ(errorOf("[capture]\nfar_cm = 0\n"),
              at(2, 10) + ": key 'capture.far_cm': must be greater than 0, got 0");
    EXPECT_EQ(errorOf("[sim.b]\ndecay = 0\n"),
              at(2, 9) + ": key 'sim.b.decay': must be in (0, 1], got 0");
    EXPECT_EQ(errorOf("", {"sim.a.decay=1.5"}),
              "--set sim.a.decay=1.5: key 'sim.a.decay': must be in (0, 1], got 1.5");
}

TEST_F(ConfigErrors, NonFiniteNumbers) {
    EXPECT_EQ(errorOf("", {"sim.a.decay=nan"}),
              "--set sim.a.decay=nan: key 'sim.a.decay': must be a finite number, got nan");
    EXPECT_EQ(errorOf("[snow]\nsurface_z_cm = inf\n"),
              at(2, 16) + ": key 'snow.surface_z_cm': must be a finite number, got inf");
    EXPECT_EQ(errorOf("[capture]\noffset_cm = -inf\n"),
              at(2, 13) + ": key 'capture.offset_cm': must be a finite number, got -inf");
    EXPECT_EQ(errorOf("[[probe]]\nname = 'p'\nat_cm = [0, nan]\n"),
              at(3, 13) + ": key 'probe[0].at_cm[1]': must be a finite number, got nan");
}

TEST_F(ConfigErrors, ResolutionMustBeAPowerOfTwoInRange) {
    for (const int resolution : {1000, 32, 16384, 0, -64})
        EXPECT_EQ(errorOf("[snow]\nresolution = " + std::to_string(resolution) + "\n"),
                  at(2, 14) + ": key 'snow.resolution': must be a power of two between 64 and " +
                      "8192, got " + std::to_string(resolution));
    EXPECT_EQ(errorOf("[snow]\nresolution = 8192\n"), "(loaded without error)");
    EXPECT_EQ(errorOf("[snow]\nresolution = 64\n"), "(loaded without error)");
}

TEST_F(ConfigErrors, DeformerSizeMustBePositive) {
    EXPECT_EQ(errorOf("[[deformer]]\nname = 'd'\nsize_cm = [30, -1, 30]\npath = [[0, 0, 0, 0]]\n"),
              at(3, 16) + ": key 'deformer[0].size_cm[1]': must be greater than 0, got -1");
}

TEST_F(ConfigErrors, BadEnums) {
    EXPECT_EQ(errorOf("[sim.a]\ndecay_timing = 'perframe'\n"),
              at(2, 16) + ": key 'sim.a.decay_timing': must be 'per_frame' or 'delta_time', " +
                  "got 'perframe'");
    EXPECT_EQ(errorOf("[sim.b]\ncontact_timing = 'dt'\n"),
              at(2, 18) + ": key 'sim.b.contact_timing': must be 'per_frame' or 'delta_time', " +
                  "got 'dt'");
    EXPECT_EQ(errorOf("[sim.b]\naccumulate = 'sum'\n"),
              at(2, 14) + ": key 'sim.b.accumulate': must be 'add' or 'max', got 'sum'");
    EXPECT_EQ(errorOf("[[deformer]]\nname = 'd'\nshape = 'cone'\npath = [[0, 0, 0, 0]]\n"),
              at(3, 9) + ": key 'deformer[0].shape': must be 'sphere', 'box' or 'capsule', " +
                  "got 'cone'");
    // A non-TOML override value is taken as a string, quotes and all.
    EXPECT_EQ(errorOf("", {"sim.a.decay_timing=per \"frame"}),
              "--set sim.a.decay_timing=per \"frame: key 'sim.a.decay_timing': must be "
              "'per_frame' or 'delta_time', got 'per \"frame'");
}

TEST_F(ConfigErrors, MissingUnreadableAndDirectoryFiles) {
    const fs::path missing = file_.parent_path() / "nope.toml";
    EXPECT_EQ(loadError({missing}),
              missing.string() + ": cannot open file (No such file or directory)");
    EXPECT_EQ(loadError({file_.parent_path()}),
              file_.parent_path().string() + ": not a regular file (a directory)");
    // The first failing layer stops the load, before later layers are even read.
    EXPECT_EQ(loadError({missing, test::sourceDir() / "config" / "default.toml"}),
              missing.string() + ": cannot open file (No such file or directory)");
}

// Special files are refused without being opened for reading (a FIFO would block, /dev/zero
// would stream forever); a file past import.max_config_mib before a byte is read.
TEST_F(ConfigErrors, SpecialFilesAndFilesPastTheSizeCap) {
    EXPECT_EQ(loadError({"/dev/zero"}), "/dev/zero: not a regular file (a character device)");
    const fs::path fifo = file_.parent_path() / "fifo.toml";
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(loadError({fifo}), fifo.string() + ": not a regular file (a FIFO)");
    test::writeText(file_, "[run]\nfps = 60\n" + std::string(2u << 20, '#') + "\n");
    EXPECT_EQ(loadError({file_}),
              file_.string() +
                  ": file too large (2.00 MiB, limit import.max_config_mib = 1.00 MiB)");
    // --set raises the cap for every file; a file cannot raise the cap it is read under.
    EXPECT_TRUE(
        std::holds_alternative<Settings>(loadSettings({file_}, {"import.max_config_mib=4"})));
    test::writeText(file_, "[import]\nmax_config_mib = 64\n" + std::string(2u << 20, '#') + "\n");
    EXPECT_NE(loadError({file_}).find("file too large"), std::string::npos);
    // ... but the layers before it can (config/default.toml holds the default).
    const fs::path raises = file_.parent_path() / "raises.toml";
    test::writeText(raises, "[import]\nmax_config_mib = 64\n");
    EXPECT_TRUE(std::holds_alternative<Settings>(loadSettings({raises, file_}, {})));
}

// Every list is held to its cap before an entry is read, and names are checked in one pass.
TEST_F(ConfigErrors, ListsPastTheirCaps) {
    // The line names the file (with line and column), the key, the count and the cap's key.
    const auto refuses = [this](const std::string& toml, const std::string& reason) {
        const std::string line = errorOf(toml);
        EXPECT_EQ(line.rfind(file_.string() + ":", 0), 0u) << line;
        EXPECT_NE(line.find(reason), std::string::npos) << line;
    };
    std::string probes;
    for (int i = 0; i < 1025; ++i)
        probes += "[[probe]]\nname = \"p" + std::to_string(i) + "\"\n";
    refuses(probes, "key 'probe': 1025 tables, more than 1024 (limit import.max_probes)");
    std::string path = "[[deformer]]\nname = \"d\"\npath = [";
    for (int i = 0; i < 11; ++i)
        path += "[" + std::to_string(i) + ", 0, 0, 0], ";
    refuses(path + "]\n[import]\nmax_path_keys = 10\n",
            "key 'deformer[0].path': 11 keys, more than 10 (limit import.max_path_keys)");
    refuses("[[crowd]]\nname = \"a\"\ncount = 6000\npath = [[0, 0, 0, 0]]\n"
            "[[crowd]]\nname = \"b\"\ncount = 6000\npath = [[0, 0, 0, 0]]\n",
            "key 'crowd[1].count': 12000 members in crowd[0..1], more than 10000 (limit "
            "import.max_crowd_members)");
    refuses("[[foliage]]\nname = \"m\"\ndensity_per_m2 = 100\nsize_cm = [10000, 10000]\n",
            "key 'foliage[0].density_per_m2': 1000000 plants, more than 100000 (limit "
            "import.max_plants)");
}

// What is found wrong after loading (a foliage mesh that does not import) is placed like the
// reader's own lines: the key's file, line and column, the entry's when the key was left out,
// the --set flag when the list came from one (arrays replace, so the flag's list is the one).
TEST_F(ConfigErrors, KeyOriginPointsAtTheLayerThatGaveTheKey) {
    test::writeText(file_, "[run]\nfps = 60\n[[foliage]]\nname = 'm'\nmesh = 'x.glb'\n");
    EXPECT_EQ(keyOrigin({file_}, {}, "foliage[0].mesh"), at(5, 8));
    EXPECT_EQ(keyOrigin({file_}, {}, "run.fps"), at(2, 7));
    // min_spacing_cm is not in the file: the entry that holds it.
    EXPECT_EQ(keyOrigin({file_}, {}, "foliage[0].min_spacing_cm").rfind(file_.string() + ":3:", 0),
              0u)
        << keyOrigin({file_}, {}, "foliage[0].min_spacing_cm");
    const std::string flag = "foliage=[{name='n', mesh='y.glb'}]";
    EXPECT_EQ(keyOrigin({file_}, {flag}, "foliage[0].mesh"), "--set " + flag);
    EXPECT_EQ(keyOrigin({file_}, {}, "probe[0].name"), "");
    EXPECT_EQ(keyOrigin({file_.parent_path() / "none.toml"}, {}, "run.fps"), "");
}

// A long value is cut to its first 80 characters and "…" in the one line.
TEST_F(ConfigErrors, LongValuesAreCutInTheLine) {
    const std::string value(100000, 'x');
    const std::string line = errorOf("[view]\nmode = \"" + value + "\"\n");
    EXPECT_NE(line.find("got '" + std::string(80, 'x') + "…'"), std::string::npos) << line;
    EXPECT_LT(line.size(), 300u);
}

TEST_F(ConfigErrors, UnreadableFile) {
    if (::geteuid() == 0)
        GTEST_SKIP() << "running as root, which can read a mode-000 file";
    test::writeText(file_, "[run]\nfps = 60\n");
    ASSERT_EQ(::chmod(file_.c_str(), 0), 0);
    EXPECT_EQ(loadError({file_}), file_.string() + ": cannot open file (Permission denied)");
    ::chmod(file_.c_str(), 0644);
}

TEST_F(ConfigErrors, TomlSyntaxErrors) {
    EXPECT_EQ(errorOf("[run]\nfps = \n"),
              at(2, 7) + ": Error while parsing key-value pair: expected value, saw '\\n'");
    EXPECT_EQ(errorOf("[run]\nfps = 1\nfps = 2\n"),
              at(3, 7) + ": Error while parsing key-value pair: cannot redefine existing " +
                  "integer 'fps'");
}

TEST_F(ConfigErrors, MalformedOverrides) {
    for (const std::string flag : {"run.fps", "=5", "run..fps=5", "run fps=5", ".run=1", ""})
        EXPECT_EQ(errorOf("", {flag}),
                  "--set " + flag + ": malformed override, expected dotted.key=value");
}

TEST_F(ConfigErrors, BadDeformerPaths) {
    const std::string head = "[[deformer]]\nname = 'd'\n";
    EXPECT_EQ(errorOf(head + "path = []\n"),
              at(3, 8) + ": key 'deformer[0].path': needs at least one [t, x, y, z] key");
    EXPECT_EQ(errorOf(head + "path = 'up'\n"),
              at(3, 8) + ": key 'deformer[0].path': expected an array of [t, x, y, z] keys, " +
                  "got string");
    EXPECT_EQ(errorOf(head + "path = [[0, 0, 0, 0], [1, 0, 0]]\n"),
              at(3, 23) + ": key 'deformer[0].path[1]': expected [t, x, y, z], got 3 values");
    EXPECT_EQ(errorOf(head + "path = [[0, 0, 0, 0], 1]\n"),
              at(3, 23) + ": key 'deformer[0].path[1]': expected [t, x, y, z], got integer");
    EXPECT_EQ(errorOf(head + "path = [[0, 0, 'x', 0]]\n"),
              at(3, 16) + ": key 'deformer[0].path[0][2]': expected a number, got string");
    EXPECT_EQ(errorOf(head + "path = [[-1, 0, 0, 0]]\n"),
              at(3, 10) + ": key 'deformer[0].path[0][0]': time must be at least 0, got -1");
    EXPECT_EQ(errorOf(head + "path = [[0, 0, 0, 0], [2, 0, 0, 0], [1.5, 0, 0, 0]]\n"),
              at(3, 38) + ": key 'deformer[0].path[2][0]': time must not decrease, got 1.5 " +
                  "after 2");
    EXPECT_EQ(errorOf("[[deformer]]\nname = 'd'\n"),
              at(1, 1) + ": key 'deformer[0]': missing required key 'path'");
}

TEST_F(ConfigErrors, BadNamesInLists) {
    EXPECT_EQ(errorOf("[[probe]]\nat_cm = [0, 0]\n"),
              at(1, 1) + ": key 'probe[0]': missing required key 'name'");
    EXPECT_EQ(errorOf("[[probe]]\nname = ''\nat_cm = [0, 0]\n"),
              at(2, 8) + ": key 'probe[0].name': must not be empty");
    EXPECT_EQ(
        errorOf("[[probe]]\nname = 'p'\nat_cm = [0, 0]\n[[probe]]\nname = 'p'\nat_cm = [1, 1]\n"),
        at(5, 8) + ": key 'probe[1].name': 'p' is already used by probe[0]");
    EXPECT_EQ(errorOf("deformer = [1]\n"),
              at(1, 13) + ": key 'deformer[0]': expected a table, got integer");
}

// ---- every class of bad value, table-driven over the keys the tests above leave out --------

struct BadValue {
    const char* toml;    // the whole file
    int line, column;    // where the message must point
    const char* problem; // the rest of the line after "FILE:LINE:COL: "
};

TEST_F(ConfigErrors, EveryClassOfBadValueNamesFileLineColumnAndKey) {
    const BadValue cases[] = {
        // wrong type
        {"[sim.a]\nformat = 16\n", 2, 10, "key 'sim.a.format': expected a string, got integer"},
        {"[snow]\nidle_skip = 'yes'\n", 2, 13,
         "key 'snow.idle_skip': expected a boolean, got string"},
        {"[snow]\nfollow = 3\n", 2, 10,
         "key 'snow.follow': expected a deformer name or a list of names, got integer"},
        {"[snow]\nfollow = ['a', 3]\n", 2, 16,
         "key 'snow.follow[1]': expected a deformer name, got integer"},
        {"[snow]\nfollow = ['a', 'a']\n", 2, 16, "key 'snow.follow[1]': 'a' is named twice"},
        {"[snow]\nfollow = ['a', 'b', 'c', 'd', 'e']\n", 2, 10,
         "key 'snow.follow': at most 4 observers, got 5"},
        {"[look]\nsun_colour = [1, 1]\n", 2, 14,
         "key 'look.sun_colour': expected [x, y, z], got 2 values"},
        {"[soak]\nenabled = 1\n", 2, 11, "key 'soak.enabled': expected a boolean, got integer"},
        {"[soak]\nseed = 1.5\n", 2, 8, "key 'soak.seed': expected an integer, got float"},
        {"[[deformer]]\nname = 'd'\npath = 'here'\n", 3, 8,
         "key 'deformer[0].path': expected an array of [t, x, y, z] keys, got string"},
        // out of range
        {"[sim.b]\nrefill_rate = 0\n", 2, 15,
         "key 'sim.b.refill_rate': must be in (0, 1000], got 0"},
        {"[sim.a.material]\ntgl = 1.5\n", 2, 7,
         "key 'sim.a.material.tgl': must be in [0, 1], got 1.5"},
        {"[sim.a.material]\ndistance_steps = 65\n", 2, 18,
         "key 'sim.a.material.distance_steps': must be between 1 and 64, got 65"},
        {"[view]\npitch_deg = 90\n", 2, 13, "key 'view.pitch_deg': must be in [-89, 89], got 90"},
        {"[look]\nwrap = 2\n", 2, 8, "key 'look.wrap': must be in [0, 1], got 2"},
        {"[soak]\ncheck_every = 0\n", 2, 15,
         "key 'soak.check_every': must be between 1 and 1000000, got 0"},
        {"[soak]\nrss_slack_mib = -1\n", 2, 17,
         "key 'soak.rss_slack_mib': must be in [0, 65536], got -1"},
        {"[run]\nframes = 9999999999\n", 2, 10,
         "key 'run.frames': must be at most 2147483647, got 9999999999"},
        // negative sizes
        {"[view]\nwidth = -1280\n", 2, 9,
         "key 'view.width': must be between 16 and 8192, got -1280"},
        {"[snow]\ndepth_cm = -30\n", 2, 12, "key 'snow.depth_cm': must be greater than 0, got -30"},
        {"[sim.b.material]\nrim_width_cm = -12\n", 2, 16,
         "key 'sim.b.material.rim_width_cm': must be in [0, 1000], got -12"},
        {"[soak]\nreset_every = -5\n", 2, 15,
         "key 'soak.reset_every': must be between 0 and 1000000000, got -5"},
        // NaN and infinity
        {"[look]\nsun_direction = [0, nan, 1]\n", 2, 21,
         "key 'look.sun_direction[1]': must be a finite number, got nan"},
        {"[view]\nfov_deg = inf\n", 2, 11, "key 'view.fov_deg': must be a finite number, got inf"},
        {"[soak]\nrss_slack_mib = nan\n", 2, 17,
         "key 'soak.rss_slack_mib': must be a finite number, got nan"},
        // non-power-of-two resolution
        {"[sim.a]\nresolution = 300\n", 2, 14,
         "key 'sim.a.resolution': must be 0 (use snow.resolution) or a power of two between 64 "
         "and 8192, got 300"},
        // bad choice
        {"[sim.a]\nformat = 'r32f'\n", 2, 10,
         "key 'sim.a.format': must be 'r16f' or 'rgba16f', got 'r32f'"},
        {"[snow]\nquality = 'max'\n", 2, 11,
         "key 'snow.quality': must be 'custom', 'off', 'low', 'medium', 'high' or 'ultra', got "
         "'max'"},
        // unknown key
        {"[soak]\nsteps = 5\n", 2, 1, "unknown key 'soak.steps'"},
        {"[sim.b.material]\nmask_mult = 5\n", 2, 1,
         "unknown key 'sim.b.material.mask_mult' (did you mean 'mask_multi'?)"},
        // a key with a newline in it stays one line
        {"[\"a\\nb\"]\nx = 1\n", 1, 2, "unknown key 'a b'"},
    };
    for (const BadValue& bad : cases)
        EXPECT_EQ(errorOf(bad.toml), at(bad.line, bad.column) + ": " + bad.problem) << bad.toml;
}

} // namespace
} // namespace snowcap
