"""A scenario's capacity table naming a trace (issue 30): `trace = "<collection>:<name>"`
or a file path becomes `kind` + `file` when the scenario is loaded or an override sets
it, before data files are resolved and hashed; the core never sees `trace`. Tested on
the scenario dict (the core's capacity tables are another branch's); the errors name the
field."""

import pytest

from lossy import ScenarioError
from lossy import trace_catalogue as tc
from lossy.scenario import apply_overrides, identity, load_scenario

TMOBILE = "mahimahi:TMobile-LTE-short.down"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LOSSY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "traces"


def link(**tables):
    return {"links": [{"between": ["a", "b"], "delay": "10ms", **tables}]}


def test_a_catalogue_name_becomes_kind_and_the_cached_file(trace_mirror, cache):
    doc = load_scenario(link(capacity={"trace": TMOBILE, "once": True},
                             reverse_capacity={"trace": "lumos5g:5g_trace_100_walking", "interval": "1s"}))
    forward, reverse = doc["links"][0]["capacity"], doc["links"][0]["reverse_capacity"]
    assert forward == {"kind": "mahimahi", "file": str(cache / "mahimahi" / "TMobile-LTE-short.down"), "once": True}
    assert reverse == {"kind": "rate_schedule", "file": str(cache / "lumos5g" / "5g_trace_100_walking"),
                       "interval": "1s"}


def test_a_path_is_relative_to_the_scenario_s_folder_and_defaults_to_mahimahi(tmp_path):
    (tmp_path / "traces").mkdir()
    (tmp_path / "traces" / "mine.down").write_text("1\n2\n")
    (tmp_path / "rates.log").write_text("1.0\t10.0\n")
    (tmp_path / "s.toml").write_text(
        '[[links]]\nbetween = ["a", "b"]\ndelay = "10ms"\n'
        'capacity = { trace = "traces/mine.down" }\n'
        'reverse_capacity = { trace = "rates.log", kind = "rate_schedule" }\n')
    doc = load_scenario(tmp_path / "s.toml")
    assert doc["links"][0]["capacity"] == {"kind": "mahimahi", "file": str(tmp_path / "traces" / "mine.down")}
    assert doc["links"][0]["reverse_capacity"] == {"kind": "rate_schedule", "file": str(tmp_path / "rates.log")}


def test_the_identity_is_the_file_s_content_whichever_way_it_is_named(trace_mirror, cache):
    by_name = load_scenario(link(capacity={"trace": TMOBILE}))
    by_file = load_scenario(link(capacity={"kind": "mahimahi", "file": str(trace_mirror / "mahimahi" / "TMobile-LTE-short.down")}))
    assert identity(by_name) == identity(by_file)
    assert identity(by_name)["links"][0]["capacity"]["file"] == {"sha256": tc.entry(TMOBILE).sha256}


def test_an_override_sets_a_trace_and_a_later_one_replaces_it(trace_mirror, cache):
    doc = load_scenario(link(capacity={"trace": "lumos5g:5g_trace_100_walking", "once": True}))
    apply_overrides(doc, {"links.0.capacity.trace": "pantheon:12mbps.trace"})
    assert doc["links"][0]["capacity"] == {"kind": "mahimahi", "file": str(cache / "pantheon" / "12mbps.trace"),
                                           "once": True}
    apply_overrides(doc, {"links[0].reverse_capacity.trace": TMOBILE})  # a table the scenario lacked
    assert doc["links"][0]["reverse_capacity"]["kind"] == "mahimahi"


def test_an_override_with_a_path_keeps_the_table_s_kind(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.log").write_text("1.0\t5.0\n")
    (tmp_path / "b.log").write_text("1.0\t6.0\n")
    doc = load_scenario(link(capacity={"trace": "a.log", "kind": "rate_schedule"}), base_dir=tmp_path)
    apply_overrides(doc, {"links.0.capacity.trace": "b.log"})
    assert doc["links"][0]["capacity"] == {"kind": "rate_schedule", "file": str(tmp_path / "b.log")}


@pytest.mark.parametrize("table, says", [
    ({"trace": 5}, "links.0.capacity.trace: 5 is not a trace; use a catalogue name"),
    ({"trace": ""}, "links.0.capacity.trace: '' is not a trace"),
    ({"trace": "mahimahi:TMobile-LTE-shrt.down"},
     f"links.0.capacity.trace: 'mahimahi:TMobile-LTE-shrt.down' is not in the trace catalogue; close names: {TMOBILE}"),
    ({"trace": "mahimhi:TMobile-LTE-short.down"}, "the collections are mahimahi, pantheon, lumos5g"),
    ({"trace": "missing.trace"}, "links.0.capacity.trace: 'missing.trace': no such file"),
    ({"trace": TMOBILE, "file": "x.trace"}, "links.0.capacity: both trace and file are given"),
    ({"trace": TMOBILE, "kind": "rate_schedule"},
     f"links.0.capacity.kind: 'rate_schedule' does not match {TMOBILE}, a mahimahi trace"),
])
def test_a_bad_trace_names_the_field(table, says, trace_mirror, cache, tmp_path):
    with pytest.raises(ScenarioError) as err:
        load_scenario(link(capacity=table), base_dir=tmp_path)
    assert says in str(err.value)


def test_an_unfetchable_trace_names_the_field_and_the_command(cache, tmp_path, monkeypatch):
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("LOSSY_TRACE_MIRROR", str(tmp_path / "empty"))
    with pytest.raises(ScenarioError) as err:
        load_scenario(link(reverse_capacity={"trace": TMOBILE}))
    assert str(err.value).startswith(f"links.0.reverse_capacity.trace: {TMOBILE}: not cached")
    assert f"`lossy traces fetch {TMOBILE}`" in str(err.value)


def test_a_trace_outside_a_capacity_table_is_left_to_the_core():
    doc = load_scenario(link(loss={"trace": TMOBILE}))
    assert doc["links"][0]["loss"] == {"trace": TMOBILE}  # the core names the unknown field


def _bulk_over(capacity):
    return {"duration": "2 s", "nodes": ["A", "B"],
            "links": [{"between": ["A", "B"], "delay": "20 ms",
                       "queue": {"kind": "drop_tail", "limit": "200 packets"}, "capacity": capacity,
                       "reverse_capacity": {"kind": "constant", "rate": "10 Mbps"}}],
            "flows": [{"from": "A", "to": "B"}]}


def test_a_run_over_a_catalogue_trace_equals_one_over_its_file(trace_mirror, cache):
    # The whole path: the name resolved at load, the core reading the cached file.
    import lossy
    from lossy.sweep.model import scenario_hash

    by_name = lossy.run(_bulk_over({"trace": TMOBILE}))
    file = str(trace_mirror / "mahimahi" / "TMobile-LTE-short.down")
    by_file = lossy.run(_bulk_over({"kind": "mahimahi", "file": file}))
    assert by_name.flows[0]["goodput_bps"] > 0
    assert by_name.to_dict(traces=False)["flows"] == by_file.to_dict(traces=False)["flows"]
    assert scenario_hash(load_scenario(_bulk_over({"trace": TMOBILE}))) == \
        scenario_hash(load_scenario(_bulk_over({"kind": "mahimahi", "file": file})))
    lumos = lossy.run(_bulk_over({"trace": TMOBILE}),
                      overrides={"links.0.capacity.trace": "lumos5g:4g_trace_driving_50015_dr"})
    assert lumos.scenario["links"][0]["capacity"]["kind"] == "rate_schedule"
    assert lumos.flows[0]["goodput_bps"] != by_name.flows[0]["goodput_bps"]
