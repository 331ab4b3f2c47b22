"""Cases derived from every table of the digest (section 6), row by row."""
import pytest

from pbem.core.data import load_data, provenance_counts
from pbem.rules.bismarck import tables as T
from pbem.rules.bismarck import movement as M


@pytest.mark.parametrize("diff,radar,vis,ev,fast,drm", [
    (2, 0, 3, False, False, -4), (1, 0, 3, False, False, -2), (0, 0, 3, False, False, 0),
    (-1, 0, 3, False, False, 1), (-2, 0, 3, False, False, None), (0, 2, 3, False, False, -2),
    (0, 1, 3, False, False, -1), (0, 0, 5, False, False, 1), (0, 0, 8, False, False, 3),
    (0, 0, 10, False, False, None), (0, 0, 3, True, False, 2), (0, 0, 3, False, True, 2)])
def test_shadow_table(diff, radar, vis, ev, fast, drm):
    assert T.shadow_drm(diff, radar, vis, ev, fast) == drm


@pytest.mark.parametrize("roll,weather,pts", [(0, 1, 5), (1, 1, 3), (2, 1, 2), (3, 1, 0), (0, 4, 3), (0, 7, 2),
                                              (1, 7, 0)])
def test_repair_table(roll, weather, pts):
    assert T.repair_result(roll, weather) == pts


@pytest.mark.parametrize("nat,drm,hits", [(0, 0, 3), (1, 0, 2), (2, 0, 2), (3, 0, 1), (5, 0, 1), (6, 0, 0),
                                          (9, 0, 0), (0, 6, 1), (0, 9, 1), (3, -3, 3)])
def test_hit_table(nat, drm, hits):
    assert T.hits(nat, drm) == hits


@pytest.mark.parametrize("band,roll,res", [
    ("extreme", 0, "X"), ("extreme", 1, "H"), ("extreme", 2, "B"), ("extreme", 3, "S"), ("extreme", 4, "C"),
    ("extreme", 5, "-"), ("long", 0, "HHE"), ("long", 1, "X"), ("long", 3, "H"), ("long", 4, "B"), ("long", 5, "S"),
    ("long", 6, "C"), ("long", 7, "-"), ("medium", 3, "HE"), ("medium", 4, "H"), ("medium", 5, "B"),
    ("medium", 6, "S"), ("medium", 7, "C"), ("medium", 8, "-"), ("short", 1, "HHE"), ("short", 3, "X"),
    ("short", 4, "HE"), ("short", 5, "H"), ("short", 6, "B"), ("short", 7, "S"), ("short", 8, "C"),
    ("short", 9, "-"), ("short", 12, "-"), ("medium", -3, "HHE")])
def test_naval_combat_table(band, roll, res):
    assert T.combat_result(band, roll) == res


@pytest.mark.parametrize("factors,band,n", [(5, "long", 3), (3, "short", 5), (4, "extreme", 2), (3, "medium", 3),
                                            (2, "short", 3), (1, "extreme", 1)])
def test_dice_count(factors, band, n):
    assert T.dice_count(factors, band) == n


@pytest.mark.parametrize("between,band", [(0, "short"), (1, "short"), (2, "medium"), (3, "medium"), (4, "long"),
                                          (6, "long"), (7, "extreme")])
def test_range_bands(between, band):
    assert T.range_band(between) == band


@pytest.mark.parametrize("er,mz", [(19, 1), (20, 2), (25, 2), (26, 3), (30, 3), (31, 4)])
def test_tactical_movement(er, mz):
    assert T.tactical_limit(er) == mz


@pytest.mark.parametrize("kw,drm", [
    ({"firer_cls": "CA", "target_cls": "BB"}, 1), ({"firer_cls": "CL", "target_cls": "CA"}, 1),
    ({"firer_cls": "DD", "target_cls": "BC"}, 3), ({"firer_cls": "CL", "target_cls": "BB"}, 5),
    ({"firer_cls": "BB", "target_cls": "BB", "vis": 5}, 1), ({"firer_cls": "BB", "target_cls": "BB", "vis": 8}, 3),
    ({"firer_cls": "BB", "target_cls": "BB", "fire_control": True}, 1),
    ({"firer_cls": "BB", "target_cls": "BB", "exhausted": True}, 1)])
