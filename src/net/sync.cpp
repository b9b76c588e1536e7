#include "net/sync.hpp"

#include "core/config.hpp"
#include "core/params.hpp"
#include "render/frame.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <utility>

namespace snowcap::net {

namespace {

// Tiles per message: a 2048^2 r16f sim at 32^2 is 4,096 tiles; a snapshot part stays a few MiB.
constexpr std::size_t kTilesPerPart = 1024;

WorldCompression compressionOf(std::uint8_t code) {
    return static_cast<WorldCompression>(code);
}

// Each sim's clock, and where every window stands when any of them follows (a session of fixed
// regions sends no centres: they never move).
StepEnd stepEndOf(const SnowField& field) {
    StepEnd end;
    bool follows = false;
    for (int s = 0; s < field.simCount(); ++s) {
        end.clocks.push_back(field.sim(s).clock().state());
        const glm::dvec2 centre = field.sim(s).region().centreCm;
        end.centres.push_back({centre.x, centre.y});
        follows = follows || field.effectiveSettings().sims[s].region != RegionMode::Fixed;
    }
    if (!follows)
        end.centres.clear();
    return end;
}

} // namespace

std::optional<std::string> replicationRefusal(const Settings& settings) {
    const int observers = std::max(1, static_cast<int>(settings.snow.follow.size()));
    for (std::size_t s = 0; s < settings.sims.size(); ++s) {
        const SimSettings& sim = settings.sims[s];
        const std::string key = "sim." + std::string(params::simKey(s));
        if (sim.model != SimModel::Decay)
            return "net: key '" + key +
                   ".model': a networked session replicates decay sims "
                   "only, got \"" +
                   std::string(toString(sim.model)) + "\"";
        if (sim.persistence != Persistence::Window)
            return "net: key '" + key +
                   ".persistence': a networked session replicates the window, not a world "
                   "store, got \"" +
                   std::string(toString(sim.persistence)) + "\"";
        const int windows = SnowField::windowsWanted(settings, static_cast<int>(s), observers);
        if (windows > 1)
            return "net: key 'snow.follow': " + std::to_string(windows) + " observers give " + key +
                   " a window each; a networked session replicates one window a sim";
    }
    return std::nullopt;
}

std::uint64_t settingsHash(const Settings& settings) {
    toml::table table = params::toToml(settings);
    table.erase("net"); // the link's keys are each client's own; the mode travels in Welcome
    std::ostringstream text;
    text << table;
    std::uint64_t hash = 1469598103934665603ull; // FNV-1a
    for (unsigned char c : text.str())
        hash = (hash ^ c) * 1099511628211ull;
    return hash;
}

InstancePose poseOf(const DeformerInstance& instance) {
    InstancePose pose;
    pose.visible = instance.mesh != nullptr;
    pose.contact = static_cast<std::uint8_t>(instance.contact);
    std::memcpy(pose.model.data(), &instance.model[0][0], 64);
    pose.bounds = {instance.worldBounds.min.x, instance.worldBounds.min.y,
                   instance.worldBounds.min.z, instance.worldBounds.max.x,
                   instance.worldBounds.max.y, instance.worldBounds.max.z};
    std::memcpy(pose.sway.data(), &instance.sway[0], 16);
    pose.joints.resize(instance.skinning.size());
    for (std::size_t j = 0; j < instance.skinning.size(); ++j)
        std::memcpy(pose.joints[j].data(), &instance.skinning[j][0][0], 64);
    return pose;
}

// ---- the authority ----------------------------------------------------------------------------

Authority::Authority(Lab& lab, const NetSettings& net) : lab_(lab), net_(net) {
    for (int s = 0; s < lab_.field().simCount(); ++s)
        baseline_.push_back(readSimBuffer(lab_.field().sim(s)));
}

std::vector<Message> Authority::changedTiles(std::uint32_t step) {
    std::vector<Message> out;
    for (int s = 0; s < lab_.field().simCount(); ++s) {
        BufferWords now = readSimBuffer(lab_.field().sim(s));
        const TileGrid grid = gridOf(now, net_.tileTexels);
        Tiles tiles{static_cast<std::uint8_t>(s),
                    TilesKind::Changes,
                    static_cast<std::uint8_t>(net_.compress),
                    {}};
        const bool sameShape = now.sameShape(baseline_[s]);
        for (int t = 0; t < grid.count(); ++t)
            if (!sameShape || !tileEqual(now, baseline_[s], grid, t)) {
                tiles.tiles.push_back(packBufferTile(now, grid, t, net_.compress));
                if (tiles.tiles.size() == kTilesPerPart) {
                    out.push_back({step, std::move(tiles)});
                    tiles = Tiles{static_cast<std::uint8_t>(s),
                                  TilesKind::Changes,
                                  static_cast<std::uint8_t>(net_.compress),
                                  {}};
                }
            }
        if (!tiles.tiles.empty())
            out.push_back({step, std::move(tiles)});
        baseline_[s] = std::move(now);
    }
    return out;
}

std::vector<Message> Authority::stepMessages(std::uint32_t step) {
    if (net_.mode == NetMode::State)
        return changedTiles(step);
    std::vector<Message> out;
    StepInputs inputs;
    for (const DeformerInstance& instance : lab_.instances())
        inputs.instances.push_back(poseOf(instance));
    out.push_back({step, std::move(inputs)});
    if (net_.checksumEvery > 0 && step % static_cast<std::uint32_t>(net_.checksumEvery) == 0)
        for (int s = 0; s < lab_.field().simCount(); ++s) {
            const BufferWords now = readSimBuffer(lab_.field().sim(s));
            out.push_back({step, Checksums{static_cast<std::uint8_t>(s),
                                           tileCrcs(now, gridOf(now, net_.tileTexels))}});
        }
    return out;
}

std::optional<Message> Authority::resend(std::uint32_t step, int sim,
                                         const std::vector<std::uint32_t>& tiles) {
    if (sim < 0 || sim >= lab_.field().simCount())
        return std::nullopt;
    const BufferWords now = readSimBuffer(lab_.field().sim(sim));
    const TileGrid grid = gridOf(now, net_.tileTexels);
    Tiles out{static_cast<std::uint8_t>(sim),
              TilesKind::Resend,
              static_cast<std::uint8_t>(net_.compress),
              {}};
    for (std::uint32_t t : tiles)
        if (t < static_cast<std::uint32_t>(grid.count()))
            out.tiles.push_back(packBufferTile(now, grid, static_cast<int>(t), net_.compress));
    if (out.tiles.empty())
        return std::nullopt;
    return Message{step, std::move(out)};
}

Message Authority::stepEnd(std::uint32_t step) const {
    return {step, stepEndOf(lab_.field())};
}

std::vector<Message> Authority::snapshot(std::uint32_t step) {
    std::vector<Message> out;
    for (int s = 0; s < lab_.field().simCount(); ++s) {
        const BufferWords now = readSimBuffer(lab_.field().sim(s));
        const TileGrid grid = gridOf(now, net_.tileTexels);
        Tiles part{static_cast<std::uint8_t>(s),
                   TilesKind::Snapshot,
                   static_cast<std::uint8_t>(net_.compress),
                   {}};
        for (int t = 0; t < grid.count(); ++t) {
            part.tiles.push_back(packBufferTile(now, grid, t, net_.compress));
            if (part.tiles.size() == kTilesPerPart || t + 1 == grid.count()) {
                out.push_back({step, std::move(part)});
                part = Tiles{static_cast<std::uint8_t>(s),
                             TilesKind::Snapshot,
                             static_cast<std::uint8_t>(net_.compress),
                             {}};
            }
        }
    }
    out.push_back(stepEnd(step));
    return out;
}

// ---- the replica ------------------------------------------------------------------------------

Replica::Replica(Lab& lab, NetSettings net) : lab_(lab), net_(net) {
    for (int s = 0; s < lab_.field().simCount(); ++s)
        mirror_.push_back(readSimBuffer(lab_.field().sim(s)));
    pendingTiles_.resize(mirror_.size());
}

std::optional<std::string> Replica::apply(const Message& message) {
    const std::uint32_t expected = applied_ ? *applied_ + 1 : message.step;
    if (const auto* tiles = std::get_if<Tiles>(&message.body)) {
        if (tiles->sim >= mirror_.size())
            return "net: tiles of sim " + std::to_string(tiles->sim) + ", which this client lacks";
        const bool snapshot = tiles->kind == TilesKind::Snapshot;
        if (snapshot != !applied_.has_value() || message.step != expected)
            return "net: tiles stamped " + std::to_string(message.step) + " out of order";
        if (tiles->kind == TilesKind::Resend) {
            resends_.push_back(*tiles);
            return std::nullopt;
        }
        BufferWords& mirror = mirror_[tiles->sim];
        const TileGrid grid = gridOf(mirror, net_.tileTexels);
        for (const Tile& tile : tiles->tiles) {
            if (!unpackBufferTile(mirror, grid, tile, compressionOf(tiles->compression)))
                return "net: a tile of sim " + std::to_string(tiles->sim) + " does not unpack";
            pendingTiles_[tiles->sim].push_back(static_cast<int>(tile.index));
        }
        return std::nullopt;
    }
    if (const auto* inputs = std::get_if<StepInputs>(&message.body)) {
        if (!applied_ || message.step != expected)
            return "net: inputs stamped " + std::to_string(message.step) + " out of order";
        inputs_ = *inputs;
        return std::nullopt;
    }
    if (const auto* sums = std::get_if<Checksums>(&message.body)) {
        if (!applied_ || message.step != expected)
            return "net: checksums stamped " + std::to_string(message.step) + " out of order";
        checksums_.push_back(*sums);
        return std::nullopt;
    }
    if (const auto* end = std::get_if<StepEnd>(&message.body)) {
        if (applied_ && message.step != expected)
            return "net: step " + std::to_string(message.step) + " ends, " +
                   std::to_string(expected) + " was due";
        if (end->clocks.size() != mirror_.size() ||
            (!end->centres.empty() && end->centres.size() != mirror_.size()))
            return "net: the server has " + std::to_string(end->clocks.size()) +
                   " sims, this client " + std::to_string(mirror_.size());
        return completeStep(message.step, *end);
    }
    return std::nullopt; // Welcome, End, Refused: the transport's business
}

std::optional<std::string> Replica::runInputs(std::uint32_t step) {
    if (!inputs_)
        return "net: step " + std::to_string(step) + " ends without its inputs";
    const double dt = lab_.fixedDtS();
    const double time = step * dt;
    std::vector<DeformerInstance> instances = lab_.instancesAt(time);
    if (instances.size() != inputs_->instances.size())
        return "net: the server poses " + std::to_string(inputs_->instances.size()) +
               " instances, this client has " + std::to_string(instances.size());
    joints_.assign(instances.size(), {});
    for (std::size_t i = 0; i < instances.size(); ++i) {
        const InstancePose& pose = inputs_->instances[i];
        DeformerInstance& instance = instances[i];
        if (!pose.visible)
            instance.mesh = nullptr;
        instance.contact = static_cast<ContactType>(pose.contact);
        std::memcpy(&instance.model[0][0], pose.model.data(), 64);
        instance.worldBounds.min = {pose.bounds[0], pose.bounds[1], pose.bounds[2]};
        instance.worldBounds.max = {pose.bounds[3], pose.bounds[4], pose.bounds[5]};
        std::memcpy(&instance.sway[0], pose.sway.data(), 16);
        joints_[i].resize(pose.joints.size());
        for (std::size_t j = 0; j < pose.joints.size(); ++j)
            std::memcpy(&joints_[i][j][0][0], pose.joints[j].data(), 64);
        instance.skinning = joints_[i];
    }
    runFrame(lab_.field(), lab_.renderer(), {instances, dt, {}});
    inputs_.reset();
    lastPosed_ = std::move(instances);
    return std::nullopt;
}

std::span<const DeformerInstance> Replica::lastDeformers() {
    if (!lastPosed_.empty())
        return lastPosed_;
    return lab_.instancesAt(applied_.value_or(0) * lab_.fixedDtS());
}

std::optional<std::string> Replica::completeStep(std::uint32_t step, const StepEnd& end) {
    SnowField& field = lab_.field();
    const bool snapshot = !applied_.has_value();
    if (!snapshot && net_.mode != NetMode::State)
        if (auto error = runInputs(step))
            return error;
    // Each window where the server's stands, before its tiles are written: the tiles are in
    // window texels. A client that steps moved its windows with the server's poses already
    // (a window placed here after a step of its own is counted: its texels may differ too).
    for (int s = 0; s < static_cast<int>(end.centres.size()); ++s) {
        const glm::dvec2 centre{end.centres[s][0], end.centres[s][1]};
        if (field.sim(s).region().centreCm == centre)
            continue;
        if (!snapshot && net_.mode != NetMode::State)
            ++counts_.windowMismatches;
        field.placeWindow(s, 0, centre);
    }
    // State (and a snapshot): the tiles that came are the server's; so are resent tiles.
    for (int s = 0; s < field.simCount(); ++s) {
        const TileGrid grid = gridOf(mirror_[s], net_.tileTexels);
        writeSimTiles(field.sim(s), mirror_[s], grid, pendingTiles_[s]);
        counts_.tilesApplied += static_cast<long long>(pendingTiles_[s].size());
        pendingTiles_[s].clear();
    }
    for (const Tiles& resend : resends_) {
        BufferWords now = readSimBuffer(field.sim(resend.sim));
        const TileGrid grid = gridOf(now, net_.tileTexels);
        std::vector<int> written;
        for (const Tile& tile : resend.tiles)
            if (unpackBufferTile(now, grid, tile, compressionOf(resend.compression)))
                written.push_back(static_cast<int>(tile.index));
        writeSimTiles(field.sim(resend.sim), now, grid, written);
        counts_.tilesResent += static_cast<long long>(written.size());
    }
    resends_.clear();
    for (int s = 0; s < field.simCount(); ++s) {
        if (!snapshot && net_.mode != NetMode::State &&
            !(field.sim(s).clock().state() == end.clocks[s]))
            ++counts_.clockMismatches;
        field.sim(s).restoreClock(end.clocks[s]);
    }
    for (const Checksums& sums : checksums_) {
        if (sums.sim >= mirror_.size())
            continue;
        const BufferWords now = readSimBuffer(field.sim(sums.sim));
        const std::vector<std::uint32_t> mine = tileCrcs(now, gridOf(now, net_.tileTexels));
        if (mine.size() != sums.crcs.size())
            return "net: the server's sim " + std::to_string(sums.sim) + " has " +
                   std::to_string(sums.crcs.size()) + " tiles, this client's " +
                   std::to_string(mine.size());
        TileRequest request{sums.sim, {}};
        for (std::size_t t = 0; t < mine.size(); ++t) {
            ++counts_.checkedTiles;
            if (mine[t] == sums.crcs[t])
                continue;
            ++counts_.divergentTiles;
            if (net_.mode == NetMode::Hybrid) {
                request.tiles.push_back(static_cast<std::uint32_t>(t));
                if (request.tiles.size() == kMaxTileRequest) {
                    requests_.push_back({step, request});
                    request.tiles.clear();
                }
            }
        }
        if (!request.tiles.empty())
            requests_.push_back({step, std::move(request)});
    }
    checksums_.clear();
    if (snapshot)
        joinedAt_ = step;
    applied_ = step;
    lab_.standAt(step * lab_.fixedDtS(), step);
    if (onStep)
        onStep();
    return std::nullopt;
}

std::vector<Message> Replica::takeRequests() {
    return std::exchange(requests_, {});
}

} // namespace snowcap::net
