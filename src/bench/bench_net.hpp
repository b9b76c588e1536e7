#pragma once
// The `net` cases of `snowcap bench` (bench_net.cpp): what each replication mode costs one client
// against the crowd's size, and what a late join costs against the buffer's (docs/network.md).

#include "bench/bench_cases.hpp"

#include <optional>
#include <string>
#include <vector>

namespace snowcap::bench {

// Per mode (inputs, state with zstd and lz4, hybrid) and crowd size: a case "net" "<mode>_<N>"
// at 256 whose time is one step of the in-process session (the server's step, its messages,
// the client's step) and whose extra holds bytes_per_s per client; per buffer side in `sizes`:
// "net" "late_join", the snapshot's making and applying, with its bytes.
std::optional<std::string> netCases(Context& context, const std::vector<int>& crowds,
                                    const std::vector<int>& sizes, int steps);

} // namespace snowcap::bench
