// The hostile fixtures of runs, sweeps and their outputs (tools/make_hostile_inputs.cpp runs
// them): a real plan, shard and merge and a complete render are made first with the snowcap
// under test, and each fixture copies one and breaks it as a shared disk, a scheduler or a
// user could: batch files edited short, plans asking for what the command line would refuse,
// 64-bit numbers, special files where files or outputs are expected, inputs found bad after
// the output directory is taken, a bare view without a display, bad values and interrupts.
// Every refusal must keep the last complete outputs as they were (`untouched`).

#include "hostile_inputs.hpp"
#include "hostile_png.hpp"

#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

namespace fs = std::filesystem;

namespace hostile {

namespace {

void writeFile(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Runs snowcap quietly to make a fixture's starting point; throws when it fails.
void setUp(const std::string& snowcap, std::vector<std::string> args) {
    args.insert(args.begin(), {snowcap, "--quiet"});
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        std::vector<char*> argv;
        for (std::string& arg : args)
            argv.push_back(arg.data());
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::string line;
        for (const std::string& arg : args)
            line += arg + " ";
        throw std::runtime_error("setting up failed: " + line);
    }
}

nlohmann::json readJson(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

void writeJson(const fs::path& path, const nlohmann::json& value) {
    writeFile(path, value.dump(2) + "\n");
}

void makeFifo(const fs::path& path) {
    fs::remove_all(path);
    if (::mkfifo(path.c_str(), 0600) != 0)
        throw std::runtime_error("cannot make the FIFO " + path.string());
}

void replaceWithLink(const fs::path& path, const fs::path& target) {
    fs::remove_all(path);
    fs::create_symlink(target, path);
}

} // namespace

std::vector<InputFixture> writeRunFixtures(const fs::path& dir, const std::string& snowcap) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::vector<InputFixture> all;
    const auto add = [&all](std::string cls, std::string name, std::vector<std::string> args,
                            std::string message, fs::path names = {}) {
        return addFixture(all, std::move(cls), std::move(name), std::move(args), std::move(message),
                          std::move(names));
    };
    const std::vector<std::string> small = {"--set", "snow.resolution=64", "--set", "view.width=64",
                                            "--set", "view.height=64"};
    const auto with = [&small](std::vector<std::string> args) {
        args.insert(args.end(), small.begin(), small.end());
        return args;
    };

    // ---- what the fixtures copy: a plan, its one shard, its merge; a complete render -------
    const fs::path base = dir / "base_plan";
    setUp(snowcap, with({"sweep", "--no-progress", "--scenario", "press_release", "--vary",
                         "sim.b.decay=0.9,0.95", "--at", "0.05", "--tile", "16x16", "--plan",
                         base.string()}));
    setUp(snowcap, {"sweep", "--no-progress", "--plan", base.string(), "--shard", "1/1"});
    setUp(snowcap, {"sweep", "--no-progress", "--merge", base.string()});
    const fs::path good = dir / "good_render";
    setUp(snowcap, with({"render", "--scenario", "press_release", "--frames", "2", "--no-progress",
                         "--out", good.string()}));
    const fs::path goodWorld = dir / "good.world";
    setUp(snowcap, {"render", "--scenario", "world_walk", "--frames", "1", "--no-progress", "--out",
                    (dir / "world_render").string(), "--world-out", goodWorld.string()});

    // A copy of the merged plan to break; `merged` lists the outputs a refusal must keep.
    const auto copyPlan = [&](const std::string& name) {
        const fs::path to = dir / name;
        fs::copy(base, to, fs::copy_options::recursive);
        return to;
    };
    const auto merged = [](const fs::path& plan) {
        return std::vector<fs::path>{plan / "sheet.png", plan / "sweep.csv", plan / "sweep.json"};
    };
    const auto merge = [&](const std::string& cls, const std::string& name, const fs::path& plan,
                           const std::string& message, const fs::path& names) {
        InputFixture* f =
            add(cls, name, {"sweep", "--no-progress", "--merge", plan.string()}, message, names);
        f->untouched = merged(plan);
        return f;
    };
    const auto batchFile = [](const fs::path& plan) {
        return plan / "shards/1/batch_0.json";
    };
    // A batch file edited by `edit` (the merge must refuse it, naming the file).
    const auto editBatch = [&](const std::string& cls, const std::string& name,
                               const std::string& message, auto edit) {
        const fs::path plan = copyPlan("batch_" + std::to_string(all.size()));
        nlohmann::json batch = readJson(batchFile(plan));
        edit(batch);
        writeJson(batchFile(plan), batch);
        return merge(cls, name, plan, message, batchFile(plan));
    };

