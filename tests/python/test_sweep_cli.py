"""`lossy sweep` and `lossy results` as a user meets them."""

import json

import pytest

from conftest import ROOT, SCENARIOS
from test_cli import assert_one_line_error

EXPERIMENT = ROOT / "experiments" / "reno-vs-eln.toml"


def write(tmp_path, text, name="s.toml"):
    path = tmp_path / name
    path.write_text(f'scenario = "{SCENARIOS / "one-hop.toml"}"\nduration = "2 s"\n' + text)
    return path


def test_the_shipped_experiment_runs_and_summarizes(cli, tmp_path):
    out = tmp_path / "out"
    proc = cli("sweep", EXPERIMENT, "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert "runs in the sweep" in proc.stdout and "goodput" in proc.stdout
    again = cli("sweep", EXPERIMENT, "--out", out)
    assert again.returncode == 0 and "already stored" in again.stdout
    table = cli("results", out, "--metric", "goodput")
    assert table.returncode == 0, table.stderr
    assert "95 % CI" in table.stdout and "reno" in table.stdout and "eln" in table.stdout
    doc = json.loads(cli("results", EXPERIMENT, "--out", out, "--json").stdout)
    rows = {(r["wireless.p"], r["scheme"], r["metric"]): r for r in doc}
    assert rows[(0.05, "eln", "goodput")]["n"] == 5
    # ELN keeps goodput up when the wireless hop loses 5 % of packets
    assert rows[(0.05, "eln", "goodput")]["mean"] > 1.5 * rows[(0.05, "reno", "goodput")]["mean"]


def test_failed_point_exit_status_and_retry(cli, tmp_path):
    spec = write(tmp_path, 'replications = 2\n[grid]\np = { path = "links.0.loss.p", values = [0.01, 1.5] }\n')
    out = tmp_path / "out"
    proc = cli("sweep", spec, "--out", out)
    assert proc.returncode == 1
    assert "not a probability" in proc.stdout  # the failed point and its message
    assert proc.stderr.strip().splitlines()[-1].startswith("lossy: 2 run(s) failed")
    retry = cli("sweep", spec, "--out", out, "--retry-failed")
    assert retry.returncode == 1 and "run now: failed" in retry.stdout
    shown = cli("results", out, "--metric", "flows.0.goodput_bps")
    assert shown.returncode == 0 and "failed" in shown.stdout


def test_until_ci_option(cli, tmp_path):
    spec = write(tmp_path, 'replications = 2\n[metrics]\ngoodput = "flows.0.goodput_bps"\n')
    proc = cli("sweep", spec, "--out", tmp_path / "o", "--until-ci", "50%", "--max-replications", "6")
    assert proc.returncode == 0, proc.stderr
    assert "--until-ci rounds" in proc.stdout


@pytest.mark.parametrize("text, fragments", [
    ("replications = \"five\"\n", ["replications:", "five"]),
    ("[grid]\n\"wireless.p\" = { path = \"links.0.loss.q\", values = [0.1] }\n",
     ["grid.wireless.p.path:", "unknown field `q`"]),
    ("[zip]\na = { path = \"links.0.loss.p\", values = [0.1, 0.2] }\nb = { path = \"links.0.delay\", values = [\"1 ms\"] }\n",
     ["zip.", "same length"]),
    ("bogus = 1\n", ["bogus: unknown key"]),
    ("[grid\n", ["invalid TOML"]),
])
def test_bad_spec_is_one_line(cli, tmp_path, text, fragments):
    assert_one_line_error(cli("sweep", write(tmp_path, text), "--out", tmp_path / "o"), *fragments)


def test_bad_options_are_one_line(cli, tmp_path):
    spec = write(tmp_path, "")
    assert_one_line_error(cli("sweep", tmp_path / "nope.toml"), "nope.toml")
    assert_one_line_error(cli("sweep", spec, "--out", tmp_path / "x", "--until-ci", "lots"), "--until-ci")
    nowhere = tmp_path / "nowhere"
    assert_one_line_error(cli("sweep", spec, "--out", nowhere, "--until-ci", "5%"), "--until-ci needs a metric")
    assert_one_line_error(cli("sweep", spec, "--out", nowhere, "--executor", "gpu"), "--executor")
    assert_one_line_error(cli("sweep", spec, "--out", nowhere, "--workers", "0"), "--workers")
    assert not nowhere.exists()  # options are checked before the store is made
    assert_one_line_error(cli("results", tmp_path / "empty.toml"), "empty.toml")
    (tmp_path / "emptydir").mkdir()
    assert_one_line_error(cli("results", tmp_path / "emptydir"), "no runs stored")
    out = tmp_path / "o"
    assert cli("sweep", spec, "--out", out).returncode == 0
    assert_one_line_error(cli("results", out, "--metric", "nosuch"), "--metric nosuch")
