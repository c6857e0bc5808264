"""`lossy reproduce`: the quick validation end to end (once per module), the CLI's
--list, --only, all and bad input, and checks.py's hand checks on synthetic runs."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import lossy_command
from lossy.papers import UnknownReproduction, get
from lossy.papers.bands import Band
from lossy.papers.checks import gain_at_least, gain_row, identical_runs, within_model
from lossy.papers.measures import per_point
from lossy.papers.model import Claim, Examples
from lossy.papers.report import markdown_table
from lossy.papers.validation import REPRODUCTION
from lossy.papers.validation.claims import CLAIMS
from lossy.papers.verdict import State

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    out = tmp_path_factory.mktemp("reproduce") / "validation"
    proc = subprocess.run([*lossy_command(), "reproduce", "validation", "--quick", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    return proc, out


def test_quick_validation_writes_the_report(quick) -> None:
    proc, out = quick
    assert proc.returncode == 0, proc.stderr
    report = (out / "report.md").read_text()
    assert report.startswith("# Validation")
    assert "--quick" in report and "git commit" in report
    for figure in REPRODUCTION.figures:
        assert f"## {figure.title}" in report
        if figure.kind == "table":
            assert f"]({figure.key}.csv)" in report
        else:
            assert (out / f"{figure.key}.png").read_bytes()[:8] == PNG
            assert f"]({figure.key}.png)" in report
    for plan in REPRODUCTION.sweeps:  # stored under the output, apart from full runs
        assert (out / f"{plan.key}-quick").is_dir()
    assert "| p | variant | n | goodput (Mb/s, 95 % CI) | PFTK full |" in report
    assert "## What was run" in report and "0 failed" in report
    assert "Could not be drawn" not in report and "## Defects" not in report
    csv = pd.read_csv(out / "goodput-vs-loss.csv")
    assert len(csv) == 16 and list(csv.columns[:3]) == ["p", "variant", "n"]  # 8 p × 2 variants
    assert any((out / "traced-quick" / "traces").glob("*/cwnd.parquet"))


VERDICT = re.compile(r"^\d+\. \*\*(.+?)\*\* \(`([^`]+)`\): \*\*(reproduced|not reproduced|inconclusive|"
                     r"could not be checked)\*\*, ", flags=re.M)


def test_every_claim_has_a_verdict(quick) -> None:
    proc, out = quick
    report = (out / "report.md").read_text()
    verdicts = VERDICT.findall(report)
    assert [(text, key) for text, key, _ in verdicts] == [(c.text, c.key) for c in CLAIMS]
    states = [v for _, _, v in verdicts]
    assert "could not be checked" not in states
    n = len(CLAIMS)
    k, no, inc = states.count("reproduced"), states.count("not reproduced"), states.count("inconclusive")
    counts = f"{k} reproduced, {no} not reproduced, {inc} inconclusive, 0 could not be checked"
    assert f"{k} of {n} reproduced ({counts}; quick run)" in report
    assert f"{k} of {n} claims reproduced" in proc.stdout
    assert f"report: {out / 'report.md'}" in proc.stdout
    assert f"{REPRODUCTION.inventory.counts_text()}." in report


def test_the_quick_run_decides_the_exact_claims_and_probes_the_eln_gap(quick) -> None:
    # Exact quantities (identical runs, a deterministic overshoot) and a likeness with a
    # tight CI are decided even by the quick version; ELN's gain falls short of the
    # analytic argument, and the probe (an ELN sender with SACK and no window cap) shows why.
    report = (quick[1] / "report.md").read_text()
    states = {key: state for _, key, state in VERDICT.findall(report)}
    for key in ["eln-upstream", "sack-independent", "sack-overshoot"]:
        assert states[key] == "reproduced", key
    for key in ["eln-gain-2pc", "eln-gain-5pc"]:
        assert states[key] == "not reproduced", key
    assert report.count("Probe, ELN's sender repairs with SACK") == 2
    assert "demonstrated." in report


def test_unknown_name_lists_the_known_ones(cli) -> None:
    r = cli("reproduce", "nope")
    assert r.returncode == 2
    assert r.stderr == "lossy: no reproduction 'nope'; known: botos-fectcp, chen-syndrome, chockalingam-ll-fec-arq, miyoshi-adaptive-fec, shagdar-ewln, validation, or all\n"


def test_registry() -> None:
    assert get("validation") is REPRODUCTION
    with pytest.raises(UnknownReproduction, match="known: botos-fectcp, chen-syndrome, chockalingam-ll-fec-arq, miyoshi-adaptive-fec, shagdar-ewln, validation"):
        get("nope")


def test_the_registry_imports_neither_pandas_nor_matplotlib() -> None:
    import sys

    code = "import sys, lossy.papers; print(sorted(m for m in ('pandas', 'matplotlib') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_list_shows_every_reproduction_and_runs_nothing(cli, tmp_path: Path) -> None:
    r = cli("reproduce", "--list")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("botos-fectcp: Botoș et al.: FECTCP")
    assert "\nchen-syndrome: Chen et al. 2002" in r.stdout
    assert "\nvalidation: Validation" in r.stdout
    for item in [*REPRODUCTION.figures, *REPRODUCTION.claims]:
        assert f"    {item.key} (" in r.stdout
    assert "  tables:\n    upstream (table, from upstream)" in r.stdout


def test_only_runs_what_the_items_need(cli, tmp_path: Path) -> None:
    out = tmp_path / "only"
    r = cli("reproduce", "validation", "--quick", "--only", "upstream,eln-upstream", "--out", out)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["upstream-quick"]
    report = (out / "report.md").read_text()
    assert "--only upstream,eln-upstream" in report and "1 of 1 reproduced" in report
    assert "## ELN against Reno with losses upstream" in report
    assert "## Reno with and without ELN" not in report
    assert pd.read_csv(out / "upstream.csv")["wired p"].tolist() == [0.01, 0.02]


@pytest.mark.parametrize("args,message", [
    (["validation", "--only", "fig10,upstream"],
     "lossy: --only: validation has no figure, table or claim 'fig10'; it has: goodput-vs-loss, "),
    (["all", "--only", "upstream"], "lossy: --only names items of one reproduction"),
    ([], "lossy: name a reproduction: botos-fectcp, chen-syndrome, chockalingam-ll-fec-arq, miyoshi-adaptive-fec, shagdar-ewln, validation, or all"),
])
def test_bad_reproduce_input_is_one_line(cli, tmp_path: Path, args: list, message: str) -> None:
    r = cli("reproduce", *args, "--out", tmp_path / "x")
    assert r.returncode == 2
    assert r.stderr.startswith(message) and r.stderr.count("\n") == 1
    assert not (tmp_path / "x").exists()  # checked before anything runs


@pytest.mark.slow
def test_all_quick_checks_every_claim_and_writes_the_index(cli, tmp_path: Path) -> None:
    """What CI runs: every registered reproduction's quick version. Each claim must be
    checked (reproduced or not): "could not be checked" is a defect."""
    from lossy.papers import names

    r = cli("reproduce", "all", "--quick", "--out", tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr
    index = (tmp_path / "index.md").read_text()
    assert f"index: {tmp_path / 'index.md'}" in r.stdout
    for name in names():
        repro = get(name)
        report = (tmp_path / f"reproduce-{name}" / "report.md").read_text()
        assert f"[report.md](reproduce-{name}/report.md)" in index
        states = [state for _, _, state in VERDICT.findall(report)]
        assert len(states) == len(repro.claims) and "could not be checked" not in states, name
        assert "## Defects" not in report, name
        counts = [states.count(s) for s in ["reproduced", "not reproduced", "inconclusive"]]
        assert f"| {len(repro.claims)} | {' | '.join(map(str, counts))} | 0 | 0 |" in index


# --- checks.py: the hand checks of reproductions not yet on the claims protocol (these --
# --- tests go with it; the validation's claims are tested in test_validation.py) -------


def model_runs(deviation: dict[float, float], n: int = 4, spread: float = 0.01) -> pd.DataFrame:
    """Runs whose mean at each p is model(p)·(1 + deviation[p]), model(p) = 1000/p."""
    rows = []
    for p, dev in deviation.items():
        for rep in range(n):
            noise = spread * (rep - (n - 1) / 2)
            rows.append({"p": p, "replication": rep, "seed": 1, "status": "ok",
                         "goodput": 1000 / p * (1 + dev + noise)})
    return pd.DataFrame(rows)


def model(p: float, rows: pd.DataFrame) -> float:
    return 1000 / p


def test_within_model_reproduced() -> None:
    v = within_model(model_runs({0.01: 0.05, 0.02: -0.10}), "goodput", "p", model, 0.15)
    assert v.reproduced
    assert v.ours == "−10.0 % to +5.0 % from the model"
    assert "largest −10.0 % at p = 0.02" in v.reason


def test_within_model_not_reproduced_names_the_point() -> None:
    v = within_model(model_runs({0.01: 0.05, 0.03: 0.27}), "goodput", "p", model, 0.25)
    assert not v.reproduced
    assert v.reason.startswith("+27.0 % at p = 0.03 (95 % CI")
    assert "is outside ±25 %" in v.reason


def test_within_model_only_where_claimed_and_notes_a_wide_interval() -> None:
    runs = model_runs({0.005: 0.12, 0.01: 0.0, 0.05: -0.5}, spread=0.05)
    v = within_model(runs, "goodput", "p", model, 0.15, where=lambda p: p <= 0.01)
    assert v.reproduced  # p = 0.05 is outside the claim
    assert "the 95 % CI crosses the bound at p = 0.005" in v.reason


def test_within_model_missing_point_could_not_be_checked() -> None:
    runs = model_runs({0.01: 0.0, 0.02: 0.0})
    runs.loc[runs["p"] == 0.02, "status"] = "failed"
    v = within_model(runs, "goodput", "p", model, 0.25)
    assert v.state is State.UNCHECKED and v.reason == "no finished runs at p = 0.02"


def gain_runs(base: list[float], factor: float, noise: list[float]) -> pd.DataFrame:
    rows = []
    for rep, (b, e) in enumerate(zip(base, noise)):
        rows.append({"wireless.p": 0.02, "scheme": "reno", "replication": rep, "seed": 1, "status": "ok", "goodput": b})
        rows.append({"wireless.p": 0.02, "scheme": "eln", "replication": rep, "seed": 1, "status": "ok",
                     "goodput": b * factor + e})
    return pd.DataFrame(rows)


def row(df: pd.DataFrame):
    return gain_row(df, "goodput", "scheme", "reno", "eln", "wireless.p", 0.02)


def test_gain_reproduced_with_a_paired_interval() -> None:
    # Differences 61, 119, 92, 70: mean 85.5, sd 25.85, half-width 3.182·25.85/2 = 41.1;
    # over the baseline mean 142.5 the ratio is 1.60 ± 0.29.
    v = gain_at_least(row(gain_runs([100, 200, 150, 120], 1.6, [1, -1, 2, -2])), 1.3)
    assert v.reproduced and v.ours == "1.60× (95 % CI 1.31–1.89)"
    assert "n = 4 pairs" in v.reason


def test_gain_below_the_bound() -> None:
    v = gain_at_least(row(gain_runs([100, 200, 150], 1.2, [0, 0, 1])), 1.3)
    assert not v.reproduced and "below 1.3 " in v.reason


def test_gain_whose_difference_is_not_significant() -> None:
    v = gain_at_least(row(gain_runs([100, 100, 100], 1.0, [90, -60, 10])), 1.1)
    assert not v.reproduced and "includes 0" in v.reason


def test_gain_without_runs() -> None:
    assert gain_at_least(None, 1.3).state is State.UNCHECKED


def test_identical_runs() -> None:
    same = gain_runs([100, 200], 1.0, [0, 0]).rename(columns={"wireless.p": "wired.p"})
    assert identical_runs(same, "goodput", "scheme", "reno", "eln", ["wired.p"]).reproduced
    differ = gain_runs([100, 200], 1.0, [0, 1e-9]).rename(columns={"wireless.p": "wired.p"})
    v = identical_runs(differ, "goodput", "scheme", "reno", "eln", ["wired.p"])
    assert not v.reproduced and v.reason == "1 of 2 pairs differ"


def test_a_claim_that_reads_an_undeclared_sweep_could_not_be_checked() -> None:
    rows = pd.DataFrame({"p": [0.1], "replication": [0], "status": ["ok"], "goodput": [1.0]})
    claim = Claim("x", "x", "§1", "words", "a mean", Band.between(0, 2, "near 1"),
                  lambda ctx: per_point(ctx, "missing", "p", lambda p: lambda df: 1.0), sweeps=[],
                  examples=Examples(null=lambda: {}, faithful=lambda: {}), why_here="anywhere")
    v = claim.evaluate({"missing": rows})
    assert v.state is State.UNCHECKED
    assert v.reason == "reads sweep 'missing' but declares only: none"


def test_markdown_table_escapes_pipes() -> None:
    lines = markdown_table(pd.DataFrame({"a|b": ["x|y"], "n": [0.5]}))
    assert lines == ["| a\\|b | n |", "| --- | --- |", "| x\\|y | 0.5 |"]