    // ---- 1. merges index what a batch file holds -----------------------------------------
    editBatch("1 merge bounds", "a batch with fewer samples than --at times", "'samples' holds 0",
              [](nlohmann::json& b) { b[0]["samples"] = nlohmann::json::array(); });
    editBatch("1 merge bounds", "a batch naming one probe more than it holds values of",
              "'probes' holds", [](nlohmann::json& b) { b[0]["probe_names"].push_back("extra"); });
    editBatch("1 merge bounds", "a batch with another number of fades", "'fades' holds",
              [](nlohmann::json& b) {
                  nlohmann::json& fades = b[1]["fades"];
                  if (fades.empty())
                      fades.push_back({{"peak", 1},
                                       {"start_s", 0},
                                       {"to50", nullptr},
                                       {"to10", nullptr},
                                       {"to0", nullptr}});
                  else
                      fades.erase(fades.size() - 1);
              });
    editBatch("1 merge bounds", "a batch with one combination", "1 results, the plan's batch has 2",
              [](nlohmann::json& b) { b.erase(1); });
    editBatch("1 merge bounds", "a combination of another batch", "'combination' is 7",
              [](nlohmann::json& b) { b[0]["combination"] = 7; });
    editBatch("1 merge bounds", "a tile named outside the shard", "'tile' is not batch_0_c0_t0.png",
              [](nlohmann::json& b) { b[0]["samples"][0]["tile"] = "../../plan.json"; });
    {
        const fs::path plan = copyPlan("tile_wrong_size");
        writeFile(plan / "shards/1/batch_0_c1_t0.png", pngClaiming(16, 8, 8, 1 << 20));
        merge("1 merge bounds", "a tile of 16 x 8 in a 16 x 16 plan", plan,
              "the plan's tiles are 16 x 16", plan / "shards/1/batch_0_c1_t0.png");
    }

    // ---- 2. every file through the untrusted reader --------------------------------------
    for (const auto& [what, kind, make] :
         std::vector<std::tuple<std::string, std::string, std::function<void(const fs::path&)>>>{
             {"a directory", "a directory",
              [](const fs::path& p) {
                  fs::remove(p), fs::create_directories(p);
              }},
             {"a FIFO", "a FIFO",
              [](const fs::path& p) {
                  makeFifo(p);
              }},
             {"a link to /dev/zero", "a character device", [](const fs::path& p) {
                  replaceWithLink(p, "/dev/zero");
              }}}) {
        const std::string tag = std::to_string(all.size());
        const fs::path plan = copyPlan("plan_special_" + tag);
        make(plan / "plan.json");
        merge("2 plan, shard, batch files", "plan.json is " + what, plan,
              "not a regular file (" + kind + ")", plan / "plan.json");
        const fs::path record = copyPlan("record_special_" + tag);
        make(record / "shards/1/shard.json");
        merge("2 plan, shard, batch files", "shard.json is " + what, record,
              "not a regular file (" + kind + ")", record / "shards/1/shard.json");
        const fs::path batch = copyPlan("batch_special_" + tag);
        make(batchFile(batch));
        merge("2 plan, shard, batch files", "batch_0.json is " + what, batch,
              "not a regular file (" + kind + ")", batchFile(batch));
    }
    {
        const fs::path plan = copyPlan("plan_200mb");
        fs::resize_file(plan / "plan.json", 200ull << 20); // the plan, then 200 MB of zeros
        merge("2 plan, shard, batch files", "a plan padded to 200 MB", plan, "file too large",
              plan / "plan.json");
        const fs::path bench = dir / "bench_fifo.json";
        makeFifo(bench);
        add("2 plan, shard, batch files", "export-ue --bench a FIFO",
            {"export-ue", "--scenario", "press_release", "--out", (dir / "card").string(),
             "--bench", bench.string()},
            "not a regular file (a FIFO)", bench);
    }

