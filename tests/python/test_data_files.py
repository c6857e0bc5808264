"""Scenarios that reference data files by path (issue 26 item 3): a loss trace's entries
in `links.0.loss.file`, resolved against the scenario file's directory whatever the
working directory, with one-line errors naming the field and the file, and the file's
content in the scenario's identity in the store."""

import json

import pytest

import lossy
from lossy.result import WALL_CLOCK_KEYS
from lossy.scenario import identity, load_scenario
from lossy.sweep.spec import load_spec, run_id, scenario_hash

SCENARIO = """
name = "trace-file"
duration = "2 s"
nodes = ["A", "B"]

[[links]]
between = ["A", "B"]
rate = "10 Mbps"
delay = "10 ms"
loss = { model = "trace", file = "data/losses.txt" }

[[flows]]
from = "A"
to = "B"
app = { kind = "bulk" }
"""


@pytest.fixture
def scenario(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "losses.txt").write_text("# packets to lose\n5\n6\n\n40\n")
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO)
    return path


def channel_drops(result):
    return sum(link["channel_losses"] for link in result.links)


def test_a_relative_file_is_read_beside_the_scenario_from_any_working_directory(scenario, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = lossy.run(scenario)
    assert channel_drops(result) == 3
    # The same entries pasted inline lose the same packets.
    inline = load_scenario(scenario)
    inline["links"][0]["loss"] = {"model": "trace", "packets": [5, 6, 40]}
    def timeless(summary):
        return {k: v for k, v in summary.items() if k not in WALL_CLOCK_KEYS}

    assert timeless(lossy.run(inline).summary) == timeless(result.summary)


def test_the_cli_runs_it_too(cli, scenario):
    proc = cli("run", scenario, "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert sum(link["channel_losses"] for link in doc["links"]) == 3


@pytest.mark.parametrize("contents, says", [
    (None, "links.0.loss.file: {path}: no such file"),
    ("5\n6\nseven\n", 'links.0.loss.file: {path} line 3: "seven" is not a packet index'),
    ("# nothing\n", "links.0.loss.file: {path}: no entries"),
    (b"\xff\xfe", "links.0.loss.file: {path}: not UTF-8 text"),
])
def test_bad_files_are_one_line_naming_the_field_and_the_file(scenario, contents, says):
    path = scenario.parent / "data" / "losses.txt"
    if contents is None:
        path.unlink()
    elif isinstance(contents, bytes):
        path.write_bytes(contents)
    else:
        path.write_text(contents)
    with pytest.raises(lossy.ScenarioError) as e:
        lossy.run(scenario)
    assert str(e.value).startswith(says.format(path=path)), str(e.value)
    assert "\n" not in str(e.value)


def test_a_file_over_the_limit_says_the_limit(scenario):
    path = scenario.parent / "data" / "losses.txt"
    with open(path, "wb") as f:
        f.truncate((64 << 20) + 1)
    with pytest.raises(lossy.ScenarioError, match=r"links\.0\.loss\.file: .*losses\.txt: 67108865 B is over the limit of 67108864 B \(64 MiB\)"):
        lossy.run(scenario)


def test_the_store_names_a_scenario_by_its_files_content_not_their_place(scenario, tmp_path):
    doc = load_scenario(scenario)
    before = (scenario_hash(doc), run_id(doc, 1, 0))
    # Another copy of the same file elsewhere: the same scenario.
    moved = tmp_path / "moved.txt"
    moved.write_bytes((scenario.parent / "data" / "losses.txt").read_bytes())
    elsewhere = load_scenario(doc)
    elsewhere["links"][0]["loss"]["file"] = str(moved)
    assert (scenario_hash(elsewhere), run_id(elsewhere, 1, 0)) == before
    # A changed file: a new scenario, so no stale stored run is reused.
    (scenario.parent / "data" / "losses.txt").write_text("5\n")
    assert scenario_hash(doc) != before[0] and run_id(doc, 1, 0) != before[1]
    # A scenario without data files keeps the identity it always had.
    plain = {"nodes": ["A"], "name": "x"}
    assert identity(plain) is plain


def test_a_sweep_resolves_and_hashes_the_file(scenario, tmp_path):
    spec = {"name": "t", "scenario": str(scenario), "grid": {"rate": {"path": "links.0.rate", "values": ["5 Mbps", "10 Mbps"]}}}
    points = load_spec(spec).points
    assert all(p.error is None for p in points)
    hashes = [p.scenario_hash for p in points]
    runs = [r.run_id for r in load_spec(spec).runs()]
    (scenario.parent / "data" / "losses.txt").write_text("5\n6\n")
    assert [p.scenario_hash for p in load_spec(spec).points] != hashes
    assert [r.run_id for r in load_spec(spec).runs()] != runs
    # An inline [scenario] table's data files lie beside the spec.
    inline = {"name": "t", "scenario": load_scenario(SCENARIO)}
    spec_dir = scenario.parent
    assert load_scenario(inline["scenario"], base_dir=spec_dir)["links"][0]["loss"]["file"] == str(spec_dir / "data" / "losses.txt")
