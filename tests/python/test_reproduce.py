"""`lossy reproduce`: the quick validation end to end (once per module, on the session's
quick runs), the CLI's --list, --only, all and bad input."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import lossy_command, seed_validation_runs
from lossy.papers import UnknownReproduction, get
from lossy.papers.bands import Band
from lossy.papers.measures import per_point
from lossy.papers.model import Claim, Examples
from lossy.papers.report import markdown_table
from lossy.papers.validation import REPRODUCTION
from lossy.papers.validation.claims import CLAIMS
from lossy.papers.verdict import State

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory,
          quick_reproductions: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    """`lossy reproduce validation --quick` end to end, its sweeps' runs copied first from
    the session's one quick run of every reproduction (conftest.py), which the command
    reuses as stored runs: it judges, draws and writes the report without simulating
    again."""
    results = tmp_path_factory.mktemp("results")
    seed_validation_runs(results, quick_reproductions)
    out = results / "reproduce-validation"
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
    assert r.stderr == "lossy: no reproduction 'nope'; known: botos-fectcp, cellular-bufferbloat, chen-syndrome, chockalingam-ll-fec-arq, miyoshi-adaptive-fec, modern-cc, pantheon-emulators, shagdar-ewln, validation, or all\n"


def test_registry() -> None:
    assert get("validation") is REPRODUCTION
    with pytest.raises(UnknownReproduction, match="known: botos-fectcp, cellular-bufferbloat, chen-syndrome, chockalingam-ll-fec-arq, miyoshi-adaptive-fec, modern-cc, pantheon-emulators, shagdar-ewln, validation"):
        get("nope")


def test_the_registry_imports_neither_pandas_nor_matplotlib() -> None:
    import sys

    code = "import sys, lossy.papers; print(sorted(m for m in ('pandas', 'matplotlib') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_stored_listing_is_what_the_declarations_give() -> None:
    from lossy.papers.listing import REFRESH, declared_listing, stored_listing

    assert stored_listing() == declared_listing(), (
        f"python/lossy/papers/listing.txt is out of date with the reproductions' declarations: run {REFRESH}")


def test_list_imports_no_reproduction_nor_heavy_module() -> None:
    # `lossy reproduce --list` cost 3.5 s of CPU importing every reproduction (issue 27).
    import sys

    code = ("import contextlib, io, sys\n"
            "sys.argv = ['lossy', 'reproduce', '--list']\n"
            "from lossy.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as listed:\n"
            "    try:\n"
            "        main()\n"
            "    except SystemExit as e:\n"
            "        assert e.code == 0, e.code\n"
            "assert listed.getvalue().startswith('botos-fectcp: ')\n"
            "heavy = ('numpy', 'pandas', 'scipy', 'matplotlib', 'pyarrow', 'lossy.papers.model')\n"
            "print(sorted(m for m in heavy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
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


def test_only_runs_what_the_items_need_and_keeps_the_full_report(cli, tmp_path: Path) -> None:
    out = tmp_path / "only"
    out.mkdir()
    full = {name: f"the full run's {name}\n" for name in ("report.md", "outcome.json")}
    for name, text in full.items():
        (out / name).write_text(text)
    r = cli("reproduce", "validation", "--quick", "--only", "upstream,eln-upstream", "--out", out)
    assert r.returncode == 0, r.stderr
    # The sweep's store beside the full run's; the partial report in its own directory.
    mine = out / "only-upstream,eln-upstream"
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == [mine.name, "upstream-quick"]
    assert {name: (out / name).read_text() for name in full} == full  # issue 27: it overwrote them
    assert f"report: {mine / 'report.md'}" in " ".join(r.stdout.split())
    report = (mine / "report.md").read_text()
    assert "--only upstream,eln-upstream" in report and "1 of 1 reproduced" in report
    assert "## ELN against Reno with losses upstream" in report
    assert "## Reno with and without ELN" not in report
    assert "- store: `../upstream-quick/`" in report
    assert pd.read_csv(mine / "upstream.csv")["wired p"].tolist() == [0.01, 0.02]


def test_a_long_only_list_gets_a_short_directory_name(tmp_path: Path) -> None:
    from lossy.papers.outcome import only_dir

    keys = [f"claim-number-{i}" for i in range(20)]
    name = only_dir(tmp_path, keys).name
    assert name.startswith("only-claim-number-0-and-19-more-") and len(name) < 60
    assert only_dir(tmp_path, keys[:19]) != only_dir(tmp_path, keys)
    assert only_dir(tmp_path, ["fig3", "table1"]).name == "only-fig3,table1"


@pytest.mark.parametrize("args,message", [
    (["validation", "--only", "fig10,upstream"],
     "lossy: --only: validation has no figure, table or claim 'fig10'; it has: goodput-vs-loss, "),
    (["all", "--only", "upstream"], "lossy: --only names items of one reproduction"),
    ([], "lossy: name a reproduction: botos-fectcp, cellular-bufferbloat, chen-syndrome, chockalingam-ll-fec-arq, miyoshi-adaptive-fec, modern-cc, pantheon-emulators, shagdar-ewln, validation, or all"),
])
def test_bad_reproduce_input_is_one_line(cli, tmp_path: Path, args: list, message: str) -> None:
    r = cli("reproduce", *args, "--out", tmp_path / "x")
    assert r.returncode == 2
    assert r.stderr.startswith(message) and r.stderr.count("\n") == 1
    assert not (tmp_path / "x").exists()  # checked before anything runs


@pytest.mark.slow
def test_all_quick_checks_every_claim_and_writes_the_index(quick_reproductions: Path) -> None:
    """What CI runs: every registered reproduction's quick version (the site's run). Each
    claim must be checked: "could not be checked" is a defect."""
    from lossy.papers import names

    index = (quick_reproductions / "index.md").read_text()
    for name in names():
        repro = get(name)
        report = (quick_reproductions / f"reproduce-{name}" / "report.md").read_text()
        assert f"[report.md](reproduce-{name}/report.md)" in index
        states = [state for _, _, state in VERDICT.findall(report)]
        assert len(states) == len(repro.claims) and "could not be checked" not in states, name
        assert "## Defects" not in report, name
        counts = [states.count(s) for s in ["reproduced", "not reproduced", "inconclusive"]]
        assert f"| {len(repro.claims)} | {' | '.join(map(str, counts))} | 0 | 0 |" in index


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
