// The parameter table, part 4: [physics], [[body]] and [[vehicle]] (docs/physics.md). One row
// per key: {key, member, default, range, unit, widget, doc}. The rules between a vehicle's keys
// are in core/vehicle_rules.cpp.
#include "core/config_scene.hpp"
#include "core/params.hpp"
#include "core/params_table_rows.hpp"

namespace snowcap::params {

using enum Widget;
using config_read::kBodyShapes;
using config_read::kContactTypes;
using config_read::kFormations;

const Section<PhysicsSettings>& physicsParams() {
    using P = PhysicsSettings;
    static const Section<P> section{
        "physics",
        "The physics world (docs/physics.md): Bullet steps every [[body]] at a fixed rate on the "
        "sim clock, as many steps as each frame needs. The bodies stand on the ground under the "
        "snow (a plane at surface_z_cm - depth_cm), or on a snowpack sim's bearing surface "
        "(support_sim), and the snow drags on them as they move through it.",
        {
            {"step_hz", &P::stepHz, 120, integerBetween(10, 10000), "1/s", None,
             "Fixed physics steps per simulated second; a frame runs the steps its time "
             "reaches (2 per frame at 60 fps, 0 or 1 at 144)."},
            {"gravity_cm_s2", &P::gravityCmS2, 980.665, between(0.0, 10000.0), "cm/s^2", Drag,
             "Downwards (-Z); standard gravity by default."},
            {"snow_drag_per_cm", &P::snowDragPerCm, 0.2, between(0.0, 100.0), "1/(s cm)", Slider,
             "The snow's drag: a body's velocity and spin relax at this rate per cm of its depth "
             "in the snow (lowest point below surface_z_cm, at most depth_cm). A lab choice: 0.2 "
             "stops a ball skidding 10 cm deep at 5 m/s within about 2.5 m (docs/physics.md)."},
            {"support_sim", &P::supportSim, "", anyNumber(), "", None,
             "What holds the bodies and vehicles up: \"\" (the default) the first snowpack sim "
             "if there is one, else the ground under the snow; \"ground\" the ground plane "
             "whatever the sims; or a sim's letter (\"a\" .. \"h\"). A snowpack sim holds them "
             "on its bearing surface, a heightfield of its state (docs/physics.md); a decay sim "
             "on the ground."},
        }};
    return section;
}

const Section<BodySettings>& bodyParams() {
    using B = BodySettings;
    constexpr auto required = Presence::Required;
    static const Section<B> section{
        "body",
        "A rigid body moved by the physics world (docs/physics.md), pressing the snow as a "
        "deformer: captured, instanced and shadowed like one. count > 1 makes NAME.0, NAME.1, "
        "... in a crowd's formation about position_cm (forward along the horizontal velocity, "
        "else +X). A list of tables in a scenario, none by default. A body may not start inside "
        "another or below the ground.",
        {
            {"name", &B::name, kUnset, anyNumber(), "", None,
             "Required and unique among the bodies (and not a deformer's).", required},
            {"shape", choice(&B::shape, kBodyShapes), "sphere", anyNumber(), "", None,
             "\"sphere\", \"box\" or \"capsule\" (Bullet's own shapes), or \"mesh\": the "
             "convex hull of the vertices of the file `mesh` names."},
            {"size_cm", &B::sizeCm, xyz(15.0, 15.0, 15.0), aboveUpTo(0.0, 10000.0), "cm", None,
             "Sphere radius = x; box half extents; capsule radius = x, half length = y (along X). "
             "A mesh body's size is its file's."},
            {"mesh", &B::mesh, "", anyNumber(), "", None,
             "With shape = \"mesh\" (and only then): a file Assimp reads (beside the file "
             "that names it, else in the repository, or absolute), imported as a deformer's mesh "
             "is. The body collides "
             "as the convex hull of its vertices, with its centre of mass at the hull's centroid, "
             "and is drawn as the mesh; a mesh with no volume is refused."},
            {"mass_kg", &B::massKg, 1.0, aboveUpTo(0.0, 10000.0), "kg", None, "Its mass."},
            {"position_cm", &B::positionCm, xyz(0.0, 0.0, 50.0), anyNumber(), "cm", None,
             "World position of its centre at t = 0 (of the formation's centre with count > 1)."},
            {"rotation_deg", &B::rotationDeg, xyz(0.0, 0.0, 0.0), anyNumber(), "deg", None,
             "Euler X Y Z at t = 0, as a deformer's rotation_deg."},
            {"velocity_cm_s", &B::velocityCmS, xyz(0.0, 0.0, 0.0), between(-10000.0, 10000.0),
             "cm/s", None, "Velocity at t = 0."},
            {"spin_deg_s", &B::spinDegS, xyz(0.0, 0.0, 0.0), between(-10000.0, 10000.0), "deg/s",
             None, "Angular velocity at t = 0, about the world axes."},
            {"restitution", &B::restitution, 0.2, between(0.0, 1.0), "", None,
             "The share of its speed a bounce keeps (the ground takes it as it is)."},
            {"friction", &B::friction, 0.5, between(0.0, 10.0), "", None,
             "Coulomb friction coefficient (the ground takes it as it is; two bodies multiply "
             "theirs)."},
            {"count", &B::count, 1, integerBetween(1, 100000), "", None, "How many bodies."},
            {"formation", choice(&B::formation, kFormations), "grid", anyNumber(), "", None,
             "With count > 1: \"column\", \"grid\" or \"scatter\", as a crowd's."},
            {"spacing_cm", &B::spacingCm, 60.0, aboveUpTo(0.0, 10000.0), "cm", None,
             "Distance between neighbours in the formation."},
            {"width", &B::width, 4, integerBetween(1, 1000), "", None,
             "Members abreast in a column's row."},
            {"seed", &B::seed, 1, integerBetween(0, 2147483647), "", None,
             "The scatter and the spreads: the same seed, the same bodies."},
            {"rotation_spread_deg", &B::rotationSpreadDeg, 0.0, between(0.0, 180.0), "deg", None,
             "Each member's Euler angles differ from rotation_deg by up to this."},
            {"velocity_spread_cm_s", &B::velocitySpreadCmS, 0.0, between(0.0, 10000.0), "cm/s",
             None, "Each member's velocity components differ from velocity_cm_s by up to this."},
            {"contact", choice(&B::contact, kContactTypes), "other", anyNumber(), "", None,
             "What kind of print it leaves (rgba16f's B channel)."},
            {"launch_s", &B::launchS, 0.0, between(0.0, 1e7), "s", None,
             "It enters the world at the first physics step starting at or after this time, at "
             "its position and with its velocity (before it: neither drawn nor pressing). The "
             "viewer's throw writes one."},
        },
        true};
    return section;
}

const Section<VehicleSettings>& vehicleParams() {
    using V = VehicleSettings;
    constexpr auto required = Presence::Required;
    static const Section<V> section{
        "vehicle",
        "A vehicle (docs/physics.md): Bullet's raycast vehicle, a box chassis on four wheels "
        "whose suspensions are rays, driving its waypoints at speed_cm_s with a pure pursuit "
        "steering controller. The chassis (NAME) and each wheel (NAME.wheel_fl, _fr, _rl, _rr) "
        "press the snow as deformers. It starts at the first waypoint, facing the second, its "
        "wheels on what holds it up. A list of tables in a scenario, none by default. Its wheels "
        "may not be larger than its chassis or overlap each other.",
        {
            {"name", &V::name, kUnset, anyNumber(), "", None,
             "Required and unique among the vehicles (and not a deformer's or a body's).",
             required},
            {"chassis_mesh", &V::chassisMesh, "", anyNumber(), "", None,
             "A file Assimp reads, drawn and captured as the chassis instead of the box: scaled "
             "to fit inside chassis_size_cm and centred on it (the box is what collides)."},
            {"chassis_size_cm", &V::chassisSizeCm, xyz(200.0, 90.0, 40.0), aboveUpTo(0.0, 5000.0),
             "cm", None, "Half extents of the chassis box: x forward, y to the left, z up."},
            {"mass_kg", &V::massKg, 1500.0, aboveUpTo(0.0, 100000.0), "kg", None,
             "The whole vehicle's mass, carried by the chassis."},
            {"wheel_radius_cm", &V::wheelRadiusCm, 35.0, aboveUpTo(0.0, 500.0), "cm", None,
             "Each wheel's radius; its diameter at most the chassis' length."},
            {"wheel_width_cm", &V::wheelWidthCm, 25.0, aboveUpTo(0.0, 500.0), "cm", None,
             "Each wheel's width: its track in the snow."},
            {"track_cm", &V::trackCm, 160.0, aboveUpTo(0.0, 2000.0), "cm", None,
             "Between the left and the right wheels' centre planes; more than wheel_width_cm."},
            {"wheelbase_cm", &V::wheelbaseCm, 250.0, aboveUpTo(0.0, 5000.0), "cm", None,
             "Between the front and the rear axles; at least a wheel's diameter."},
            {"suspension_rest_cm", &V::suspensionRestCm, 40.0, aboveUpTo(0.0, 500.0), "cm", None,
             "Suspension length unloaded, from the hub's mount on the chassis' bottom face (the "
             "defaults ride the chassis 69 cm above what holds it up, clear of 30 cm of snow)."},
            {"suspension_travel_cm", &V::suspensionTravelCm, 20.0, aboveUpTo(0.0, 500.0), "cm",
             None, "How far the suspension may compress or extend from its rest length."},
            {"suspension_stiffness", &V::suspensionStiffness, 40.0, aboveUpTo(0.0, 10000.0),
             "1/s^2", None,
             "Spring force per kg of chassis per m of compression (Bullet's units): each wheel "
             "sinks by g / (4 x this) m under the vehicle's weight, 6 cm at 40."},
            {"damping_compression", &V::dampingCompression, 3.8, between(0.0, 1000.0), "1/s", None,
             "Damping while the spring compresses, per kg of chassis per m/s. The chassis' bounce "
             "on four springs is critically damped at sqrt(suspension_stiffness): the default "
             "is 0.6 of that at the default stiffness."},
            {"damping_relaxation", &V::dampingRelaxation, 6.3, between(0.0, 1000.0), "1/s", None,
             "Damping while it extends (the default: critical at the default stiffness)."},
            {"wheel_friction", &V::wheelFriction, 1.0, aboveUpTo(0.0, 100.0), "", None,
             "The tyres' friction coefficient (Bullet's friction slip): the most grip a wheel has "
             "is this times its load."},
            {"waypoints_cm", waypointList<VehicleSettings>(), kUnset, anyNumber(), "cm", None,
             "The path, at least two points; z is not used (the vehicle drives on what holds "
             "it up).",
             required},
            {"speed_cm_s", &V::speedCmS, 300.0, aboveUpTo(0.0, 5000.0), "cm/s", None,
             "The speed it holds along the path (slowing to stop at its end)."},
            {"laps", &V::laps, 0, integerBetween(0, 1000), "", None,
             "0: from the first waypoint to the last, once; N: the path closed (the last back to "
             "the first), driven N times round, stopping at the first."},
            {"lookahead_cm", &V::lookaheadCm, 300.0, aboveUpTo(0.0, 10000.0), "cm", None,
             "Pure pursuit's lookahead: it steers for the path's point this far ahead. Shorter "
             "follows tighter and weaves sooner."},
            {"max_steer_deg", &V::maxSteerDeg, 35.0, aboveUpTo(0.0, 80.0), "deg", None,
             "The most the front wheels turn."},
            {"contact", choice(&V::contact, kContactTypes), "vehicle", anyNumber(), "", None,
             "What kind of print it leaves (rgba16f's B channel)."},
            {"player", &V::player, false, anyNumber(), "", None,
             "Driven with WASD in the viewer instead of its waypoints (W/S: speed_cm_s forward "
             "or back, A/D: steer to max_steer_deg); one player at most, deformers included. "
             "Elsewhere it stands still."},
        },
        true};
    return section;
}

} // namespace snowcap::params