    // ---- 3. a shard runs only what the command line would --------------------------------
    for (const auto& [name, field, value, message] :
         std::vector<std::tuple<std::string, std::string, nlohmann::json, std::string>>{
             {"a tile of 100000 x 100000", "tile", {100000, 100000}, "'tile' is 100000"},
             {"a tile of 0 x 0", "tile", {0, 0}, "'tile' is 0"},
             {"a bogus stage", "stage", "bogus", "'stage' is 'bogus'"},
             {"negative frames", "frames", -5, "'frames' is -5"},
             {"a time of 1e300 s", "at_s", {1e300}, "'at_s' is 1e+300"}}) {
        const fs::path plan = dir / ("shard_" + std::to_string(all.size()));
        fs::create_directories(plan);
        nlohmann::json doc = readJson(base / "plan.json");
        doc["request"][field] = value;
        writeJson(plan / "plan.json", doc);
        InputFixture* f = add("3 shard trusts the plan", name,
                              {"sweep", "--no-progress", "--plan", plan.string(), "--shard", "1/1"},
                              message, plan / "plan.json");
        f->absent = {plan / "shards"};
    }

    // ---- 4. 64-bit values range-checked before they are narrowed -------------------------
    {
        const fs::path plan = copyPlan("narrowing_flag");
        add("4 64-bit narrowing", "--shard 4294967297/2",
            {"sweep", "--no-progress", "--plan", plan.string(), "--shard", "4294967297/2"},
            "--shard 4294967297/2: K must be in 1..N");
        InputFixture* f = add("4 64-bit narrowing", "SLURM_ARRAY_TASK_ID=4294967296",
                              {"sweep", "--no-progress", "--plan", plan.string(), "--shard", "env"},
                              "--shard 4294967297/2: K must be in 1..N");
        f->env = {"SLURM_ARRAY_TASK_ID=4294967296", "SLURM_ARRAY_TASK_MIN=0",
                  "SLURM_ARRAY_TASK_COUNT=2", "SLURM_ARRAY_TASK_STEP=1"};
        const fs::path record = copyPlan("narrowing_record");
        nlohmann::json doc = readJson(record / "shards/1/shard.json");
        doc["shard"] = 4294967297ull;
        writeJson(record / "shards/1/shard.json", doc);
        merge("4 64-bit narrowing", "a shard record's \"shard\": 4294967297", record,
              "'shard' is 4294967297, not in 1..100000", record / "shards/1/shard.json");
        editBatch("4 64-bit narrowing", "a sample's \"step\": 4294967297",
                  "'step' is 4294967297, not in 1..",
                  [](nlohmann::json& b) { b[0]["samples"][0]["step"] = 4294967297ull; });
    }

    // ---- 5. output targets: a video never replaces a special file ------------------------
    {
        const fs::path fifo = dir / "video_fifo.mp4";
        makeFifo(fifo);
        const fs::path link = dir / "video_link.mp4";
        replaceWithLink(link, "/dev/null");
        for (const auto& [what, target, kind] :
             std::vector<std::tuple<std::string, fs::path, std::string>>{
                 {"a FIFO", fifo, "a FIFO"}, {"a link to /dev/null", link, "a symbolic link"}}) {
            InputFixture* f =
                add("5 video target", "render --video onto " + what,
                    with({"--quiet", "render", "--scenario", "press_release", "--frames", "2",
                          "--no-progress", "--out", good.string(), "--video", target.string()}),
                    "not a regular file (" + kind + "), not replaced", target);
            f->untouched = {target, good / "run.json", good / "stats.json"};
        }
    }

