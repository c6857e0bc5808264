"""The Python API: loading scenarios, overrides, RunResult, and runs of the real core."""

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

import lossy
from lossy.result import RunResult, WALL_CLOCK_KEYS
from lossy.scenario import apply_overrides, load_scenario, parse_assignment, set_path, to_json_text

DOC = {
    "duration": "10 s",
    "links": [{"rate": "10 Mbps"}, {"rate": "2 Mbps", "loss": {"p": 0.01}}],
    "flows": [{"tcp": {"variant": "reno"}}],
}


# --- loading -----------------------------------------------------------------------------


def test_load_from_dict_is_a_deep_copy():
    doc = load_scenario(DOC)
    doc["links"][1]["loss"]["p"] = 0.5
    assert DOC["links"][1]["loss"]["p"] == 0.01


def test_load_from_toml_text_and_path(tmp_path):
    text = 'duration = "5 s"\n[[flows]]\nname = "a"\n'
    assert load_scenario(text) == {"duration": "5 s", "flows": [{"name": "a"}]}
    path = tmp_path / "s.toml"
    path.write_text(text)
    assert load_scenario(path) == load_scenario(str(path)) == load_scenario(text)


def test_missing_file_and_bad_toml(tmp_path):
    # ScenarioError, as the README promises, for a missing file and for a directory alike
    with pytest.raises(lossy.ScenarioError, match="nope.toml: no such scenario file"):
        load_scenario(tmp_path / "nope.toml")
    with pytest.raises(lossy.ScenarioError, match="is a directory, not a scenario file"):
        lossy.run(tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text("duration = \n")
    with pytest.raises(lossy.ScenarioError) as e:
        load_scenario(bad)
    assert str(e.value).startswith(f"{bad}: invalid TOML")
    assert "\n" not in str(e.value)


# --- overrides ---------------------------------------------------------------------------


def test_overrides_index_dicts_by_key_and_lists_by_integer():
    doc = apply_overrides(load_scenario(DOC), {
        "flows.0.tcp.variant": "newreno",
        "links.1.loss.p": 0.02,
        "duration": "20 s",
    })
    assert doc["flows"][0]["tcp"]["variant"] == "newreno"
    assert doc["links"][1]["loss"]["p"] == 0.02
    assert doc["duration"] == "20 s"


def test_overrides_create_missing_keys_and_tables():
    # Unknown names are the core's to reject, with their path.
    doc = apply_overrides(load_scenario(DOC), {"traces.cwnd": True, "links.0.loss.p": 0.1})
    assert doc["traces"] == {"cwnd": True}
    assert doc["links"][0]["loss"] == {"p": 0.1}


def test_overrides_accept_the_paths_errors_name():
    # Messages once named `links[1].loss.p`; --set still accepts that notation.
    doc = apply_overrides(load_scenario(DOC), {"links[1].loss.p": 0.2, "flows[0].tcp.variant": "reno"})
    assert doc["links"][1]["loss"]["p"] == 0.2 and doc["flows"][0]["tcp"]["variant"] == "reno"


@pytest.mark.parametrize("path, says", [
    ("links.2.rate", "links.2: links is a list of 2"),
    ("links.-1.rate", "links.-1: links is a list of 2"),
    ("flows.first.tcp", "flows.first: flows is a list of 1"),
    ("links.0.rate.unit", "links.0.rate.unit: links.0.rate is a string"),
    ("duration.x", "duration.x: duration is a string"),
    ("links.1.loss.p.q", "links.1.loss.p.q: links.1.loss.p is a number"),
    ("links..rate", "'links..rate': not a dotted path"),
    ("", "'': not a dotted path"),
])
def test_bad_override_paths_name_the_path(path, says):
    with pytest.raises(lossy.ScenarioError) as e:
        set_path(load_scenario(DOC), path, 1)
    assert str(e.value).startswith(says)
    assert "\n" not in str(e.value)


def test_override_errors_are_scenario_errors_and_value_errors():
    assert issubclass(lossy.ScenarioError, ValueError)


@pytest.mark.parametrize("text, path, value", [
    ("links.1.loss.p=0.02", "links.1.loss.p", 0.02),
    ("traces.cwnd=true", "traces.cwnd", True),
    ("flows.0.tcp.initial_window=1", "flows.0.tcp.initial_window", 1),
    ('links.0.delay="5 ms"', "links.0.delay", "5 ms"),
    ("links.0.delay=5 ms", "links.0.delay", "5 ms"),
    ("flows.0.tcp.variant=newreno", "flows.0.tcp.variant", "newreno"),
    (" duration = 20 s ", "duration", "20 s"),
    ("x=[1, 2]", "x", [1, 2]),
    ("x=a=b", "x", "a=b"),
    ("x=2024-01-01", "x", "2024-01-01"),
])
def test_set_values_parse_as_toml_else_text(text, path, value):
    assert parse_assignment(text) == (path, value)


@pytest.mark.parametrize("text", ["noequals", "=3", "x="])
def test_bad_set_syntax(text):
    with pytest.raises(lossy.ScenarioError):
        parse_assignment(text)


def test_json_for_the_core_takes_numpy_scalars_and_sends_nan_as_text():
    assert json.loads(to_json_text({"p": np.float64(0.5), "n": np.int64(3)})) == {"p": 0.5, "n": 3}
    # JSON has no NaN: it goes as text, for the core to refuse with the field's range.
    sent = json.loads(to_json_text({"links": [{}, {"loss": {"p": math.nan, "q": [np.float64("-inf")]}}]}))
    assert sent == {"links": [{}, {"loss": {"p": "nan", "q": ["-inf"]}}]}
    with pytest.raises(lossy.ScenarioError, match=r"^links\.0\.loss\.p: nan is not a finite number; use a number from 0 to 1$"):
        lossy.run("one-hop", overrides={"links.0.loss.p": math.nan})


# --- RunResult (shape only, from a hand-made core reply) ---------------------------------

RAW = {
    "summary": {"scenario": "t", "seed": 1, "replication": 0, "sim_time_s": 10.0, "events": 5,
                "wall_s": 0.01, "events_per_s": 500.0, "sim_s_per_wall_s": 1000.0, "packets_delivered": 3},
    "flows": [{"name": "a", "goodput_bps": np.float64(1e6), "rtt_mean_s": None, "extra": {"k": 1}},
              {"name": "b", "goodput_bps": 2e6, "rtt_mean_s": math.nan, "extra": {"k": 2}}],
    "links": [{"name": "A->B", "queue_drops": np.uint64(4)}],
    "agents": [],
    "traces": {"cwnd": {"time_s": np.array([0.0, 1.0]), "cwnd_bytes": np.array([1.0, math.inf])}},
}


def test_summary_is_one_flat_row_of_plain_scalars():
    r = RunResult(RAW)
    s = r.summary
    assert s["scenario"] == "t" and s["packets_delivered"] == 3
    assert s["flows.0.goodput_bps"] == 1e6 and type(s["flows.0.goodput_bps"]) is float
    assert s["flows.1.extra.k"] == 2
    assert s["flows.0.rtt_mean_s"] is None
    assert s["links.0.queue_drops"] == 4 and type(s["links.0.queue_drops"]) is int
    assert not any(k.startswith("traces") for k in s)
    assert r.flows[1]["name"] == "b" and r.links[0]["name"] == "A->B" and r.agents == []
    assert set(r.traces) == {"cwnd"}


def test_to_json_is_strict_json():
    r = RunResult(RAW)
    back = json.loads(r.to_json())  # allow_nan=False inside: NaN and inf became null
    assert back["flows"][1]["rtt_mean_s"] is None
    assert back["traces"]["cwnd"]["cwnd_bytes"] == [1.0, None]
    assert "traces" not in json.loads(r.to_json(traces=False))


def test_repr_is_short():
    text = repr(RunResult(RAW))
    assert text.startswith("<RunResult 't'") and len(text) < 200 and "\n" not in text


# --- the real core -----------------------------------------------------------------------


def test_run_returns_typed_flat_summary(last_hop):
    r = lossy.run(last_hop, seed=1)
    s = r.summary
    for key in ("scenario", "seed", "replication", "sim_time_s", "events", "wall_s",
                "events_per_s", "sim_s_per_wall_s", "packets_delivered"):
        assert key in s, key
    assert s["seed"] == 1 and s["replication"] == 0
    assert len(r.flows) >= 1 and len(r.links) >= 1
    for i, flow in enumerate(r.flows):
        assert s[f"flows.{i}.goodput_bps"] == flow["goodput_bps"]
        assert isinstance(flow["goodput_bps"], float) and flow["goodput_bps"] > 0
    for i, link in enumerate(r.links):
        assert isinstance(s[f"links.{i}.packets_offered"], int)
    assert all(isinstance(v, (bool, int, float, str, type(None))) for v in s.values())


def test_same_seed_same_result_other_seed_other_result(last_hop):
    a = lossy.run(last_hop, seed=7)
    b = lossy.run(str(last_hop), seed=7)
    assert a.comparable_summary() == b.comparable_summary()
    assert not WALL_CLOCK_KEYS & set(a.comparable_summary())
    c = lossy.run(last_hop, seed=8)
    d = lossy.run(last_hop, seed=7, replication=1)
    goodputs = lambda r: [f["goodput_bps"] for f in r.flows]  # noqa: E731
    assert goodputs(c) != goodputs(a)
    assert goodputs(d) != goodputs(a)


def test_overrides_reach_the_core(last_hop):
    r = lossy.run(last_hop, overrides={"flows.0.tcp.variant": "newreno"})
    assert r.flows[0]["variant"] == "newreno"
    assert r.scenario["flows"][0]["tcp"]["variant"] == "newreno"


def test_core_errors_name_the_field(last_hop):
    with pytest.raises(lossy.ScenarioError) as e:
        lossy.run(last_hop, overrides={"no_such_field": 1})
    assert "no_such_field" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(lossy.ScenarioError) as e:
        lossy.run(last_hop, overrides={"links.0.rate": "2 Mbsp"})
    assert str(e.value).startswith("links.0.rate: ") and "2 Mbsp" in str(e.value)


def test_notes_are_a_list_of_lines_never_summary_columns(last_hop):
    r = lossy.run(last_hop, overrides={"duration": "2 s", "agents": [], "flows.0.tcp.syndrome": "downlink"})
    assert r.notes == [r.raw["notes"][0]] and r.notes[0].startswith('flow reno: tcp.syndrome is "downlink"')
    assert r.to_dict(traces=False)["notes"] == r.notes
    assert not any(k.startswith("notes") for k in r.summary)
    assert lossy.run(last_hop, overrides={"duration": "2 s"}).notes == []


def test_bad_seed_is_a_scenario_error(last_hop):
    for seed in (-1, 2**64, 1.5, "1"):
        with pytest.raises(lossy.ScenarioError, match="^seed: "):
            lossy.run(last_hop, seed=seed)


def test_traces_are_numpy_columns(last_hop):
    r = lossy.run(last_hop, overrides={"traces.cwnd": True, "traces.seq": True})
    assert {"cwnd", "seq"} <= set(r.traces)
    for name in ("cwnd", "seq"):
        columns = r.traces[name]
        assert "time_s" in columns and "flow" in columns
        lengths = {len(a) for a in columns.values()}
        assert all(isinstance(a, np.ndarray) and a.ndim == 1 for a in columns.values())
        assert len(lengths) == 1 and lengths.pop() > 0
    assert np.all(np.diff(r.traces["cwnd"]["time_s"]) >= 0)


def test_version_and_build_info():
    assert lossy.__version__ == lossy._core.version()
    info = lossy._core.build_info()
    assert info["lossy_core"] == lossy.__version__


def test_overrides_as_pairs_and_traces_keyword():
    from conftest import SCENARIOS

    path = SCENARIOS / "last-hop.toml"
    by_dict = lossy.run(path, overrides={"duration": "2 s", "links.1.loss.p": 0.05})
    by_pairs = lossy.run(path, overrides=[("duration", "2 s"), ("links.1.loss.p", 0.05)])
    assert by_dict.comparable_summary() == by_pairs.comparable_summary()
    traced = lossy.run(path, overrides=[("duration", "2 s")], traces=["cwnd"])
    assert set(traced.traces) == {"cwnd"} and len(traced.traces["cwnd"]["time_s"]) > 0
    with pytest.raises(lossy.ScenarioError, match="overrides:.*not a mapping"):
        lossy.run(path, overrides=[("a",)])  # type: ignore[list-item]
    with pytest.raises(lossy.ScenarioError, match="traces.nosuch"):
        lossy.run(path, traces=["nosuch"])


# --- shipped names, as `lossy run NAME` takes them (issue 27) ------------------------------


def test_shipped_names_work_from_any_directory(tmp_path, monkeypatch):
    from lossy.shipped import scenarios_dir

    monkeypatch.chdir(tmp_path)  # nothing of the checkout here
    shipped = load_scenario(scenarios_dir() / "last-hop.toml")
    assert lossy.load_scenario("last-hop") == lossy.load_scenario("last-hop.toml") == shipped
    assert lossy.run("one-hop", overrides={"duration": "1 s"}).summary["flows.0.goodput_bps"] > 0
    assert lossy.load_scenario('duration = "5 s"') == {"duration": "5 s"}  # TOML text stays text
    (tmp_path / "last-hop.toml").write_text('duration = "3 s"\n')  # a file of that name wins
    assert lossy.load_scenario("last-hop.toml") == {"duration": "3 s"}
    with pytest.raises(lossy.ScenarioError, match=r"^scenario: 'one-hpo' is neither .*shipped: .*one-hop"):
        lossy.run("one-hpo")
    with pytest.raises(lossy.ScenarioError, match=r"^elsewhere/one-hop.toml: no such scenario file$"):
        lossy.load_scenario("elsewhere/one-hop.toml")  # a path is not a name
    from lossy.sweep import load_spec

    assert load_spec("reno-vs-eln").name == "reno-vs-eln"  # what lossy.sweep("reno-vs-eln") reads
    with pytest.raises(lossy.ScenarioError, match=r"^spec: 'reno-vs-el' is neither .*shipped: reno-vs-eln"):
        load_spec("reno-vs-el")


def test_the_readme_python_block_runs_outside_the_checkout(tmp_path, monkeypatch):
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^## Python\n.*?^```python\n(.*?)^```", readme, re.M | re.S)
    assert block, "README.md has no ## Python section with a python block"
    monkeypatch.chdir(tmp_path)
    exec(compile(block.group(1), "README.md", "exec"), {})


def test_a_flow_row_names_its_congestion_control(last_hop):
    # `variant` is the loss recovery; `cc` the congestion control, "reno" unless set.
    assert lossy.run(last_hop).flows[0]["cc"] == "reno"
    r = lossy.run(last_hop, overrides={"flows.0.tcp.cc": "cubic", "flows.0.tcp.variant": "newreno"})
    assert (r.flows[0]["variant"], r.flows[0]["cc"]) == ("newreno", "cubic")
