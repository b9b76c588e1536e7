// The World panel (sim.X.persistence = "world", docs/world.md): a map of each world store's
// tiles coloured by their value now or by how long no window has touched them, the windows and
// the player on it, the store's bytes against snow.world_store_mib, what was paged in and out
// and evicted; Save world / Load world; the player's teleport and its run modifier.
#include "io/image.hpp"
#include "lab/world_io.hpp"
#include "snow/world_pager.hpp"
#include "viewer/viewer_panels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <imgui.h>
#include <spdlog/spdlog.h>
#include <unordered_map>

namespace snowcap {

namespace {

// The map's side at most, in pixels; the map shows at most this many tiles a side.
constexpr int kMapPixels = 256;
// The map is rebuilt every this many frames (it decodes the tiles in view).
constexpr int kRebuildFrames = 15;

int floorDiv(int a, int b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

} // namespace

struct WorldPanelState {
    int sim = -1; // the sim whose store the map shows (-1: the first with one)
    bool byAge = false;
    std::string path = "out/viewer.world";
    float teleportCm[2] = {0.0f, 0.0f};
    gpu::Texture2D map;
    int framesToRebuild = 0;
    // What the last map covers: tiles [loTile, loTile + extent)², pixelsPerTile a tile.
    glm::ivec2 loTile{0};
    int extent = 1, pixelsPerTile = 1, tileTexels = 16;
    long long hiddenTiles = 0; // stored but outside the map
    long long oldestSteps = 0; // the age mode's scale
};

namespace {

// The windows of a sim on the world grid (world texels), one per observer.
std::vector<TexelRect> windowsOf(const SnowField& field, int simIndex) {
    // Every observer's window (snow.follow, docs/world.md section 6), window 0 first.
    const WorldPager* pager = field.world(simIndex);
    std::vector<TexelRect> rects;
    for (const ObserverWindow& w : field.windows(simIndex))
        rects.push_back({pager->windowCorner(w.centreCm), {w.resolution, w.resolution}});
    return rects;
}

// The map picture: every stored tile in view, pixelsPerTile² blocks a tile, each block the
// largest value it holds now (value) or the whole tile by its age; darker grey where a tile is
// stored but the block is 0, darkest where nothing is stored.
void buildMap(WorldPanelState& ps, const WorldPager& pager, const std::vector<TexelRect>& windows) {
    const WorldStore& store = pager.store();
    const int t = store.tileTexels();
    glm::ivec2 lo{0}, hi{0};
    bool any = false;
    auto extend = [&](glm::ivec2 a, glm::ivec2 b) {
        lo = any ? glm::min(lo, a) : a;
        hi = any ? glm::max(hi, b) : b;
        any = true;
    };
    for (const TexelRect& w : windows)
        extend({floorDiv(w.origin.x, t), floorDiv(w.origin.y, t)},
               {floorDiv(w.origin.x + w.size.x - 1, t), floorDiv(w.origin.y + w.size.y - 1, t)});
    for (const auto& [key, tile] : store.tiles())
        extend({key.first, key.second}, {key.first, key.second});
    lo -= 1, hi += 1; // a tile of margin
    int extent = std::max(hi.x - lo.x, hi.y - lo.y) + 1;
    if (extent > kMapPixels) { // too far to show all: the map centres on the first window
        const glm::ivec2 centre{floorDiv(windows[0].origin.x + windows[0].size.x / 2, t),
                                floorDiv(windows[0].origin.y + windows[0].size.y / 2, t)};
        extent = kMapPixels;
        lo = centre - extent / 2;
    } else {
        lo -= (extent - (hi - lo + 1)) / 2; // square, the content in the middle
    }
    int p = 1;
    while (p * 2 * extent <= kMapPixels && p * 2 <= std::min(8, t))
        p *= 2;
    ps.loTile = lo, ps.extent = extent, ps.pixelsPerTile = p, ps.tileTexels = t;

    const int side = extent * p, block = t / p;
    std::vector<glm::u8vec4> pixels(static_cast<std::size_t>(side) * side, {18, 20, 26, 255});
    const long long now = pager.log().steps();
    ps.hiddenTiles = 0;
    ps.oldestSteps = 1;
    for (const auto& [key, tile] : store.tiles())
        ps.oldestSteps = std::max(ps.oldestSteps, now - tile.lastSeen);
    for (const auto& [key, tile] : store.tiles()) {
        const glm::ivec2 at = glm::ivec2(key.first, key.second) - lo;
        if (at.x < 0 || at.y < 0 || at.x >= extent || at.y >= extent) {
            ++ps.hiddenTiles;
            continue;
        }
        // Image rows run top down: the tile row at the top is the highest y.
        auto put = [&](int bx, int by, glm::u8vec4 colour) {
            const int x = at.x * p + bx, y = (extent - 1 - at.y) * p + (p - 1 - by);
            pixels[static_cast<std::size_t>(y) * side + x] = colour;
        };
        if (ps.byAge) {
            const float fresh = 1.0f - float(now - tile.lastSeen) / float(ps.oldestSteps);
            for (int by = 0; by < p; ++by)
                for (int bx = 0; bx < p; ++bx)
                    put(bx, by, colourMap(ColourMap::Inferno, 0.2f + 0.8f * fresh));
            continue;
        }
        const std::vector<std::uint16_t> bits = store.tileBits(tile);
        std::unordered_map<std::uint16_t, std::uint16_t> aged; // a tile has few values
        for (int by = 0; by < p; ++by)
            for (int bx = 0; bx < p; ++bx) {
                std::uint16_t top = 0; // half bits order as their values (all >= 0)
                for (int y = by * block; y < (by + 1) * block; ++y)
                    for (int x = bx * block; x < (bx + 1) * block; ++x)
                        top = std::max(top, bits[static_cast<std::size_t>(y) * t + x]);
                if (top != 0) {
                    auto [it, inserted] = aged.try_emplace(top, 0);
                    if (inserted)
                        it->second = pager.log().ageBits(top, tile.stamp);
                    top = it->second;
                }
                const float v = halfBitsToFloat(top);
                put(bx, by,
                    v > 0.0f ? colourMap(ColourMap::Inferno, 0.25f + 0.75f * v)
                             : glm::u8vec4(44, 48, 60, 255));
            }
    }
    if (ps.map.width() != side) {
        ps.map = gpu::Texture2D(side, side, gpu::TextureFormat::RGBA8, "viewer.world_map");
        glTextureParameteri(ps.map.id(), GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTextureParameteri(ps.map.id(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage2D(ps.map.id(), 0, 0, 0, side, side, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

// The map with the windows (sim colour outlines) and the player (a white dot) over it.
void drawMap(const WorldPanelState& ps, const WorldPager& pager,
             const std::vector<TexelRect>& windows, std::optional<glm::vec3> playerCm) {
    const float size = std::min(ImGui::GetContentRegionAvail().x, 240.0f);
    const ImVec2 corner = ImGui::GetCursorScreenPos();
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(ps.map.id())),
                 {size, size});
    const int t = ps.tileTexels;
    const float perTexel = size / float(ps.extent * t);
    auto screen = [&](glm::dvec2 texel) {
        return ImVec2(corner.x + float(texel.x - double(ps.loTile.x) * t) * perTexel,
                      corner.y + float(double(ps.loTile.y + ps.extent) * t - texel.y) * perTexel);
    };
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(corner, {corner.x + size, corner.y + size}, true);
    for (const TexelRect& w : windows) {
        const ImVec2 a = screen(glm::dvec2(w.origin.x, w.origin.y + w.size.y));
        const ImVec2 b = screen(glm::dvec2(w.origin.x + w.size.x, w.origin.y));
        draw->AddRect(a, b, IM_COL32(90, 200, 255, 255), 0.0f, 0, 2.0f);
    }
    if (playerCm) {
        const Region& grid = pager.configured();
        const glm::dvec2 texel =
            (glm::dvec2(playerCm->x, playerCm->y) - grid.centreCm) / grid.texelCm();
        draw->AddCircleFilled(screen(texel), 3.0f, IM_COL32(255, 255, 255, 255));
    }
    draw->PopClipRect();
}

std::string mib(double bytes) {
    return bytes < 1 << 20 ? fmt::format("{:.0f} KiB", bytes / 1024.0)
                           : fmt::format("{:.1f} MiB", bytes / double(1 << 20));
}

void storeFigures(const WorldPager& pager) {
    const WorldStoreStats& s = pager.store().stats();
    const double cap = double(pager.store().capBytes());
    ImGui::ProgressBar(float(double(s.storeBytes) / cap), {-1.0f, 0.0f},
                       fmt::format("{} of {} (peak {})", mib(double(s.storeBytes)), mib(cap),
                                   mib(double(s.storeBytesPeak)))
                           .c_str());
    ImGui::Text("%lld tiles of %d² (%lld packed, %s)", s.tiles, pager.store().tileTexels(),
                s.packedTiles, std::string(toString(pager.store().compression())).c_str());
    ImGui::Text("paged out %lld   in %lld   evicted %lld   healed %lld", s.pagedOut, s.pagedIn,
                s.evictedTiles, s.healedTiles);
    const WorldPagingCost& c = pager.cost();
    ImGui::TextDisabled("readbacks %lld (%lld waited)  out %.2f s  in %.2f s  land %.2f s",
                        c.readbacks, c.readbacksWaited, c.pageOutS, c.pageInS, c.completeS);
}

// World persistence is off: why, and a button that turns it on where it can be.
void howToTurnOn(PanelContext& context) {
    ImGui::TextWrapped("World persistence is off: every following window forgets the texels it "
                       "scrolls past. It needs, per sim, persistence = \"world\" with region = "
                       "\"follow_snapped\" and format = \"r16f\" (Sims panel, or --set "
                       "sim.b.persistence=world --set sim.b.region=follow_snapped).");
    Settings edited = context.lab.settings();
    int changed = 0;
    for (SimSettings& sim : edited.sims)
        if (sim.format == BufferFormat::R16F) {
            changed +=
                sim.persistence != Persistence::World || sim.region != RegionMode::FollowSnapped;
            sim.persistence = Persistence::World;
            sim.region = RegionMode::FollowSnapped;
        }
    ImGui::BeginDisabled(changed == 0);
    if (ImGui::Button("turn on for every r16f sim")) {
        if (auto error = context.lab.apply(edited))
            context.state.status = *error;
        else
            context.state.status = "world persistence on (follow_snapped) for every r16f sim";
        spdlog::info("{}", context.state.status);
    }
    ImGui::EndDisabled();
}

void fileButtons(PanelContext& context, WorldPanelState& ps) {
    char buffer[512];
    std::snprintf(buffer, sizeof(buffer), "%s", ps.path.c_str());
    ImGui::SetNextItemWidth(-110.0f);
    ImGui::InputText("##world_path", buffer, sizeof(buffer));
    ps.path = buffer;
    ImGui::SameLine();
    const bool save = ImGui::Button("Save");
    ImGui::SameLine();
    const bool load = ImGui::Button("Load");
    if (!save && !load)
        return;
    SnowField& field = context.lab.field();
    if (save) { // out/ may not exist yet (a failure here shows as the write's own error)
        std::error_code ignored;
        std::filesystem::create_directories(std::filesystem::path(ps.path).parent_path(), ignored);
    }
    std::optional<std::string> error = save ? saveWorld(field, ps.path) : loadWorld(field, ps.path);
    if (error) {
        context.state.status = *error; // the file and the reason; nothing was loaded
        spdlog::warn("{}", *error);
    } else {
        long long tiles = 0;
        for (int i = 0; i < field.simCount(); ++i)
            if (const WorldPager* pager = field.world(i))
                tiles += pager->store().stats().tiles;
        context.state.status = fmt::format("{} world {} ({} tiles in the stores now)",
                                           save ? "saved" : "loaded", ps.path, tiles);
        spdlog::info("{}", context.state.status);
    }
    ps.framesToRebuild = 0;
}

void playerControls(PanelContext& context, WorldPanelState& ps) {
    Lab& lab = context.lab;
    if (!lab.hasPlayer()) {
        ImGui::TextDisabled("no player: Scene panel > a deformer > player (WASD)");
        return;
    }
    const glm::vec3 at = lab.followedPositionCm().value_or(glm::vec3(0.0f));
    ImGui::Text("player at (%.0f, %.0f) cm   WASD walks, Shift runs (x%.0f)", at.x, at.y,
                kPlayerRunFactor);
    ImGui::SetNextItemWidth(200.0f);
    ImGui::InputFloat2("x, y cm", ps.teleportCm, "%.0f");
    ImGui::SameLine();
    if (ImGui::Button("teleport")) {
        lab.teleportPlayer({ps.teleportCm[0], ps.teleportCm[1]});
        const glm::vec3 now = lab.followedPositionCm().value_or(glm::vec3(0.0f));
        context.state.status =
            fmt::format("player teleported to ({:.0f}, {:.0f}) cm", now.x, now.y);
        spdlog::info("{}", context.state.status);
    }
}

} // namespace

void worldPanel(PanelContext& context) {
    if (!context.state.worldPanel)
        context.state.worldPanel = std::make_shared<WorldPanelState>();
    WorldPanelState& ps = *context.state.worldPanel;
    SnowField& field = context.lab.field();
    std::vector<int> worlds;
    for (int i = 0; i < field.simCount(); ++i)
        if (field.world(i))
            worlds.push_back(i);
    playerControls(context, ps);
    ImGui::Separator();
    if (worlds.empty()) {
        howToTurnOn(context);
        return;
    }
    if (std::find(worlds.begin(), worlds.end(), ps.sim) == worlds.end())
        ps.sim = worlds.front();
    for (int i : worlds) {
        ImGui::SameLine();
        if (ImGui::RadioButton(fmt::format("sim {}", simName(i)).c_str(), ps.sim == i)) {
            ps.sim = i;
            ps.framesToRebuild = 0;
        }
    }
    ImGui::SameLine();
    if (ImGui::Checkbox("by age", &ps.byAge))
        ps.framesToRebuild = 0;
    const WorldPager& pager = *field.world(ps.sim);
    const std::vector<TexelRect> windows = windowsOf(field, ps.sim);
    if (ps.framesToRebuild-- <= 0) {
        buildMap(ps, pager, windows);
        ps.framesToRebuild = kRebuildFrames;
    }
    drawMap(ps, pager, windows, context.lab.followedPositionCm());
    const double tileM = ps.tileTexels * pager.configured().texelCm() / 100.0;
    ImGui::TextDisabled(
        "%d x %d tiles of %.2f m; %s%s", ps.extent, ps.extent, tileM,
        ps.byAge ? "bright: seen lately" : "colour: largest value now",
        ps.hiddenTiles ? fmt::format("; {} tiles off the map", ps.hiddenTiles).c_str() : "");
    storeFigures(pager);
    ImGui::Separator();
    fileButtons(context, ps);
}

} // namespace snowcap