    // ---- 6. decoding budgeted from the header --------------------------------------------
    {
        const fs::path texture = dir / "claims_8192_rgba16.png";
        // Whole, its deflated zeros take 510 KiB; cut at 400 KiB it holds 80 % of its rows.
        writeFile(texture, pngClaiming(8192, 8192, 16, 400u << 10));
        InputFixture* f = add(
            "6 decoding budget", "a 400 KiB ground texture claiming 8192 x 8192 RGBA16 (cut short)",
            with({"--quiet", "render", "--scenario", "press_release", "--frames", "2",
                  "--no-progress", "--out", good.string(), "--set", "ground.kind=\"texture\"",
                  "--set", "ground.texture=\"" + texture.string() + "\""}),
            "cannot hold the 8192 x 8192 pixels its header claims", texture);
        f->untouched = {good / "run.json", good / "stats.json"};
        // Cut at 99.9 %: past the ratio's reach, found by walking the deflate symbols that are
        // there (io/zlib_walk.hpp), nothing inflated: the largest ground texture there can be.
        const std::uint64_t need = 8192ull * (8192 * 8 + 1);
        const std::uint64_t whole = pngOfZeros(1, 1, 8, need, ~0ull).size() - 57;
        const fs::path nearly = dir / "claims_8192_rgba16_nearly.png";
        writeFile(nearly, pngOfZeros(8192, 8192, 16, need, whole * 999 / 1000));
        InputFixture* g =
            add("6 decoding budget", "a ground texture claiming 8192 x 8192 RGBA16 cut at 99.9 %",
                with({"--quiet", "render", "--scenario", "press_release", "--frames", "2",
                      "--no-progress", "--out", good.string(), "--set", "ground.kind=\"texture\"",
                      "--set", "ground.texture=\"" + nearly.string() + "\""}),
                "its pixel data is shorter than its 8192 x 8192 pixels need", nearly);
        g->untouched = f->untouched;
        // Whole but inflating to 64 times what its pixels need (stb grows its buffer for it).
        const fs::path padded = dir / "inflates_64x.png";
        writeFile(padded, pngOfZeros(1024, 1024, 8, 64ull * 1024 * (1024 * 4 + 1), ~0ull));
        InputFixture* h =
            add("6 decoding budget", "a 1024 x 1024 ground texture inflating to 64 times that",
                with({"--quiet", "render", "--scenario", "press_release", "--frames", "2",
                      "--no-progress", "--out", good.string(), "--set", "ground.kind=\"texture\"",
                      "--set", "ground.texture=\"" + padded.string() + "\""}),
                "its pixel data inflates to more than its 1024 x 1024 pixels need", padded);
        h->untouched = f->untouched;
        const fs::path plan = copyPlan("tile_16384");
        writeFile(plan / "shards/1/batch_0_c0_t0.png", pngClaiming(16384, 16384, 8, 64u << 10));
        merge("6 decoding budget", "a merge tile claiming 16384 x 16384", plan,
              "16384 x 16384 pixels, at most 16 a side", plan / "shards/1/batch_0_c0_t0.png");
    }

    // ---- 7. the bodies' overlap check stops at the first overlap -------------------------
    add("7 body overlap", "3,000 spheres 1 cm apart (each inside its neighbours)",
        with({"--quiet", "render", "--scenario", "press_release", "--frames", "2", "--no-progress",
              "--out", (dir / "out_bodies").string(), "--set",
              "body=[{name='s', count=3000, spacing_cm=1, size_cm=[5, 5, 5]}]"}),
        "cm inside body 's.");

