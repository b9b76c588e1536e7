// make_hostile_inputs: writes the hostile-input suite (world files, scenario files, special
// files, command lines, output targets; tools/hostile_inputs.cpp; runs, sweeps, plans, shards,
// merges and their outputs, one class per cause: tools/hostile_runs.cpp) and runs snowcap on
// each:
//
//   make_hostile_inputs --out DIR --run SNOWCAP [--seconds S] [--memory-mib M]
//   make_hostile_inputs --out DIR --run SNOWCAP --write-only [--expect CLASS]...
//   make_hostile_inputs --out DIR --run SNOWCAP --class CLASS [--seconds S] [--memory-mib M]
//
// The first writes every fixture and runs them all. The second writes them and their list
// (DIR/fixtures.json) and runs none, checking the classes are exactly the --expect ones; the
// third runs one class of that list: ctest has a test per class (tests/CMakeLists.txt), so a
// cause that breaks is named by the test that fails.
//
// Per fixture: the exit code (2 for every refusal), exactly one line on stderr naming the file
// and holding the expected words, and the run bounded: wall time under S (2 s by default) and
// peak resident memory (wait4) under M (256 MiB). A run past 10 x S is killed (a FIFO that
// blocks would otherwise hang the suite) and fails. Prints a line per fixture and the worst
// time and memory per class, also written to DIR/summary.md. Exit 0 when every fixture holds.

#include "hostile_inputs.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <set>
#include <stdexcept>
#include <string>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using hostile::InputFixture;

