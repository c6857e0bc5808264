"""Sweep specs: reading, checking and expanding into points and runs (nothing runs here)."""

import pytest

import lossy
from lossy.sweep.spec import load_spec, run_id, scenario_hash

from conftest import ROOT, SCENARIOS

ONE_HOP = str(SCENARIOS / "one-hop.toml")


def spec(**fields):
    return {"name": "t", "scenario": ONE_HOP, **fields}


def error(doc):
    with pytest.raises(lossy.ScenarioError) as e:
        load_spec(doc)
    return str(e.value)


def test_grid_zip_variants_replications_counts():
    s = load_spec(spec(
        replications=3,
        grid={"p": {"path": "links.0.loss.p", "values": [0.01, 0.02]},
              "links.0.delay": ["10 ms", "20 ms", "50 ms"]},
        zip={"rate": {"path": "links.0.rate", "values": ["5 Mbps", "10 Mbps"]},
             "queue": {"path": "links.0.queue", "values": ["50 packets", "100 packets"]}},
        variants={"tcp": {"reno": {"flows.0.tcp.variant": "reno"},
                          "newreno": {"flows.0.tcp.variant": "newreno"}}},
    ))
    assert s.axis_names == ["p", "links.0.delay", "rate", "queue", "tcp"]
    assert len(s.points) == 2 * 3 * 2 * 2
    runs = s.runs()
    assert len(runs) == len(s.points) * 3
    assert len({r.run_id for r in runs}) == len(runs)
    # zipped lists move together: never rate 5 Mbps with a queue of 100 packets
    pairs = {(p.coords["rate"], p.coords["queue"]) for p in s.points}
    assert pairs == {("5 Mbps", "50 packets"), ("10 Mbps", "100 packets")}
    # every axis value reached the scenario
    point = s.points[-1]
    link = point.scenario["links"][0]
    assert (link["loss"]["p"], link["delay"], link["rate"]) == (0.02, "50 ms", "10 Mbps")
    assert point.scenario["flows"][0]["tcp"]["variant"] == "newreno"


def test_runs_use_the_master_seed_and_replication_index():
    s = load_spec(spec(replications=2, seed=7, grid={"p": {"path": "links.0.loss.p", "values": [0.01, 0.02]}}))
    runs = s.runs()
    assert {(r.seed, r.replication) for r in runs} == {(7, 0), (7, 1)}
    r = runs[0]
    assert r.run_id == run_id(r.point.scenario, 7, r.replication)
    assert r.point.scenario_hash == scenario_hash(r.point.scenario)
    assert load_spec(spec(replications=2, seed=7, grid={"p": {"path": "links.0.loss.p", "values": [0.01, 0.02]}})).runs()[0].run_id == r.run_id


def test_per_point_replications():
    s = load_spec(spec(replications=2, grid={"p": {"path": "links.0.loss.p", "values": [0.01, 0.02]}}))
    ids = [p.id for p in s.points]
    runs = s.runs({ids[0]: 2, ids[1]: 5})
    assert sorted(r.replication for r in runs if r.point.id == ids[1]) == [0, 1, 2, 3, 4]


def test_zip_values_may_repeat_but_rows_may_not():
    # Two chains sharing p_eg: each axis repeats a value, every row differs.
    ok = spec(zip={"a": {"path": "links.0.loss.p", "values": [0.1, 0.1, 0.2]},
                   "b": {"path": "links.0.delay", "values": ["1 ms", "2 ms", "1 ms"]}})
    assert len(load_spec(ok).points) == 3
    message = error(spec(zip={"a": {"path": "links.0.loss.p", "values": [0.1, 0.2, 0.1]},
                              "b": {"path": "links.0.delay", "values": ["1 ms", "2 ms", "1 ms"]}}))
    assert message == "zip: rows 0 and 2 of (a, b) are the same; each row needs other values"


