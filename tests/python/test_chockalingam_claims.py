"""Chockalingam et al.'s claims on the claims protocol: the words are the paper's, the
inventory's tests exist, the measures read what they say (the worst burst's vertex, the
codes' data rates, the points a quick run lacks, only the judged modulation), and a
probe says how much of a gap its cause closes. The null, faithful and exaggerated
examples of every claim run in tests/python/test_claims_protocol.py."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Dict

import pandas as pd
import pytest

from lossy.papers.chockalingam import REPRODUCTION
from lossy.papers.chockalingam.claims_burst import worst_burst
from lossy.papers.chockalingam.claims_fec import data_fraction
from lossy.papers.chockalingam.claims_table1 import no_fading_pe
from lossy.papers.chockalingam.examples import dip, frame
from lossy.papers.chockalingam.sweeps import BURSTS
from lossy.papers.context import Context
from lossy.papers.model import Claim
from lossy.papers.verdict import State

ROOT = Path(__file__).resolve().parents[2]
PAPER = ROOT.parent / "shared" / "papers" / "chockalingam-ll-fec-arq.md"
CLAIMS: Dict[str, Claim] = {c.key: c for c in REPRODUCTION.claims if isinstance(c, Claim)}


def claim(key: str) -> Claim:
    return CLAIMS[key]


def squash(text: str) -> str:
    return " ".join(text.split())


def test_every_claim_is_on_the_protocol() -> None:
    assert len(CLAIMS) == len(REPRODUCTION.claims) == 27


@pytest.mark.skipif(not PAPER.exists(), reason="the paper's text is not beside the checkout")
@pytest.mark.parametrize("key", sorted(CLAIMS))
def test_the_words_are_quoted_from_the_paper(key: str) -> None:
    paper = squash(PAPER.read_text(encoding="utf-8"))
    for piece in claim(key).words.split("[...]"):
        assert squash(piece) in paper, f"{key}: {piece.strip()!r} is not in {PAPER.name}"


def test_the_inventory_counts() -> None:
    assert REPRODUCTION.inventory is not None
    assert REPRODUCTION.inventory.counts() == {"items": 29, "covered": 19, "not covered": 10}
    assert "most-gain-from-arq" in REPRODUCTION.inventory.claim_keys()


def burst_curve(norm: Any) -> pd.DataFrame:
    return pd.DataFrame({"burst": [float(b) for b in BURSTS], "norm": [norm(b) for b in BURSTS]})


def test_the_worst_burst_is_the_vertex_between_grid_points() -> None:
    # A parabola in log burst is found exactly, wherever its vertex falls.
    assert worst_burst(burst_curve(lambda b: (math.log(b) - math.log(30)) ** 2)) == pytest.approx(30)
    assert worst_burst(burst_curve(lambda b: (math.log(b) - math.log(7)) ** 2)) == pytest.approx(7)
    # At an end of the grid: that end.
    assert worst_burst(burst_curve(lambda b: -b)) == pytest.approx(200)
    assert worst_burst(burst_curve(lambda b: b)) == pytest.approx(1)
    # The examples' dip at 20 reads near 20, its doubling outside "about 20" ± 25 %.
    assert 15 <= worst_burst(burst_curve(dip(20))) <= 25
    assert worst_burst(burst_curve(dip(40))) > 25


def test_the_codes_data_rates() -> None:
    assert data_fraction("none") == 1
    assert data_fraction("rate 1/2") == pytest.approx(256 / 510)  # two BCH(255,131) codewords
    assert data_fraction("rate 1/3") == pytest.approx(256 / 765)  # three BCH(255,87)


def test_the_no_fading_null_is_orders_below_table_1() -> None:
    assert no_fading_pe("none", 1, 10, 0.313) < 1e-3
    assert no_fading_pe("rate 1/3", 1, 10, 0.08) < 1e-12


def quick_fig4() -> Context:
    """Fig. 4's quick grid of burst lengths; the full run's spec (its bursts: sweeps.BURSTS)."""
    rows = frame({"n_l": [1, 16, 128], "burst": [1.0, 5.0, 20.0, 100.0]}, lambda n_l, burst: 0.9 if n_l == 128 else 0.1)
    return Context(Path("."), quick=True, runs={"fig4": rows}, specs={"fig4": REPRODUCTION.plan("fig4").spec})


def test_a_quick_run_lacking_the_full_runs_points_is_never_reproduced() -> None:
    v = claim("nl128-persists").evaluate(quick_fig4())
    assert v.state is State.INCONCLUSIVE
    assert "not measured in this run: burst 2, burst 10, burst 50, burst 200" in v.reason


def test_table_1_judges_the_modulation_the_figures_run() -> None:
    good = claim("table1-pe").examples.faithful()["table1"]
    off = good.assign(pe=good["pe"].where(good["modulation"] == "bpsk", good["pe"] * 3))
    assert claim("table1-pe").evaluate({"table1": off}).state is State.REPRODUCED
    bad = good.assign(pe=good["pe"].where(good["modulation"] == "dpsk", good["pe"] * 3))
    assert claim("table1-pe").evaluate({"table1": bad}).state is State.NOT_REPRODUCED


def fig2(markov_gap: float, fading_gap: float) -> pd.DataFrame:
    def norm(nt: str, fd: int, snr: int, drive: str) -> float:
        return 0.6 + (markov_gap if drive == "markov" else fading_gap) * (nt == "512 B")
    return frame({"nt": ["512 B", "1024 B"], "fd": [1, 100], "snr": [10, 20, 30], "drive": ["markov", "fading"]},
                 norm)


def test_a_probe_that_removes_the_cause_closes_the_gap() -> None:
    c = claim("packet-size-negligible-at-1hz")
    closed = c.evaluate({"fig2": fig2(0.15, 0.0)})
    assert closed.state is State.NOT_REPRODUCED
    assert "closes 100% of the gap" in closed.probe and ": demonstrated" in closed.probe
    kept = c.evaluate({"fig2": fig2(0.15, 0.15)})
    assert kept.state is State.NOT_REPRODUCED and "not demonstrated" in kept.probe


def test_a_claim_without_a_probe_says_cause_unknown() -> None:
    c = claim("most-gain-from-arq")
    assert c.probe is None
    v = c.evaluate(c.examples.null())
    assert v.state is not State.REPRODUCED
    if v.state is State.NOT_REPRODUCED:
        assert v.probe.startswith("cause unknown")


def test_the_claims_read_the_chain_driven_runs() -> None:
    # Fading-driven rows with the opposite effect do not move a Fig. 2 claim.
    rows = fig2(0.0, 0.3)
    assert claim("packet-size-negligible-at-1hz").evaluate({"fig2": rows}).state is State.REPRODUCED


def test_each_claim_says_what_drives_its_runs() -> None:
    # The source column of the report names the drive: the fitted chain (as the paper),
    # the chain set directly (Figs. 3-4), the fit itself (Table 1), or the fading channel.
    drives = ("on the fitted chain (as the paper)", "on the chain set from P_E", "the fit of the fading channel",
              "on the fading channel itself")
    for c in CLAIMS.values():
        assert sum(d in c.source for d in drives) == 1, (c.key, c.source)
        assert ("on the fading channel itself" in c.source) == c.key.endswith("-fading"), c.key


def test_fig2_and_fig5_claims_are_judged_on_both_drives() -> None:
    # Both sweeps run the fitted chain and the fading channel: each claim on them has a
    # twin on the fading runs, right after it in the report.
    keys = [c.key for c in REPRODUCTION.claims]
    for c in REPRODUCTION.claims:
        if c.sweeps and set(c.sweeps) <= {"fig2", "fig5"}:  # Fig. 7 has no fading runs
            twin = CLAIMS[c.key if c.key.endswith("-fading") else f"{c.key}-fading"]
            assert twin.band == c.band and twin.words == c.words
            if not c.key.endswith("-fading"):
                assert keys.index(twin.key) == keys.index(c.key) + 1
    # 512 against 1024 B at 1 Hz: a gap on the chain, none on the fading channel.
    runs = {"fig2": fig2(0.15, 0.0)}
    assert claim("packet-size-negligible-at-1hz").evaluate(runs).state is State.NOT_REPRODUCED
    assert claim("packet-size-negligible-at-1hz-fading").evaluate(runs).state is State.REPRODUCED


def fig5(markov_128: float, fading_128: float) -> pd.DataFrame:
    def norm(link: str, snr: int, drive: str) -> float:
        return (markov_128 if drive == "markov" else fading_128) if link == "n_l = 128" else 0.02
    return frame({"link": ["no LL", "n_l = 1", "n_l = 8", "n_l = 16", "n_l = 128"], "snr": [10, 20, 30],
                  "drive": ["markov", "fading"]}, norm)


def test_fig5_twin_reads_the_fading_runs() -> None:
    runs = {"fig5": fig5(0.67, 0.47)}
    assert claim("nl128-at-10db").evaluate(runs).state is State.REPRODUCED
    assert claim("nl128-at-10db-fading").evaluate(runs).state is State.NOT_REPRODUCED


def fig7(half: float, third: float) -> pd.DataFrame:
    return frame({"code": ["none", "rate 1/2", "rate 1/3"], "fd": [1, 100], "snr": [10, 20, 30]},
                 lambda code, fd, snr: {"none": 0.6, "rate 1/2": half, "rate 1/3": third}[code])


def test_rate_third_must_improve_on_rate_half_but_little() -> None:
    # "the performance improvement with rate 1/3 FEC relative to rate 1/2 FEC is not very
    # much": an improvement (>= 0), at most "very close" (0.10). Rate 1/3 below rate 1/2
    # is no improvement, however small the gap.
    c = claim("rate-third-barely")
    assert (c.band.low, c.band.high) == (0.0, 0.10)
    assert c.evaluate({"fig7": fig7(0.45, 0.37)}).state is State.NOT_REPRODUCED
    assert c.evaluate({"fig7": fig7(0.45, 0.5)}).state is State.REPRODUCED
    assert c.evaluate({"fig7": fig7(0.45, 0.7)}).state is State.NOT_REPRODUCED


def test_table_1_rows_hold_to_the_stated_number_rule() -> None:
    # Each entry is a number the paper states: ours / the paper's within +-25 %.
    for key in ("table1-pe", "table1-burst"):
        assert (claim(key).band.low, claim(key).band.high) == pytest.approx((0.75, 1.25))


def test_most_gain_from_arq_quotes_both_sections() -> None:
    words = claim("most-gain-from-arq").words
    assert "most of the throughput improvement comes from LL ARQ than FEC" in words
    assert "it was the LL ARQ that gave the most improvement in throughput" in words
