// make_hostile: writes the hostile-file suite and, with --run, runs `snowcap inspect-mesh` on
// every fixture and checks what the importer promises (docs/reliability.md):
//
//   make_hostile --out DIR                          write the fixtures only (fuzz seeds)
//   make_hostile --out DIR --run SNOWCAP [--memory-mib M] [--seconds S] [--assets DIR]
//
// Per fixture: the exit code (2 for a refused file, 0 where the data is usable), exactly one
// line on stderr naming the file, the expected words in it, and the run bounded: wall time
// under S + 2 s and peak resident memory (the inspect-mesh process and its import child, as
// wait4 reports them) under M + 256 MiB. Prints a table per fixture and the worst time and
// memory per format family, also written to DIR/summary.md. Exit 0 when every fixture holds.

#include "hostile_fixtures.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using hostile::Expect;
using hostile::Fixture;

namespace {

struct Outcome {
    int exitCode = -1;
    std::string stderrText;
    double seconds = 0.0;
    double peakMiB = 0.0;
};

Outcome runOne(const std::string& snowcap, const fs::path& file, double memoryMiB, double seconds) {
    const std::vector<std::string> args = {snowcap,
                                           "inspect-mesh",
                                           file.string(),
                                           "--set",
                                           "import.max_memory_mib=" + std::to_string(memoryMiB),
                                           "--set",
                                           "import.max_seconds=" + std::to_string(seconds)};
    int errPipe[2];
    if (pipe(errPipe) != 0)
        return {};
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(errPipe[1], 2);
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        close(errPipe[0]);
        std::vector<char*> argv;
        for (const std::string& arg : args)
            argv.push_back(const_cast<char*>(arg.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(errPipe[1]);
    Outcome outcome;
    char chunk[4096];
    for (ssize_t got; (got = read(errPipe[0], chunk, sizeof chunk)) > 0;)
        outcome.stderrText.append(chunk, std::size_t(got));
    close(errPipe[0]);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    outcome.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    outcome.peakMiB = usage.ru_maxrss / 1024.0; // kilobytes on Linux
    outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return outcome;
}

// The reason a run broke the fixture's promise, or "".
std::string judge(const Fixture& fixture, const Outcome& run, const fs::path& file,
                  double memoryMiB, double seconds) {
    if (run.seconds > seconds + 2.0)
        return "took " + std::to_string(run.seconds) + " s";
    if (run.peakMiB > memoryMiB + 256.0)
        return "peaked at " + std::to_string(run.peakMiB) + " MiB";
    if (fixture.expect == Expect::Load)
        return run.exitCode == 0 ? ""
                                 : "exit " + std::to_string(run.exitCode) + ": " + run.stderrText;
    if (run.exitCode != 2)
        return "exit " + std::to_string(run.exitCode) + " (2 expected): " + run.stderrText;
    const std::string& text = run.stderrText;
    if (text.empty() || text.back() != '\n' || text.find('\n') != text.size() - 1)
        return "stderr is not one line: " + text;
    if (!text.starts_with("snowcap: " + file.string() + ": "))
        return "the line does not name the file: " + text;
    if (text.find(fixture.message) == std::string::npos)
        return "the line lacks '" + fixture.message + "': " + text;
    return "";
}

std::string fixed(double value, int digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

} // namespace

int main(int argc, char** argv) {
    fs::path out, assets = fs::path(SNOWCAP_SOURCE_DIR) / "assets" / "meshes";
    std::string snowcap;
    double memoryMiB = 512.0, seconds = 10.0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i], value = argv[i + 1];
        if (key == "--out")
            out = value;
        else if (key == "--run")
            snowcap = value;
        else if (key == "--assets")
            assets = value;
        else if (key == "--memory-mib")
            memoryMiB = std::stod(value);
        else if (key == "--seconds")
            seconds = std::stod(value);
        else {
            std::fprintf(stderr, "make_hostile: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    if (out.empty()) {
        std::fprintf(stderr, "usage: make_hostile --out DIR [--run SNOWCAP] [--memory-mib M] "
                             "[--seconds S] [--assets DIR]\n");
        return 2;
    }
    std::vector<Fixture> fixtures;
    try {
        fixtures = hostile::writeFixtures(out, assets);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "make_hostile: %s\n", error.what());
        return 1;
    }
    std::printf("make_hostile: %zu fixtures in %s\n", fixtures.size(), out.c_str());
    if (snowcap.empty())
        return 0;

    struct Worst {
        int count = 0;
        double seconds = 0.0, peakMiB = 0.0;
        std::string slowest, biggest;
    };
    std::map<std::string, Worst> families;
    int broken = 0;
    std::string table = "| family | fixture | class | outcome | time (s) | peak (MiB) |\n"
                        "| --- | --- | --- | --- | --- | --- |\n";
    for (const Fixture& fixture : fixtures) {
        const fs::path file = out / fixture.name;
        const Outcome run = runOne(snowcap, file, memoryMiB, seconds);
        const std::string failure = judge(fixture, run, file, memoryMiB, seconds);
        std::string line = run.stderrText;
        if (!line.empty() && line.back() == '\n')
            line.pop_back();
        const std::string prefix = "snowcap: " + file.string() + ": ";
        if (line.starts_with(prefix))
            line = line.substr(prefix.size());
        const std::string outcome =
            run.exitCode == 0 ? "loads" : "exit " + std::to_string(run.exitCode) + ": " + line;
        std::printf("%-4s %-12s %-30s %6.2f s %7.1f MiB  %s\n", failure.empty() ? "ok" : "FAIL",
                    fixture.family.c_str(), fixture.name.c_str(), run.seconds, run.peakMiB,
                    outcome.c_str());
        if (!failure.empty()) {
            std::printf("     %s\n", failure.c_str());
            ++broken;
        }
        table += "| " + fixture.family + " | `" + fixture.name + "` | " + fixture.what + " | " +
                 outcome + " | " + fixed(run.seconds, 2) + " | " + fixed(run.peakMiB, 0) + " |\n";
        Worst& worst = families[fixture.family];
        ++worst.count;
        if (run.seconds >= worst.seconds)
            worst.seconds = run.seconds, worst.slowest = fixture.name;
        if (run.peakMiB >= worst.peakMiB)
            worst.peakMiB = run.peakMiB, worst.biggest = fixture.name;
    }
    std::string summary = "| family | fixtures | worst time (s) | slowest | worst peak (MiB) | "
                          "biggest |\n| --- | --- | --- | --- | --- | --- |\n";
    for (const auto& [family, worst] : families)
        summary += "| " + family + " | " + std::to_string(worst.count) + " | " +
                   fixed(worst.seconds, 2) + " | `" + worst.slowest + "` | " +
                   fixed(worst.peakMiB, 0) + " | `" + worst.biggest + "` |\n";
    std::printf("\ncaps: import.max_memory_mib = %g, import.max_seconds = %g\n%s", memoryMiB,
                seconds, summary.c_str());
    std::ofstream(out / "summary.md") << summary << "\n" << table;
    std::printf("%d of %zu fixtures broke their promise\n", broken, fixtures.size());
    return broken == 0 ? 0 : 1;
}
