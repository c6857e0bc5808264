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
    # `lossy sweep` said "lossy results shows them": the failed point and its error line
    failed_line = "failed p=1.5 (2 of 2 runs): links.0.loss.p: 1.5 is not a probability"
    shown = cli("results", out, "--metric", "flows.0.goodput_bps")
    assert shown.returncode == 0 and failed_line in " ".join(shown.stdout.split())
    by_spec = cli("results", spec, "--out", out, "--metric", "flows.0.goodput_bps")
    assert by_spec.returncode == 0 and failed_line in " ".join(by_spec.stdout.split())


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


def test_unknown_until_ci_metric_is_refused_before_any_run(cli, tmp_path):
    out = tmp_path / "o"
    proc = cli("sweep", EXPERIMENT, "--out", out, "--until-ci", "5%", "--metric", "nosuch")
    assert_one_line_error(proc, "--metric nosuch", "not a metric alias of the spec (goodput")
    assert not out.exists()
    near = cli("sweep", EXPERIMENT, "--out", out, "--until-ci", "5%", "--metric", "flows.0.goodput_bsp")
    assert_one_line_error(near, "did you mean flows.0.goodput_bps")
    # a summary key that exists only where a variant keeps the agent is a metric all the same
    from lossy.sweep.spec import load_spec
    from lossy.sweep.until_ci import check_metric_names

    check_metric_names(load_spec(EXPERIMENT), ["agents.0.eln_marked", "goodput", "flows.0.goodput_bps"])


def test_mixed_type_axis_is_one_line(cli, tmp_path):
    spec = write(tmp_path, '[grid]\n"links.0.rate" = ["10 Mbps", 5000000]\n')
    out = tmp_path / "o"
    assert_one_line_error(cli("sweep", spec, "--out", out), "grid.links.0.rate.values: mixes text")
    assert not out.exists()


def test_results_of_a_directory_that_is_not_a_store(cli, tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "figs").mkdir()
    assert_one_line_error(cli("results", tmp_path), "is not a results store (no runs/ or sweep.json); it holds figs/, notes.txt")
    assert_one_line_error(cli("plot", tmp_path, "--x", "p", "--y", "g", "-o", tmp_path / "f.png"), "is not a results store")
    store = tmp_path / "store"
    (store / "runs").mkdir(parents=True)
    assert_one_line_error(cli("plot", store, "--x", "p", "--y", "g", "-o", tmp_path / "f.png"), "no runs stored in")


def test_a_missing_scenario_in_a_spec_is_one_line(cli, tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('scenario = "nowhere.toml"\n')
    assert_one_line_error(cli("sweep", spec, "--out", tmp_path / "o"), "scenario: 'nowhere.toml': no such file")


def test_progress_shows_within_a_second(monkeypatch):
    import sys

    import time

    from lossy.sweep.runner import PROGRESS_AFTER_S, SweepProgress

    assert PROGRESS_AFTER_S <= 1.0
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # a terminal: the live bar
    bar = SweepProgress(enabled=True, name="x", t0=time.monotonic() - 1.0)
    bar.planning(10, 100)  # a long planning step shows too
    try:
        assert bar.bar is not None and bar.bar.tasks[0].description == "planning sweep x"
        bar.update(100, 5, 1)
        assert bar.bar.tasks[0].description == "sweep x" and bar.bar.tasks[0].completed == 5
    finally:
        bar.stop()


def test_progress_into_a_log_is_a_line_after_the_first_second(capsys):
    """stderr to a file or pipe: plain lines, the first after a second, then every 10 s
    (a live bar would reach the file only at the end)."""
    import time

    from lossy.sweep.runner import PLAIN_EVERY_S, SweepProgress

    bar = SweepProgress(enabled=True, name="x", t0=time.monotonic())
    bar.update(100, 1, 0)
    assert capsys.readouterr().err == ""  # within the first second: quiet
    bar.t0 -= 1.0
    bar.update(100, 5, 1)
    bar.update(100, 6, 1)  # too soon after the last line
    assert capsys.readouterr().err == "lossy: sweep x: 5 of 100 (5%), 1 failed, 1 s\n"
    bar.last_plain -= PLAIN_EVERY_S
    bar.update(100, 50, 1)
    assert "50 of 100 (50%)" in capsys.readouterr().err