def test_zip_length_mismatch():
    message = error(spec(zip={"a": {"path": "links.0.loss.p", "values": [0.1, 0.2]},
                              "b": {"path": "links.0.delay", "values": ["1 ms"]}}))
    assert message.startswith("zip.")
    assert "same length" in message and "a has 2, b has 1" in message


def test_unknown_axis_path_names_the_axis_and_the_core_message():
    message = error(spec(grid={"wireless.p": {"path": "links.0.loss.q", "values": [0.1]}}))
    assert message.startswith("grid.wireless.p.path: links.0.loss.q: unknown field `q`")
    # The spec's own path names the field: the core's is not printed again after it
    # (issue 27: "a variant's unknown field prints its name twice").
    assert error(spec(grid={"links.0.losss": [1]})).startswith("grid.links.0.losss: unknown field")
    assert error(spec(variants={"s": {"a": {"flows.0.tcp.variantx": "reno"}}})).startswith(
        "variants.s.a.flows.0.tcp.variantx: unknown field `variantx`")


def test_index_out_of_range():
    assert error(spec(grid={"p": {"path": "links.3.loss.p", "values": [0.1]}})).startswith("grid.p.path: links.3:")


def test_invalid_value_fails_only_its_point():
    s = load_spec(spec(grid={"p": {"path": "links.0.loss.p", "values": [0.01, 1.5]}}))
    errors = {p.coords["p"]: p.error for p in s.points}
    assert errors[0.01] is None
    assert "not a probability" in errors[1.5]
    assert "not a probability" in error(spec(grid={"p": {"path": "links.0.loss.p", "values": [2.0, 1.5]}}))


@pytest.mark.parametrize("doc, where", [
    (spec(replications="five"), "replications:"),
    (spec(replications=0), "replications:"),
    (spec(seed=-1), "seed:"),
    (spec(bogus=1), "bogus: unknown key"),
    (spec(grid={"p": {"path": "links.0.loss.p", "values": []}}), "grid.p.values: empty"),
    (spec(grid={"p": {"path": "links.0.loss.p", "values": [0.1, 0.1]}}), "grid.p.values: 0.1 appears twice"),
    (spec(grid={"p": {"path": "links.0.loss.p"}}), "grid.p.values:"),
    (spec(grid={"p": {"values": [0.1]}}), "grid.p.path:"),
    (spec(grid={"seed": [1, 2]}), "grid.seed:"),
    (spec(grid={"links": {"0": {"loss": {"p": [0.1]}}}}), "grid.links:"),
    (spec(set={"flows": {"0": {"tcp": {"variant": "newreno"}}}}), "set.flows:"),
    (spec(variants={"s": {"a": {}, "b": {}}}), "give the same scenario"),
    (spec(metrics={"goodput": 3}), "metrics.goodput:"),
    (spec(duration=5), "duration:"),
    ({"scenario": ONE_HOP}, "name:"),
    ({"name": "t"}, "scenario: missing"),
])
def test_bad_spec_fields(doc, where):
    assert where in error(doc)


def test_quick_table_is_laid_over_the_spec():
    doc = spec(replications=5, duration="100 s",
               grid={"p": {"path": "links.0.loss.p", "values": [0.01, 0.02, 0.05]}},
               quick={"replications": 2, "duration": "5 s",
                      "grid": {"p": {"path": "links.0.loss.p", "values": [0.02]}}})
    full, quick = load_spec(doc), load_spec(doc, quick=True)
    assert (len(full.points), full.replications) == (3, 5)
    assert (len(quick.points), quick.replications, quick.quick) == (1, 2, True)
    assert quick.points[0].scenario["duration"] == "5 s"


def test_spec_file_resolves_the_scenario_beside_it(tmp_path):
    (tmp_path / "sc").mkdir()
    (tmp_path / "sc" / "one.toml").write_text((SCENARIOS / "one-hop.toml").read_text())
    path = tmp_path / "exp.toml"
    path.write_text('scenario = "sc/one.toml"\nreplications = 2\n[grid]\n"links.0.loss.p" = [0.01, 0.02]\n')
    s = load_spec(path)
    assert s.name == "exp" and len(s.runs()) == 4


