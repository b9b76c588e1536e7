// The physics cases of `snowcap bench` (docs/physics.md, section 6.1): one frame's step with
// Bullet in it, against the copy floor at one buffer size. A repetition is a 60 fps frame: the
// physics world's fixed steps up to the frame's time (two at 120 Hz), the bodies' poses into
// their deformers, the instances, then the capture and one sim's accumulate, as bench_crowd's
// step. Wall time (Bullet runs on the CPU), Bullet's own step timed apart from the rest.
//   no_bodies           the same step with nothing in it: what the bodies add is over this
//   100_bodies_resting  100 crates (the crates scenario's, 10 abreast) after 4 s: landed, most
//                       asleep
//   100_bodies_rolling  100 balls rolling at 1 m/s on the ground under the snow, its drag off
//                       so they keep rolling through the case
//   1_vehicle           the vehicle_tracks truck on its loop, at speed
#include "bench/bench_cases.hpp"
#include "bench/case_support.hpp"
#include "physics/physics_world.hpp"
#include "snow/deformer_batch.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace snowcap::bench {

namespace {

struct PhysicsScene {
    const char* variant;
    std::vector<std::string> keys; // after the size, the region and no deformers
    double warmS;                  // simulated before the case: landed, rolling, driving
    const char* what;
};

std::vector<PhysicsScene> physicsScenes() {
    return {
        {"no_bodies", {}, 0.0, "no bodies: the capture and the accumulate alone"},
        {"100_bodies_resting",
         {"body=[{name='crate', shape='box', size_cm=[25, 20, 20], mass_kg=12, restitution=0.1, "
          "friction=0.7, position_cm=[0, 0, 150], rotation_spread_deg=35, "
          "velocity_cm_s=[0, 0, -50], velocity_spread_cm_s=150, count=100, formation='grid', "
          "width=10, spacing_cm=75, seed=11}]"},
         4.0,
         "100 crates tipped from 1.5 m (the crates scenario's, 10 x 10), 4 s on: landed"},
        {"100_bodies_rolling",
         {"physics.snow_drag_per_cm=0",
          "body=[{name='ball', shape='sphere', size_cm=[10, 10, 10], mass_kg=1, "
          "restitution=0, position_cm=[-400, 0, -19], velocity_cm_s=[100, 0, 0], "
          "spin_deg_s=[0, 573, 0], count=100, formation='grid', width=10, spacing_cm=40}]"},
         1.0,
         "100 balls (10 cm radius) rolling at 1 m/s on the ground under the snow, no drag"},
        {"1_vehicle",
         {"vehicle=[{name='truck', chassis_size_cm=[200, 90, 40], mass_kg=1500, "
          "wheel_radius_cm=35, wheel_width_cm=25, track_cm=160, wheelbase_cm=250, "
          "speed_cm_s=400, lookahead_cm=300, max_steer_deg=40, laps=2, "
          "waypoints_cm=[[-100, -350, 0], [250, -350, 0], [425, -303, 0], [553, -175, 0], "
          "[600, 0, 0], [553, 175, 0], [425, 303, 0], [250, 350, 0], [-250, 350, 0], "
          "[-425, 303, 0], [-553, 175, 0], [-600, 0, 0], [-553, -175, 0], [-425, -303, 0], "
          "[-250, -350, 0]]}]"},
         2.0,
         "the vehicle_tracks truck on its loop at 4 m/s, 2 s on"},
    };
}

// Bullet's step time and count so far (PhysicsReport's mean times its steps).
std::pair<double, long long> bulletTotal(const PhysicsWorld* world) {
    if (!world)
        return {0.0, 0};
    const PhysicsReport report = world->report();
    return {report.stepMsMean * double(report.steps), report.steps};
}

} // namespace

std::optional<std::string> physicsCases(Context& context, int size) {
    Harness& h = context.harness;
    if (!h.wants("physics"))
        return std::nullopt;
    copyFloor(context, size);
    const std::string label = std::to_string(size);
    const long long texels = static_cast<long long>(size) * size;
    for (const PhysicsScene& scene : physicsScenes()) {
        if (!h.wants("physics", scene.variant))
            continue;
        std::vector<std::string> keys = {"snow.resolution=" + label, "snow.ortho_width_cm=2048",
                                         "deformer=[]"};
        keys.insert(keys.end(), scene.keys.begin(), scene.keys.end());
        auto made = scenarioSession(context, keys);
        if (auto* error = std::get_if<std::string>(&made))
            return *error;
        auto& [settings, session] = std::get<ScenarioSession>(made);
        SnowField& field = *session.field;
        PhysicsWorld* world = session.physics.get();
        const auto pose = [&] {
            if (!world)
                return;
            for (std::size_t i = 0; i < world->poseCount(); ++i)
                session.deformers.setBodyPose(session.firstPhysicsDeformer + i, world->poseOf(i));
        };
        double timeS = 0.0;
        if (world) {
            world->stepTo(timeS = scene.warmS);
            pose();
        }
        const auto [bulletMsBefore, stepsBefore] = bulletTotal(world);

        ContactCapture capture(simCaptureKey(settings, 0));
        DeformerBatch batch;
        std::vector<double> physicsMs;
        CaseSpec spec{"physics", scene.variant, label, label, texels};
        spec.wallClock = true; // Bullet's share is CPU time: GL queries would not see it
        Case& c = h.run(spec, [&] {
            timeS += kDt;
            const auto start = std::chrono::steady_clock::now();
            if (world) {
                world->stepTo(timeS);
                pose();
            }
            physicsMs.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
            batch.prepare(session.deformers.instancesAt(timeS));
            capture.capture(batch, *context.captureProgram);
            field.sim(0).step(capture, kDt);
        });
        std::sort(physicsMs.begin(), physicsMs.end());
        const auto [bulletMsAfter, stepsAfter] = bulletTotal(world);
        const long long steps = stepsAfter - stepsBefore;
        c.note = scene.what;
        c.extra["per"] = "one 60 fps frame: the physics steps, poses, capture and one accumulate";
        c.extra["bodies"] = world ? world->bodyCount() : 0;
        c.extra["vehicles"] = world ? world->vehicleCount() : 0;
        c.extra["physics_steps"] = steps; // the harness's warm-up and measured frames
        c.extra["bullet_ms_per_step"] = steps > 0 ? (bulletMsAfter - bulletMsBefore) / steps : 0.0;
        c.extra["physics_ms_per_frame"] = physicsMs.empty() ? 0.0 : physicsMs[physicsMs.size() / 2];
        c.extra["resting_bodies_at_end"] = world ? world->report().restingBodies : 0;
        c.extra["simulated_s"] = timeS;
        if (const Case* floor = h.find("copy", "r16f", label); floor && floor->medianMs > 0)
            c.extra["physics_x_copy"] =
                c.extra["physics_ms_per_frame"].get<double>() / floor->medianMs;
    }
    // What the bodies add to the step: each scene over the same step without them, in copies.
    const Case* bare = h.find("physics", "no_bodies", label);
    const Case* floor = h.find("copy", "r16f", label);
    if (bare && floor && floor->medianMs > 0)
        for (Case& c : h.cases())
            if (c.pass == "physics" && c.size == label && c.variant != "no_bodies")
                c.extra["added_x_copy"] = (c.medianMs - bare->medianMs) / floor->medianMs;
    return std::nullopt;
}

} // namespace snowcap::bench
