#!/usr/bin/env python3
"""Writes the measured.csv and scenario.toml of the two Col de Porte cases under validation/.

The data are the 2005-2006 season of the Col de Porte site (1325 m, Chartreuse, France) as the
Factorial Snow Model distributes them (github.com/RichardEssery/FSM, data/, MIT licence):
  met_CdP_0506.txt  hourly: year month day hour SW LW Sf Rf Ta RH Ua Ps
                    (SW, LW in W/m2; Sf, Rf in kg/m2/s; Ta in K)
  obs_CdP_0506.txt  daily:  year month day albedo runoff HS SWE Tsurf Tsoil
                    (HS in m, SWE in kg/m2; -99 missing)
The site's dataset is described in "57 years (1960-2017) of snow and meteorological observations
from a mid-altitude mountain site (Col de Porte, France, 1325 m of altitude)".

Usage: make_cases.py MET OBS VALIDATION_DIR
The sky is given hour by hour as [[weather.key]] entries with weather.time_scale = 3600 (an hour
of weather a second of the run), so the key of hour h stands at at_s = h."""

import sys
from datetime import datetime, timedelta
from pathlib import Path

SNOWFALL_DENSITY = 100.0  # the lab's default snowfall density (kg/m3)


def read_rows(path):
    rows = []
    for line in Path(path).read_text().splitlines():
        if line.strip():
            rows.append([float(v) for v in line.split()])
    return rows


def hourly_sky(met, start, hours):
    """(hour, air C, sun W/m2, snowfall cm/h, rain kg/m2) from `start` for `hours` hours."""
    by_time = {datetime(int(r[0]), int(r[1]), int(r[2]), int(r[3])): r for r in met}
    out = []
    for h in range(hours + 1):
        r = by_time[start + timedelta(hours=h)]
        snowfall_kg_m2_h = r[6] * 3600.0
        out.append((h, r[8] - 273.15, max(r[4], 0.0),
                    snowfall_kg_m2_h / (0.01 * SNOWFALL_DENSITY), r[7] * 3600.0))
    return out


def daily(obs, first, last):
    out = []
    for r in obs:
        day = datetime(int(r[0]), int(r[1]), int(r[2]))
        if first <= day <= last:
            out.append((day, r[3], r[5], r[6]))  # albedo, HS, SWE
    return out


def write_scenario(path, comment, depth_cm, density, sky, extra_snowpack=""):
    lines = [f"# {line}" if line else "#" for line in comment]
    lines += ["[sim.a]", 'model = "snowpack"', "", "[sim.a.snowpack]",
              f"depth_cm = {depth_cm:.1f}", f"density_kg_m3 = {density:.1f}"]
    lines += [l for l in extra_snowpack.splitlines() if l]
    h0, t0, s0, f0, _ = sky[0]
    lines += ["", "[weather]", "time_scale = 3600",
              f"snowfall_density_kg_m3 = {SNOWFALL_DENSITY:.0f}",
              f"air_temp_c = {t0:.2f}", f"sun = {s0:.1f}", f"snowfall_cm_h = {f0:.3f}"]
    for h, t, s, f, _ in sky[1:]:
        lines += ["", "[[weather.key]]", f"at_s = {h}", f"air_temp_c = {t:.2f}",
                  f"sun = {s:.1f}", f"snowfall_cm_h = {f:.3f}"]
    Path(path).write_text("\n".join(lines) + "\n")


def settlement(met, obs, folder):
    # Cold days after the snowfall of 1-2 January 2006, none of it before the 16th.
    first, last = datetime(2006, 1, 3), datetime(2006, 1, 16)
    days = daily(obs, first, last)
    start = first + timedelta(hours=12)  # the daily values stand at noon
    sky = hourly_sky(met, start, int((last - first).days * 24))
    _, _, hs0, swe0 = days[0]
    folder.mkdir(parents=True, exist_ok=True)
    csv = ["# Col de Porte, 3-16 January 2006: the daily snow depth (HS, m; ultrasonic gauge)",
           "# after the snowfall of 1-2 January, read from the FSM distribution's obs_CdP_0506.txt.",
           "# day: days after noon of 3 January (the run's start, where HS and SWE set the",
           "# column). uncertainty_m: the site's stated root mean square deviation of snow",
           "# depth, 0.10 m (mostly its spread over the measuring field).",
           "day,hs_m,swe_kg_m2,uncertainty_m"]
    for day, _, hs, swe in days[1:]:
        csv.append(f"{(day - first).days},{hs:.2f},{swe:.0f},0.10")
    (folder / "measured.csv").write_text("\n".join(csv) + "\n")
    write_scenario(folder / "scenario.toml",
                   ["Col de Porte from noon of 3 January 2006: the measured column (HS "
                    f"{hs0:.2f} m, SWE {swe0:.0f} kg/m2)",
                    "under the measured hourly air temperature, global shortwave irradiance "
                    "and snowfall", "(tools/col_de_porte/make_cases.py writes this file)."],
                   hs0 * 100.0, swe0 / hs0, sky)
    return days


def melt(met, obs, folder):
    # The spring melt-out: from 20 March 2006 until the gauge read no snow (28 April).
    first, last = datetime(2006, 3, 20), datetime(2006, 4, 28)
    days = daily(obs, first, last)
    start = first + timedelta(hours=12)
    sky = hourly_sky(met, start, int((last - first).days * 24))
    _, _, hs0, swe0 = days[0]
    albedos = [a for _, a, _, _ in days if a > 0]
    albedo = sum(albedos) / len(albedos)
    rain = sum(s[4] for s in sky)
    folder.mkdir(parents=True, exist_ok=True)
    csv = ["# Col de Porte, 20 March - 28 April 2006: the daily snow water equivalent (SWE,",
           "# kg/m2 = mm w.e.; cosmic-ray gauge) and depth (HS, m) of the melt-out, read from the",
           "# FSM distribution's obs_CdP_0506.txt. day: days after noon of 20 March (the run's",
           "# start). uncertainty_kg_m2: the site's stated root mean square deviation of SWE,",
           f"# 25 kg/m2. Rain over the period (which the model has no law for): {rain:.0f} kg/m2.",
           f"# Mean measured albedo over the period: {albedo:.3f} (the scenario's albedo).",
           "day,swe_kg_m2,hs_m,uncertainty_kg_m2"]
    for day, _, hs, swe in days[1:]:
        if swe < 0:
            continue
        csv.append(f"{(day - first).days},{swe:.0f},{hs:.2f},25")
    (folder / "measured.csv").write_text("\n".join(csv) + "\n")
    write_scenario(folder / "scenario.toml",
                   ["Col de Porte from noon of 20 March 2006: the measured column (HS "
                    f"{hs0:.2f} m, SWE {swe0:.0f} kg/m2)",
                    "under the measured hourly air temperature, global shortwave irradiance "
                    "and snowfall;", f"albedo: the period's mean measured albedo ({albedo:.3f}) "
                    "(tools/col_de_porte/make_cases.py writes this file)."],
                   hs0 * 100.0, swe0 / hs0, sky, f"albedo = {albedo:.3f}")
    return days, rain, albedo


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    met, obs, root = read_rows(sys.argv[1]), read_rows(sys.argv[2]), Path(sys.argv[3])
    settlement(met, obs, root / "settlement_col_de_porte")
    _, rain, albedo = melt(met, obs, root / "melt_col_de_porte")
    print(f"melt: rain {rain:.1f} kg/m2, albedo {albedo:.3f}")


if __name__ == "__main__":
    main()
