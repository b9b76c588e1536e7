// lab/run_guard.hpp: one run per output directory (the second is refused naming the first's
// PID), the old manifest removed when a run starts, run.json listing only this run's files.
#include "TestSupport.hpp"
#include "lab/run_guard.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

TEST(RunGuard, ASecondRunIntoTheSameDirectoryIsRefusedNamingTheFirst) {
    const fs::path dir = test::scratchDir();
    auto first = RunGuard::take(dir);
    ASSERT_TRUE(std::holds_alternative<RunGuard>(first)) << std::get<std::string>(first);
    // Another process (the lock is per open file, so this process would do too).
    int pipeFds[2];
    ASSERT_EQ(::pipe(pipeFds), 0);
    const pid_t child = ::fork();
    if (child == 0) {
        auto second = RunGuard::take(dir);
        const std::string line =
            std::holds_alternative<std::string>(second) ? std::get<std::string>(second) : "";
        (void)!::write(pipeFds[1], line.data(), line.size());
        ::_exit(0);
    }
    ::close(pipeFds[1]);
    std::string line;
    char chunk[512];
    for (ssize_t got; (got = ::read(pipeFds[0], chunk, sizeof chunk)) > 0;)
        line.append(chunk, std::size_t(got));
    ::close(pipeFds[0]);
    ::waitpid(child, nullptr, 0);
    EXPECT_EQ(line, dir.string() + ": another snowcap run (PID " + std::to_string(::getpid()) +
                        ") is writing there; wait for it or choose another --out");
    // Released with its holder: the next run takes it.
    { RunGuard gone = std::move(std::get<RunGuard>(first)); }
    EXPECT_TRUE(std::holds_alternative<RunGuard>(RunGuard::take(dir)));
}

TEST(RunGuard, TheManifestIsRemovedWhenWritingBeginsAndListsOnlyThisRunsFiles) {
    const fs::path dir = test::scratchDir();
    test::writeText(dir / "run.json", "{\"old\": true}\n");
    test::writeText(dir / "old.png", "old");
    fs::last_write_time(dir / "old.png", fs::file_time_type::clock::now() - std::chrono::hours(1));
    auto guarded = RunGuard::take(dir);
    ASSERT_TRUE(std::holds_alternative<RunGuard>(guarded));
    // Taken, with its inputs still being checked: a refusal now leaves the last set complete.
    EXPECT_TRUE(fs::exists(dir / "run.json"));
    std::get<RunGuard>(guarded).begin();
    EXPECT_FALSE(fs::exists(dir / "run.json")); // the old set is no longer marked complete
    test::writeText(dir / "stats.json", "{}");
    test::writeText(dir / "final.png", "png");
    ASSERT_FALSE(std::get<RunGuard>(guarded).publish("render"));
    std::ifstream in(dir / "run.json");
    const nlohmann::json manifest = nlohmann::json::parse(in);
    EXPECT_EQ(manifest["command"], "render");
    EXPECT_EQ(manifest["complete"], true);
    ASSERT_EQ(manifest["files"].size(), 2u) << manifest.dump();
    EXPECT_EQ(manifest["files"][0]["name"], "final.png");
    EXPECT_EQ(manifest["files"][0]["bytes"], 3);
    EXPECT_EQ(manifest["files"][1]["name"], "stats.json");
}

} // namespace
} // namespace snowcap