def test_the_shipped_experiment_loads():
    s = load_spec(ROOT / "experiments" / "reno-vs-eln.toml")
    assert s.axis_names == ["wireless.p", "scheme"]
    assert s.metrics["goodput"] == "flows.0.goodput_bps"
    reno = next(p for p in s.points if p.coords["scheme"] == "reno")
    eln = next(p for p in s.points if p.coords["scheme"] == "eln")
    assert reno.scenario["agents"] == [] and eln.scenario["agents"]
    assert all(p.error is None for p in s.points)


def test_run_ids_made_per_point_equal_the_hash_of_the_whole_scenario():
    """Point.run_id hashes a prefix once per point; ids must not change (resume)."""
    s = load_spec(spec(replications=3, seed=7, grid={"p": {"path": "links.0.loss.p", "values": [0.01, 0.02]}}))
    for r in s.runs():
        assert r.run_id == run_id(r.point.scenario, 7, r.replication)
        assert r.point.scenario_hash == scenario_hash(r.point.scenario)


@pytest.mark.parametrize("values, shown", [
    (["10 Mbps", 5000000], 'text ("10 Mbps"), numbers (5000000)'),
    ([True, 1], "booleans (true), numbers (1)"),  # spelled as in TOML
    ([{"model": "bernoulli", "p": 0.1}, 0.1], 'text ({model = "bernoulli", p = 0.1}), numbers (0.1)'),
])
def test_an_axis_mixing_types_is_refused_up_front(values, shown):
    path = "links.0.rate" if isinstance(values[0], str) else "links.0.loss"
    message = error(spec(grid={path: values}))
    assert message.startswith(f"grid.{path}.values: mixes {shown}")
    assert "\n" not in message


def test_ints_and_floats_make_one_number_axis():
    s = load_spec(spec(grid={"p": {"path": "links.0.loss.p", "values": [0, 0.01]}}))
    assert [p.coords["p"] for p in s.points] == [0.0, 0.01]


@pytest.mark.parametrize("fields, fragments", [
    ({"replications": 1_000_000_000}, ["replications: 1000000000 is not an integer from 1 to 100000"]),
    ({"replications": 20, "grid": {"a": {"path": "links.0.loss.p", "values": [i / 1e6 for i in range(1000)]},
                                   "b": {"path": "links.0.delay", "values": [f"{i} ms" for i in range(101)]}}},
     ["grid: 101,000 points (1000 x 101) is more than 100,000"]),
    ({"replications": 2000, "grid": {"a": {"path": "links.0.loss.p", "values": [i / 1e6 for i in range(1000)]}}},
     ["replications: 2,000 replications of 1,000 points is 2,000,000 runs, more than 1,000,000"]),
])
def test_absurd_amounts_of_work_are_refused_with_the_limit(fields, fragments):
    message = error(spec(**fields))
    for f in fragments:
        assert f in message


def test_missing_scenario_file_is_a_scenario_error(tmp_path):
    (tmp_path / "dir.toml").mkdir()
    for name, what in [("nope.toml", "no such file"), ("dir.toml", "is a directory")]:
        doc = tmp_path / "s.toml"
        doc.write_text(f'scenario = "{name}"\n')
        message = error(doc)
        assert message.startswith(f"scenario: '{name}': {what}") and str(tmp_path) in message
    assert "no such sweep spec file" in error(tmp_path / "missing-spec.toml").lower()


def test_planning_a_big_sweep_reports_progress():
    ticks = []
    s = load_spec(spec(grid={"p": {"path": "links.0.loss.p", "values": [i / 1e5 for i in range(2500)]}}),
                  progress=lambda done, total: ticks.append((done, total)))
    assert ticks == [(1000, 2500), (2000, 2500)]
    runs_ticks = []
    s.runs({p.id: 2 for p in s.points}, tick=lambda done, total: runs_ticks.append((done, total)))
    assert runs_ticks == [(2500, 5000), (5000, 5000)]
