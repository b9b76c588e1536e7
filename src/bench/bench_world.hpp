#pragma once
// The `world` cases of `snowcap bench` (bench_world.cpp): paging a world store against the same
// follow step without it, the worst return step, cost per tile, store bytes per km walked and
// the tile codecs on the walk's tiles.

#include "bench/bench_cases.hpp"

#include <optional>
#include <string>

namespace snowcap::bench {

std::optional<std::string> worldCases(Context& context, int size);

} // namespace snowcap::bench
