"""Per-flow results as a long table, the core's goodput aggregates, flow groups, and the
summary row's shape for runs with few and many flows."""

import math

import numpy as np
import pytest

import lossy
from lossy import _core
from lossy.result import MAX_FLATTENED, RunResult, column_rows, flatten_result, section_columns


def star(hosts, **group):
    """server -- bs -- mh0..mh{hosts-1}, one flow group from the server to every host."""
    mobiles = [f"mh{i}" for i in range(hosts)]
    return {
        "name": "star",
        "duration": "2 s",
        "nodes": ["server", "bs", *mobiles],
        "links": [{"between": ["server", "bs"], "rate": "100 Mbps", "delay": "5 ms"}]
        + [{"between": ["bs", m], "rate": "2 Mbps", "delay": "1 ms",
            "loss": {"model": "bernoulli", "p": 0.01}} for m in mobiles],
        "flow_groups": [{"name": "down", "count": hosts, "from": "server", "to": "mh{i}", **group}],
    }


def test_flows_come_as_typed_columns_with_one_entry_per_flow():
    r = lossy.run(star(5, start={"uniform": ["0 s", "0.5 s"], "stream": "flow-starts"}), seed=3)
    t = r.flow_table
    assert t["name"] == [f"down.{i}" for i in range(5)]
    assert t["to"] == [f"mh{i}" for i in range(5)] and t["group"] == ["down"] * 5
    assert isinstance(t["goodput_bps"], np.ndarray) and t["goodput_bps"].dtype == np.float64
    assert isinstance(t["bytes_delivered"], np.ndarray) and t["bytes_delivered"].dtype == np.int64
    assert all(len(v) == 5 for v in t.values())
    assert isinstance(r.link_table["loss_rate"], np.ndarray) and len(r.link_table["name"]) == 12
    # The list of dicts is built from the columns, with Python scalars.
    assert r.flows[2]["name"] == "down.2" and type(r.flows[2]["bytes_delivered"]) is int
    assert len(r.flows_frame()) == 5 and list(r.flows_frame()["name"]) == t["name"]


def test_aggregates_agree_with_numpy_over_the_flow_table():
    r = lossy.run(star(9, start={"every": "10 ms"}), seed=1)
    g = r.flow_table["goodput_bps"]
    s = r.raw["summary"]
    assert s["flows"] == 9
    assert s["goodput_mean_bps"] == pytest.approx(g.mean(), rel=1e-12)
    assert s["goodput_min_bps"] == g.min()
    for q in (5, 50, 95):  # linear interpolation between closest ranks, NumPy's default
        assert s[f"goodput_p{q}_bps"] == pytest.approx(np.percentile(g, q), rel=1e-12)
    assert s["jain_index"] == pytest.approx(g.sum() ** 2 / (len(g) * (g ** 2).sum()), rel=1e-12)
    assert s["groups"]["down"] == {k: s[k] for k in s["groups"]["down"]}
    assert r.summary["groups.down.jain_index"] == s["jain_index"]


def test_same_seed_same_start_draws_and_results():
    doc = star(4, start={"uniform": ["0 s", "1 s"], "stream": "flow-starts"})
    a, b = lossy.run(doc, seed=5), lossy.run(doc, seed=5)
    assert a.comparable_summary() == b.comparable_summary()
    assert a.flows == b.flows
    assert lossy.run(doc, seed=6).flows != a.flows


def test_few_flows_keep_the_per_flow_summary_columns_and_many_do_not():
    few = lossy.run(star(3, start="0 s"), seed=1)
    assert few.summary["flows.2.name"] == "down.2" and "links.5.name" in few.summary
    many = lossy.run(star(MAX_FLATTENED + 1, start="0 s"), seed=1)
    assert not any(k.startswith(("flows.", "links.")) for k in many.summary)
    assert many.summary["flows"] == MAX_FLATTENED + 1
    assert many.summary["groups.down.flows"] == MAX_FLATTENED + 1
    assert "agents" not in many.raw["summary"]


def test_flatten_and_section_columns_accept_the_old_list_of_dicts():
    old = {"summary": {"seed": 1}, "flows": [{"name": "a", "goodput_bps": 1.0, "rtt_mean_s": None}],
           "links": [], "agents": [{"name": "agent0", "eln_marked": 3}]}
    assert flatten_result(old) == {"seed": 1, "flows.0.name": "a", "flows.0.goodput_bps": 1.0,
                                   "flows.0.rtt_mean_s": None, "agents.0.name": "agent0",
                                   "agents.0.eln_marked": 3}
    assert section_columns(old["flows"]) == {"name": ["a"], "goodput_bps": [1.0], "rtt_mean_s": [None]}
    assert section_columns([{"a": 1}, {"b": 2}]) == {"a": [1, None], "b": [None, 2]}
    cols = {"name": ["x", "y"], "v": np.array([1.0, math.nan])}
    assert section_columns(cols) == cols
    assert column_rows(cols) == [{"name": "x", "v": 1.0}, {"name": "y", "v": None}]
    assert RunResult(old).flows == old["flows"]