    // ---- 8. inputs found bad after the output directory is taken keep the last run -------
    {
        const fs::path off = dir / "claims.off";
        writeFile(off, "OFF\n353535235358 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
        InputFixture* f =
            add("8 last run kept", "a mesh body whose file lies (after --out)",
                with({"--quiet", "render", "--scenario", "press_release", "--frames", "2",
                      "--no-progress", "--out", good.string(), "--set",
                      "body=[{name='m', shape='mesh', mesh='" + off.string() + "'}]"}),
                "header claims 353535235358 vertices", off);
        f->untouched = {good / "run.json", good / "stats.json", good / "final.png"};
        const fs::path missing = dir / "no_such_texture.png";
        InputFixture* g =
            add("8 last run kept", "a ground texture that is not there",
                with({"--quiet", "render", "--scenario", "press_release", "--frames", "2",
                      "--no-progress", "--out", good.string(), "--set", "ground.kind=\"texture\"",
                      "--set", "ground.texture=\"" + missing.string() + "\""}),
                "cannot open file", missing);
        g->untouched = f->untouched;
    }

    // ---- 9. an interrupted run keeps the last world file ---------------------------------
    {
        InputFixture* f = add("9 world-out and interrupts", "SIGTERM during a run with --world-out",
                              {"--quiet", "render", "--scenario", "world_walk", "--frames",
                               "100000", "--no-progress", "--out", (dir / "world_render").string(),
                               "--world-out", goodWorld.string()},
                              "render: interrupted (SIGTERM)");
        f->exitCode = 128 + 15;
        f->signalAfterS = 2.0;
        f->seconds = 30.0; // the context and the lab first (seconds on llvmpipe), then the signal
        f->memoryMiB = 1024.0; // a whole running lab, not a refusal
        f->untouched = {goodWorld};
    }

    // ---- 10. view without a display writes nothing unasked -------------------------------
    {
        const fs::path cwd = dir / "view_cwd";
        fs::create_directories(cwd);
        InputFixture* f =
            add("10 view without a display", "a bare view", {"view"}, "use `snowcap render");
        f->env = {"DISPLAY", "WAYLAND_DISPLAY"};
        f->cwd = cwd;
        f->absent = {cwd / "out"};
        const fs::path fifo = dir / "screenshot_fifo.png";
        makeFifo(fifo);
        InputFixture* g = add("10 view without a display", "view --screenshot onto a FIFO",
                              {"view", "--frames", "2", "--screenshot", fifo.string()},
                              "not a regular file (a FIFO), not replaced", fifo);
        g->env = f->env;
        g->cwd = cwd;
        g->untouched = {fifo};
    }

    // ---- 11. signals and all-or-nothing outputs -------------------------------------------
    {
        const fs::path plan = dir / "long_plan";
        setUp(snowcap, with({"sweep", "--no-progress", "--scenario", "press_release", "--vary",
                             "sim.b.decay=0.9,0.95", "--at", "1000", "--tile", "16x16", "--plan",
                             plan.string()}));
        InputFixture* f =
            add("11 signals, all or nothing", "SIGTERM during a shard",
                {"--quiet", "sweep", "--no-progress", "--plan", plan.string(), "--shard", "1/1"},
                "sweep --shard 1/1: interrupted (SIGTERM); nothing of it was kept");
        f->exitCode = 128 + 15;
        f->signalAfterS = 2.0;
        f->seconds = 30.0;
        f->memoryMiB = 1024.0;
        f->absent = {plan / "shards/1"};
        const fs::path card = dir / "card";
        writeFile(dir / "card.json", "{\"old\": true}\n");
        makeFifo(dir / "card.md");
        InputFixture* g = add("11 signals, all or nothing", "export-ue onto a FIFO beside a card",
                              {"export-ue", "--scenario", "press_release", "--out", card.string()},
                              "not a regular file (a FIFO), not replaced", dir / "card.md");
        g->untouched = {dir / "card.json", dir / "card.md"};
        g->absent = {dir / "card.py"};
        const fs::path benchJson = dir / "bench.json";
        writeFile(benchJson, "{\"old\": true}\n");
        InputFixture* b =
            add("11 signals, all or nothing", "SIGTERM during bench --json",
                {"--quiet", "bench", "--no-progress", "--sizes", "64,128,256,512", "--only", "copy",
                 "--frames", "100000", "--case-budget", "3600", "--json", benchJson.string()},
                "bench: interrupted (SIGTERM); --json " + benchJson.string() + " not written");
        b->exitCode = 128 + 15;
        b->signalAfterS = 2.0;
        b->seconds = 30.0;
        b->memoryMiB = 1024.0;
        b->untouched = {benchJson};
        const fs::path sheet = copyPlan("merge_onto_fifo");
        makeFifo(sheet / "sweep.csv");
        InputFixture* h =
            merge("11 signals, all or nothing", "a merge onto a FIFO sweep.csv", sheet,
                  "not a regular file (a FIFO), not replaced", sheet / "sweep.csv");
        h->untouched = {sheet / "sheet.png", sheet / "sweep.json", sheet / "sweep.csv"};
    }

    // ---- 12. bad values ------------------------------------------------------------------
    {
        add("12 bad values", "sweep --at 1e300",
            {"sweep", "--no-progress", "--scenario", "press_release", "--vary",
             "sim.b.decay=0.9,0.95", "--at", "1e300", "--out", (dir / "out_values").string()},
            "--at: 1e+300 is not a time");
        add("12 bad values", "render --ui --probe nan nan",
            {"render", "--ui", "--probe", "nan", "nan", "--out", (dir / "out_values").string()},
            "is not a place in cm");
        std::string same = "sim.b.decay=0.9";
        for (int i = 0; i < 30000; ++i)
            same += ",0.9";
        add("12 bad values", "30,000 duplicate --vary values",
            {"sweep", "--no-progress", "--scenario", "press_release", "--vary", same, "--at", "1",
             "--out", (dir / "out_values").string()},
            "the value is given twice");
        std::string many = "sim.b.decay=0";
        for (int i = 1; i < 5000; ++i)
            many += ",0." + std::to_string(i);
        add("12 bad values", "5,000 distinct --vary values",
            {"sweep", "--no-progress", "--scenario", "press_release", "--vary", many, "--at", "1",
             "--out", (dir / "out_values").string()},
            "more than 4096 combinations");
        editBatch("12 bad values", "texels_disturbed of 2^70", "'texels_disturbed' is",
                  [](nlohmann::json& b) {
                      b[0]["samples"][0]["texels_disturbed"] = 1180591620717411303424.0;
                  });
        InputFixture* f =
            add("12 bad values", "control characters in a texture's name",
                with({"--quiet", "render", "--scenario", "press_release", "--frames", "2",
                      "--no-progress", "--out", good.string(), "--set", "ground.kind=\"texture\"",
                      "--set", "ground.texture=\"/nonexistent/a\\u001b[2J\\u0007b.png\""}),
                "cannot open file");
        f->untouched = {good / "run.json"};
    }

    // ---- 13. exit 2 for every refused input or target ------------------------------------
    {
        const fs::path plan = copyPlan("merge_missing_shard");
        fs::remove_all(plan / "shards/1");
        merge("13 exit codes", "a merge with no shard run", plan, "no shards in", {});
        const fs::path out = dir / "sweep_onto_fifo";
        fs::create_directories(out);
        makeFifo(out / "sheet.png");
        InputFixture* f = add("13 exit codes", "a sweep whose sheet.png is a FIFO",
                              {"sweep", "--no-progress", "--scenario", "press_release", "--vary",
                               "sim.b.decay=0.9,0.95", "--at", "0.05", "--out", out.string()},
                              "not a regular file (a FIFO), not replaced", out / "sheet.png");
        f->untouched = {out / "sheet.png"};
        const fs::path benchFifo = dir / "bench_fifo_out.json";
        makeFifo(benchFifo);
        InputFixture* g =
            add("13 exit codes", "bench --json onto a FIFO",
                {"bench", "--sizes", "64", "--only", "copy", "--json", benchFifo.string()},
                "not a regular file (a FIFO), not replaced", benchFifo);
        g->untouched = {benchFifo};
    }
    return all;
}

} // namespace hostile