namespace {

struct Outcome {
    int exitCode = -1;
    std::string stderrText;
    double seconds = 0.0;
    double peakMiB = 0.0;
    bool killed = false;
};

Outcome runOne(const std::string& snowcap, const InputFixture& fixture, double killAfterS) {
    std::vector<std::string> args{snowcap};
    args.insert(args.end(), fixture.args.begin(), fixture.args.end());
    int errPipe[2];
    if (pipe(errPipe) != 0)
        return {};
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        if (!fixture.cwd.empty() && chdir(fixture.cwd.c_str()) != 0)
            _exit(126);
        for (const std::string& change : fixture.env) {
            const auto equals = change.find('=');
            if (equals == std::string::npos)
                unsetenv(change.c_str());
            else
                setenv(change.substr(0, equals).c_str(), change.substr(equals + 1).c_str(), 1);
        }
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
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    char chunk[65536];
    bool signalled = false;
    for (;;) {
        pollfd p{errPipe[0], POLLIN, 0};
        const int ready = poll(&p, 1, 50);
        if (ready > 0) {
            const ssize_t got = read(errPipe[0], chunk, sizeof chunk);
            if (got <= 0)
                break;
            if (outcome.stderrText.size() < (1u << 20)) // a flood is judged by its start
                outcome.stderrText.append(chunk, std::size_t(got));
        }
        if (fixture.signalAfterS > 0 && !signalled && elapsed() > fixture.signalAfterS) {
            kill(pid, SIGTERM);
            signalled = true;
        }
        if (!outcome.killed && elapsed() > killAfterS) {
            kill(pid, SIGKILL);
            outcome.killed = true;
        }
    }
    close(errPipe[0]);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    outcome.seconds = elapsed();
    outcome.peakMiB = usage.ru_maxrss / 1024.0; // kilobytes on Linux
    outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return outcome;
}

// What a path is, to compare before and after a run: its kind, a link's target, a regular
// file's bytes ("" when it does not exist).
std::string snapshot(const fs::path& path) {
    struct stat info {};
    if (lstat(path.c_str(), &info) != 0)
        return "";
    std::string state = std::to_string(info.st_mode & S_IFMT) + ":";
    if (S_ISLNK(info.st_mode)) {
        std::error_code ec;
        state += fs::read_symlink(path, ec).string();
    } else if (S_ISREG(info.st_mode)) {
        std::ifstream in(path, std::ios::binary);
        state += std::string(std::istreambuf_iterator<char>(in), {});
    }
    return state;
}

// The reason a run broke the fixture's promise, or "".
std::string judge(const InputFixture& fixture, const Outcome& run, double seconds, double memoryMiB,
                  const std::vector<std::string>& before) {
    for (std::size_t i = 0; i < fixture.untouched.size(); ++i)
        if (snapshot(fixture.untouched[i]) != before[i])
            return fixture.untouched[i].string() + " changed (it must be as it was)";
    for (const fs::path& path : fixture.absent) {
        struct stat info {};
        if (lstat(path.c_str(), &info) == 0)
            return path.string() + " exists after the run";
    }
    if (run.killed)
        return "still running after " + std::to_string(run.seconds) + " s: killed";
    if (run.seconds > seconds)
        return "took " + std::to_string(run.seconds) + " s";
    if (run.peakMiB > memoryMiB)
        return "peaked at " + std::to_string(run.peakMiB) + " MiB";
    const std::string& text = run.stderrText;
    if (run.exitCode != fixture.exitCode)
        return "exit " + std::to_string(run.exitCode) + " (" + std::to_string(fixture.exitCode) +
               " expected): " + text.substr(0, 400);
    if (!fixture.stillFifo.empty()) {
        struct stat info {};
        if (lstat(fixture.stillFifo.c_str(), &info) != 0 || !S_ISFIFO(info.st_mode))
            return fixture.stillFifo.string() + " is no longer a FIFO";
    }
    if (!fixture.stillCharDevice.empty()) {
        struct stat info {};
        if (lstat(fixture.stillCharDevice.c_str(), &info) != 0 || !S_ISCHR(info.st_mode))
            return fixture.stillCharDevice.string() + " is no longer a character device";
    }
    if (fixture.anyStderr)
        return "";
    if (fixture.exitCode == 0)
        return "";
    if (text.empty() || text.back() != '\n' || text.find('\n') != text.size() - 1)
        return "stderr is not one line: " + text.substr(0, 400);
    for (std::size_t i = 0; i + 1 < text.size(); ++i) // a tab aside: nothing moves the cursor
        if ((static_cast<unsigned char>(text[i]) < 0x20 || text[i] == 0x7f) && text[i] != '\t')
            return "the line holds control character " + std::to_string(int(text[i]));
    if (!fixture.names.empty() && text.find(fixture.names.string()) == std::string::npos)
        return "the line does not name " + fixture.names.string() + ": " + text.substr(0, 400);
    if (text.find(fixture.message) == std::string::npos)
        return "the line lacks '" + fixture.message + "': " + text.substr(0, 400);
    if (fixture.maxLineBytes > 0 && text.size() > fixture.maxLineBytes)
        return "the line is " + std::to_string(text.size()) + " bytes long";
    return "";
}

// The fixture list written by --write-only and read back by --class.
nlohmann::json listed(const InputFixture& f) {
    const auto paths = [](const std::vector<fs::path>& list) {
        std::vector<std::string> out;
        for (const fs::path& p : list)
            out.push_back(p.string());
        return out;
    };
    return {{"cls", f.cls},
            {"name", f.name},
            {"args", f.args},
            {"exit", f.exitCode},
            {"message", f.message},
            {"names", f.names.string()},
            {"any_stderr", f.anyStderr},
            {"max_line_bytes", f.maxLineBytes},
            {"still_fifo", f.stillFifo.string()},
            {"still_char_device", f.stillCharDevice.string()},
            {"hold_lock", f.holdLock.string()},
            {"env", f.env},
            {"cwd", f.cwd.string()},
            {"untouched", paths(f.untouched)},
            {"absent", paths(f.absent)},
            {"seconds", f.seconds},
            {"memory_mib", f.memoryMiB},
            {"signal_after_s", f.signalAfterS}};
}

InputFixture unlisted(const nlohmann::json& j) {
    InputFixture f;
    f.cls = j.at("cls");
    f.name = j.at("name");
    f.args = j.at("args").get<std::vector<std::string>>();
    f.exitCode = j.at("exit");
    f.message = j.at("message");
    f.names = j.at("names").get<std::string>();
    f.anyStderr = j.at("any_stderr");
    f.maxLineBytes = j.at("max_line_bytes");
    f.stillFifo = j.at("still_fifo").get<std::string>();
    f.stillCharDevice = j.at("still_char_device").get<std::string>();
    f.holdLock = j.at("hold_lock").get<std::string>();
    f.env = j.at("env").get<std::vector<std::string>>();
    f.cwd = j.at("cwd").get<std::string>();
    for (const std::string& p : j.at("untouched"))
        f.untouched.emplace_back(p);
    for (const std::string& p : j.at("absent"))
        f.absent.emplace_back(p);
    f.seconds = j.at("seconds");
    f.memoryMiB = j.at("memory_mib");
    f.signalAfterS = j.at("signal_after_s");
    return f;
}

std::string fixed(double value, int digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

} // namespace

int main(int argc, char** argv) {
    fs::path out;
    std::string snowcap, onlyClass;
    std::set<std::string> expected;
    bool writeOnly = false;
    double seconds = 2.0, memoryMiB = 256.0;
    for (int i = 1; i < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--write-only") {
            writeOnly = true;
            --i;
            continue;
        }
        if (i + 1 == argc) {
            std::fprintf(stderr, "make_hostile_inputs: %s wants a value\n", key.c_str());
            return 2;
        }
        const std::string value = argv[i + 1];
        if (key == "--class")
            onlyClass = value;
        else if (key == "--expect")
            expected.insert(value);
        else if (key == "--out")
            out = value;
        else if (key == "--run")
            snowcap = value;
        else if (key == "--seconds")
            seconds = std::stod(value);
        else if (key == "--memory-mib")
            memoryMiB = std::stod(value);
        else {
            std::fprintf(stderr, "make_hostile_inputs: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    if (!snowcap.empty()) // fixtures may run in a working directory of their own
        snowcap = fs::absolute(snowcap).string();
    if (out.empty() || snowcap.empty()) {
        std::fprintf(stderr, "usage: make_hostile_inputs --out DIR --run SNOWCAP [--seconds S] "
                             "[--memory-mib M]\n");
        return 2;
    }
    std::vector<InputFixture> fixtures;
    const fs::path list = out / "fixtures.json";
    try {
        if (onlyClass.empty()) {
            fixtures = hostile::writeInputFixtures(out);
            for (InputFixture& f : hostile::writeRunFixtures(out / "runs", snowcap))
                fixtures.push_back(std::move(f));
            for (InputFixture& f : hostile::writeTerrainFixtures(out / "terrain"))
                fixtures.push_back(std::move(f));
        } else {
            std::ifstream in(list);
            if (!in)
                throw std::runtime_error("no " + list.string() + " (write it with --write-only)");
            for (const nlohmann::json& j : nlohmann::json::parse(in))
                if (j.at("cls") == onlyClass)
                    fixtures.push_back(unlisted(j));
            if (fixtures.empty())
                throw std::runtime_error("no fixture of class '" + onlyClass + "' in " +
                                         list.string());
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "make_hostile_inputs: %s\n", error.what());
        return 1;
    }
    if (writeOnly) {
        nlohmann::json all = nlohmann::json::array();
        std::set<std::string> classes;
        for (const InputFixture& f : fixtures) {
            all.push_back(listed(f));
            classes.insert(f.cls);
        }
        std::ofstream(list) << all.dump(1) << "\n";
        std::printf("make_hostile_inputs: %zu fixtures of %zu classes in %s\n", fixtures.size(),
                    classes.size(), list.c_str());
        int unknown = 0; // a class no test runs, or a test whose class is gone
        for (const std::string& cls : classes)
            if (!expected.empty() && !expected.count(cls))
                std::printf("class '%s' is not --expect'ed: no test runs it\n", cls.c_str()),
                    ++unknown;
        for (const std::string& cls : expected)
            if (!classes.count(cls))
                std::printf("--expect '%s': no fixture has this class\n", cls.c_str()), ++unknown;
        return unknown == 0 ? 0 : 1;
    }
    std::printf("make_hostile_inputs: %zu fixtures in %s (bounds %g s, %g MiB)\n", fixtures.size(),
                out.c_str(), seconds, memoryMiB);

    struct Worst {
        int count = 0;
        double seconds = 0.0, peakMiB = 0.0;
        std::string slowest, biggest;
    };
    std::map<std::string, Worst> classes;
    int broken = 0;
    std::string table = "| class | fixture | exit | the line | time (s) | peak (MiB) |\n"
                        "| --- | --- | --- | --- | --- | --- |\n";
    for (InputFixture& fixture : fixtures) {
        int lock = -1; // held as a running snowcap would hold it (lab/run_guard.cpp)
        if (!fixture.holdLock.empty()) {
            lock = open((fixture.holdLock / ".snowcap-run.lock").c_str(), O_RDWR | O_CREAT, 0644);
            const std::string pid = std::to_string(getpid()) + "\n";
            if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0 || ftruncate(lock, 0) != 0 ||
                pwrite(lock, pid.data(), pid.size(), 0) != ssize_t(pid.size()))
                std::fprintf(stderr, "make_hostile_inputs: cannot hold the lock\n");
            fixture.message += std::to_string(getpid()) + ")";
        }
        std::vector<std::string> before;
        for (const fs::path& path : fixture.untouched)
            before.push_back(snapshot(path));
        const double bound = std::max(fixture.seconds, seconds); // a fixture may allow more
        const Outcome run = runOne(snowcap, fixture, 10.0 * bound);
        if (lock >= 0)
            close(lock);
        const std::string failure =
            judge(fixture, run, bound, std::max(fixture.memoryMiB, memoryMiB), before);
        std::string line = run.stderrText.substr(0, 300);
        if (const auto end = line.find('\n'); end != std::string::npos)
            line.resize(end);
        std::printf("%-4s %-16s %-48s %5.2f s %6.1f MiB  exit %d  %s\n",
                    failure.empty() ? "ok" : "FAIL", fixture.cls.c_str(), fixture.name.c_str(),
                    run.seconds, run.peakMiB, run.exitCode, fixture.anyStderr ? "" : line.c_str());
        if (!failure.empty()) {
            std::printf("     %s\n", failure.c_str());
            ++broken;
        }
        std::string shown = fixture.anyStderr ? "(help text)" : line;
        for (char& c : shown)
            if (c == '|')
                c = '/';
        table += "| " + fixture.cls + " | " + fixture.name + " | " + std::to_string(run.exitCode) +
                 " | `" + shown + "` | " + fixed(run.seconds, 2) + " | " + fixed(run.peakMiB, 0) +
                 " |\n";
        Worst& worst = classes[fixture.cls];
        ++worst.count;
        if (run.seconds >= worst.seconds)
            worst.seconds = run.seconds, worst.slowest = fixture.name;
        if (run.peakMiB >= worst.peakMiB)
            worst.peakMiB = run.peakMiB, worst.biggest = fixture.name;
    }
    std::string summary = "| class | fixtures | worst time (s) | slowest | worst peak (MiB) | "
                          "biggest |\n| --- | --- | --- | --- | --- | --- |\n";
    for (const auto& [cls, worst] : classes)
        summary += "| " + cls + " | " + std::to_string(worst.count) + " | " +
                   fixed(worst.seconds, 2) + " | " + worst.slowest + " | " +
                   fixed(worst.peakMiB, 0) + " | " + worst.biggest + " |\n";
    std::printf("\n%s", summary.c_str());
    if (onlyClass.empty()) // the whole suite's table (docs/hostile.md is made from it)
        std::ofstream(out / "summary.md") << summary << "\n" << table;
    std::printf("%d of %zu fixtures broke their promise\n", broken, fixtures.size());
    return broken == 0 ? 0 : 1;
}