def test_to_dict_keeps_flows_as_a_list_of_dicts_with_none_for_missing(last_hop):
    r = lossy.run(last_hop, overrides={"duration": "5 s"})
    d = r.to_dict(traces=False)
    assert isinstance(d["flows"], list) and d["flows"][0]["name"] == r.flow_table["name"][0]
    assert d["flows"][0]["completion_time_s"] is None  # a bulk transfer never completes
    assert r.summary["flows.0.completion_time_s"] is None


def test_repr_stays_short_for_a_big_run():
    r = lossy.run(star(40, start="0 s", **{"app": {"kind": "bulk"}}), seed=1)
    text = repr(r)
    assert "flows=40" in text and "jain_index=" in text and len(text) < 300


@pytest.mark.parametrize("group, message", [
    ({"to": "mh{i}", "count": 6},
     'flow_groups.0.to: "mh{i}" gives "mh5" for i = 5, which is not a node (nodes: server, bs, mh0, mh1, mh2, mh3, mh4)'),
    ({"to": "mh{j}"}, 'flow_groups.0.to: "mh{j}" has {j}; use {i} or {i+K} (K a whole number), e.g. "mh{i}"'),
    ({"count": 0}, "flow_groups.0.count: 0 is out of range; use 1 to 1,000,000"),
    ({"count": 2_000_000}, "flow_groups.0.count: 2000000 is out of range; use 1 to 1,000,000"),
    ({"start": {"every": "1 ms", "uniform": ["0 s", "1 s"]}}, "flow_groups.0.start: give `every`"),
    ({"app": {"kind": "bulk", "size": "10 kB"}}, "flow_groups.0.app.size: unknown field `size`"),
])
def test_bad_groups_are_one_line_naming_the_field(group, message):
    doc = star(5)
    doc["flow_groups"][0].update(group)
    with pytest.raises(lossy.ScenarioError) as e:
        lossy.run(doc)
    assert str(e.value).startswith(message), str(e.value)
    assert "\n" not in str(e.value)


def test_a_flow_group_pattern_with_offset():
    doc = star(4, count=3)
    doc["flow_groups"][0]["to"] = "mh{i+1}"
    assert lossy.run(doc).flow_table["to"] == ["mh1", "mh2", "mh3"]


def test_flow_and_group_names_must_be_unique():
    doc = star(3)
    doc["flows"] = [{"name": "down.1", "from": "server", "to": "mh0"}]
    with pytest.raises(lossy.ScenarioError, match=r'^flow_groups\.0\.name: "down\.1" is also the name of flows\.0'):
        lossy.run(doc)


@pytest.mark.parametrize("override, message", [
    ({"flows.0.app": {"kind": "bulk", "size": "10 kB"}}, "flows.0.app.size: unknown field `size`; this table takes no other keys"),
    ({"flows.0.tcp.header": "1e19 B"}, "flows.0.tcp.header: 1e19 B is out of range; use 0 B to 65,535 B"),
    ({"flows.0.tcp.ack_size": "1e30 B"}, "flows.0.tcp.ack_size: 1e30 B is out of range; use 1 B to 65,535 B"),
    ({"duration": "1e300 s"}, "duration: 1e300 s is out of range; use 0 s to 1,000,000 s"),
    ({"links.1.loss.p": "x"}, 'links.1.loss.p: "x" is not allowed; use a number'),
    ({"links.1.loss": {"p": 0.1}}, "links.1.loss.model: missing; give model = one of: none, bernoulli"),
])
def test_bad_values_speak_the_users_words(last_hop, override, message):
    with pytest.raises(lossy.ScenarioError) as e:
        lossy.run(last_hop, overrides=override)
    assert str(e.value).startswith(message), str(e.value)


def test_trace_legend_names_the_seq_event_codes_and_ssthresh_starts_unset(last_hop):
    assert _core.trace_legend() == {"seq": {"event": ["sent", "resent", "acked"]}}
    r = lossy.run(last_hop, overrides={"duration": "20 s", "traces.cwnd": True})
    ssthresh = r.traces["cwnd"]["ssthresh_bytes"]
    assert math.isnan(ssthresh[0]) and np.nanmax(ssthresh) < 1e9