def test_naval_drms(kw, drm):
    base = dict(radar=False, acquired=False, firer_pos="opening", target_pos="opening", fire_control=False, vis=3)
    base.update(kw)
    assert T.naval_drm(**base) == drm


@pytest.mark.parametrize("roll,classes", [(0, ("BB", "BC", "CV")), (2, ("BB", "BC", "CV")), (3, ("CL", "CA")),
                                          (5, ("CL", "CA")), (6, ("DD",)), (9, ("DD",))])
def test_submarine_class_table(roll, classes):
    assert T.sub_class(roll) == classes


@pytest.mark.parametrize("col,values", [("A", [7, 6, 4, 3, 2, 1]), ("B", [8, 7, 5, 3, 2, 1]), ("C", [5, 4, 3, 2, 1, 1]),
                                        ("D", [6, 5, 4, 3, 2, 1])])
def test_random_sighting_table(col, values):
    assert [T.sighting_value(col, v) for v in range(1, 7)] == values
    assert T.sighting_value(col, 7) == 0 and T.sighting_value(col, 10) == 0


@pytest.mark.parametrize("kw,drm", [({"tf": True, "central": False, "night": False}, -1),
                                    ({"tf": False, "central": True, "night": False}, -1),
                                    ({"tf": False, "central": False, "night": True}, 2),
                                    ({"tf": True, "central": True, "night": True}, 0)])
def test_convoy_hunting_drms(kw, drm):
    assert T.hunt_drm(**kw) == drm


@pytest.mark.parametrize("roll,line,name", [(0, "ew", "Britannic"), (0, "ns", "WS 88"), (1, "ew", "HX 127"),
                                            (1, "ns", "SL 74"), (2, "ew", "HX 128"), (3, "ew", "HX 126"),
                                            (4, "ew", "OB 324"), (5, "ew", "SC 31"), (6, "ew", "OB 325"),
                                            (7, "ew", "OB 326"), (8, "ew", "OB 323"), (9, "ns", "SL 75"),
                                            (9, "ew", None), (4, "ns", None)])
def test_convoy_identification_table(roll, line, name):
    c = T.convoy_for(roll, line)
    assert (c["name"] if c else None) == name


@pytest.mark.parametrize("speed,last,now,fp", [("F", 0, 2, 1), ("F", 1, 2, 1), ("F", 2, 2, 2), ("F", 2, 1, 0),
                                               ("F", 2, 0, 0), ("M", 1, 1, 1), ("M", 0, 1, 0), ("S", 1, 1, 0)])
def test_fuel_costs(speed, last, now, fp):
    assert M.fuel_cost(speed, last, now) == fp


@pytest.mark.parametrize("vis,drm", [(1, -2), (2, -1), (3, -1), (4, 0), (5, 0), (6, 2), (7, 2), (8, 2), (9, 3)])
def test_hit_visibility_drms(vis, drm):
    assert T.hit_drm(vis=vis, target_er=30, kind="torpedo", position="closing") == drm


def test_er_below_25_and_channel():
    assert T.hit_drm(vis=4, target_er=24, kind="air") == -1
    assert T.hit_drm(vis=9, target_er=24, kind="air") == 3  # vis 9 removes the ER modifier
    assert T.hit_drm(vis=4, target_er=30, kind="air", channel=True) == -3
    assert T.hit_drm(vis=4, target_er=30, kind="sub") == -1


def test_victory_end_values_and_abort():
    v = T.tables()["victory"]
    assert (v["at_sea_fit"], v["port_france"], v["port_norway"], v["turn_track"], v["emergency_fuel"]) == \
        (-4, -5, -7, -10, -15)
    assert T.tables()["abort"]["success_max"] == 3 and T.tables()["reinforcement"]["success_max"] == 4


@pytest.mark.parametrize("name", ["map.toml", "tables.toml", "units.toml", "scenarios.toml"])
def test_data_files_carry_provenance(name):
    counts = provenance_counts(load_data("rules.bismarck", f"data/{name}"))
    assert sum(counts.values()) > 0
