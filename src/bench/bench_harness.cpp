#include "bench/bench_harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <thread>

namespace snowcap::bench {

Harness::Harness(gpu::TimingMethod method, int frames, std::vector<std::string> only,
                 double caseBudgetS)
    : method_(method), frames_(std::max(frames, 1)), only_(std::move(only)),
      caseBudgetS_(caseBudgetS) {
    if (method_ == gpu::TimingMethod::TimerQuery) {
        queryBegin_ = gpu::Query(GL_TIMESTAMP);
        queryEnd_ = gpu::Query(GL_TIMESTAMP);
    }
}

bool Harness::wants(std::string_view pass) const {
    if (only_.empty() || pass == "copy")
        return true;
    // "pass" or "pass:variant": either selects the pass.
    return std::any_of(only_.begin(), only_.end(), [pass](const std::string& entry) {
        return entry == pass ||
               (entry.size() > pass.size() && entry.starts_with(pass) && entry[pass.size()] == ':');
    });
}

bool Harness::wants(std::string_view pass, std::string_view variant) const {
    if (only_.empty() || pass == "copy")
        return true;
    // A bare "pass" selects all its variants; "pass:variant" only that one.
    return std::any_of(only_.begin(), only_.end(), [&](const std::string& entry) {
        return entry == pass ||
               (entry.size() == pass.size() + 1 + variant.size() && entry.starts_with(pass) &&
                entry[pass.size()] == ':' && entry.ends_with(variant));
    });
}

bool Harness::wantsAny(std::initializer_list<std::string_view> passes) const {
    return std::any_of(passes.begin(), passes.end(),
                       [&](std::string_view pass) { return pass != "copy" && wants(pass); });
}

double Harness::timeOnceMs(const std::function<void()>& work, bool wallClock) {
    if (wallClock || method_ == gpu::TimingMethod::Serialized) {
        // Everything queued before is finished, and the work itself is finished when the
        // clock stops: on llvmpipe this is the only honest number (docs/performance.md).
        glFinish();
        const auto start = std::chrono::steady_clock::now();
        work();
        glFinish();
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    }
    glQueryCounter(queryBegin_.id(), GL_TIMESTAMP);
    work();
    glQueryCounter(queryEnd_.id(), GL_TIMESTAMP);
    GLuint64 begin = 0, end = 0; // GL_QUERY_RESULT waits: a benchmark may block
    glGetQueryObjectui64v(queryBegin_.id(), GL_QUERY_RESULT, &begin);
    glGetQueryObjectui64v(queryEnd_.id(), GL_QUERY_RESULT, &end);
    return static_cast<double>(end - begin) * 1e-6;
}

Case& Harness::run(const CaseSpec& spec, const std::function<void()>& work,
                   const std::function<void()>& setup) {
    // Warm-up: shader variants compile lazily in some drivers and first touches fault pages in.
    // A single warm-up is enough once one repetition is long enough to hide that.
    const auto stopping = [this] {
        return stop_ && stop_();
    };
    for (int i = 0; i < 2 && !stopping(); ++i) {
        if (setup)
            setup();
        const double ms = timeOnceMs(work, true);
        if (ms > 250.0)
            break;
    }
    std::vector<double> ms;
    double spentS = 0.0;
    for (int i = 0; i < frames_ && !stopping(); ++i) {
        if (setup)
            setup();
        ms.push_back(timeOnceMs(work, spec.wallClock));
        spentS += ms.back() * 1e-3;
        if (ms.size() >= 3 && spentS > caseBudgetS_)
            break;
    }
    std::sort(ms.begin(), ms.end());
    Case c;
    c.pass = spec.pass;
    c.variant = spec.variant;
    c.size = spec.size;
    c.floor = spec.floor.empty() ? spec.size : spec.floor;
    c.elements = spec.elements;
    c.unit = spec.unit;
    c.method =
        spec.wallClock ? gpu::toString(gpu::TimingMethod::Serialized) : gpu::toString(method_);
    c.samples = static_cast<int>(ms.size());
    // The median of an even count is the mean of the middle two.
    if (const std::size_t n = ms.size(); n > 0) { // none when stopped before the first
        c.medianMs = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
        c.minMs = ms.front();
        c.maxMs = ms.back();
    }
    cases_.push_back(std::move(c));
    if (onCase_)
        onCase_(cases_.back());
    return cases_.back();
}

Case& Harness::add(Case c) {
    if (c.floor.empty())
        c.floor = c.size;
    cases_.push_back(std::move(c));
    if (onCase_)
        onCase_(cases_.back());
    return cases_.back();
}

const Case* Harness::find(std::string_view pass, std::string_view variant,
                          std::string_view size) const {
    for (const Case& c : cases_)
        if (c.pass == pass && c.variant == variant && c.size == size)
            return &c;
    return nullptr;
}

Mesh denseSphere(float radiusCm, int triangles) {
    // makeSphere's lat-long grid has about 2 x segments x rings triangles; segments = 2 x rings
    // keeps the quads square.
    const int rings = std::max(4, static_cast<int>(std::lround(std::sqrt(triangles / 4.0))));
    return makeSphere(radiusCm, 2 * rings, rings);
}

std::string countLabel(long long n) {
    if (n >= 1000000 && n % 1000000 == 0)
        return std::to_string(n / 1000000) + "M";
    if (n >= 1000 && n % 1000 == 0)
        return std::to_string(n / 1000) + "k";
    return std::to_string(n);
}

MachineInfo machineInfo() {
    MachineInfo info;
    info.cores = std::thread::hardware_concurrency();
    std::ifstream cpu("/proc/cpuinfo");
    for (std::string line; std::getline(cpu, line);)
        if (line.rfind("model name", 0) == 0) {
            info.cpuModel = line.substr(line.find(':') + 2);
            break;
        }
    std::ifstream mem("/proc/meminfo");
    for (std::string line; std::getline(mem, line);)
        if (line.rfind("MemTotal:", 0) == 0) {
            info.ramGiB = std::stod(line.substr(9)) / (1024.0 * 1024.0); // kB
            break;
        }
    utsname name{};
    if (uname(&name) == 0)
        info.os = std::string(name.sysname) + " " + name.release + " " + name.machine;
    return info;
}

double peakRssMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024.0; // Linux reports kB
}

double psnrRgb(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
    if (a.size() != b.size() || a.empty())
        return 0.0;
    double sum = 0.0;
    std::size_t count = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (i % 4 == 3)
            continue; // alpha
        const double d = double(a[i]) - double(b[i]);
        sum += d * d;
        ++count;
    }
    if (sum == 0.0)
        return std::numeric_limits<double>::infinity();
    return 10.0 * std::log10(255.0 * 255.0 / (sum / double(count)));
}

} // namespace snowcap::bench
