"""The claims protocol held to every claim of every reproduction: each claim's band is
two-sided and finite (or marked direction-only), its null and its exaggeration are never
"reproduced", its faithful example is, and its paper's inventory names it. Then the
protocol's own pieces: the jackknife against the t-interval, the verdict from a CI, the
replications that would decide, and a quick run that lacks points never "reproduced"."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, List, Tuple

import pytest

import lossy.papers
from lossy.papers import synthetic
from lossy.papers.bands import WORDS, BadBand, Band
from lossy.papers.context import Context
from lossy.papers.estimate import Estimate, jackknife, mean_of, ratio_of
from lossy.papers.judge import Measurement, Part, judge, replications_to_decide
from lossy.papers.measures import ratio_per_point
from lossy.papers.model import Claim, Examples
from lossy.papers.verdict import State
from lossy.shipped import scenarios_dir
from lossy.summary import paired, t_interval


def every_claim() -> List[Tuple[str, Claim]]:
    out = []
    for name in lossy.papers.names():
        for c in lossy.papers.get(name).claims:
            if isinstance(c, Claim):
                out.append((f"{name}:{c.key}", c))
    return out


CLAIMS = every_claim()
IDS = [k for k, _ in CLAIMS]


@pytest.mark.parametrize("key,claim", CLAIMS, ids=IDS)
def test_the_band_is_two_sided_or_marked_direction_only(key: str, claim: Claim) -> None:
    b = claim.band
    assert b.direction_only or (math.isfinite(b.low) and math.isfinite(b.high)), key
    assert claim.words and claim.quantity and claim.source and claim.why_here, key


@pytest.mark.parametrize("key,claim", CLAIMS, ids=IDS)
def test_the_null_is_never_reproduced(key: str, claim: Claim) -> None:
    v = claim.evaluate(claim.examples.null())
    assert v.checked, f"{key}: the null could not be checked: {v.reason}"
    assert v.state is not State.REPRODUCED, f"{key} passes on its null: {v.ours}; {v.reason}"


@pytest.mark.parametrize("key,claim", CLAIMS, ids=IDS)
def test_the_exaggeration_is_never_reproduced(key: str, claim: Claim) -> None:
    make = claim.examples.exaggerated
    if make is None:
        # Only a claim that states no magnitude to double may lack one: likeness or a direction.
        likeness = claim.band.low < 1 < claim.band.high or claim.band.low < 0 < claim.band.high
        assert claim.band.direction_only or likeness, f"{key} states a magnitude but has no exaggeration"
        return
    v = claim.evaluate(make())
    assert v.checked, f"{key}: the exaggeration could not be checked: {v.reason}"
    assert v.state is not State.REPRODUCED, f"{key} passes on its exaggeration: {v.ours}; {v.reason}"


@pytest.mark.parametrize("key,claim", CLAIMS, ids=IDS)
def test_the_faithful_example_is_reproduced(key: str, claim: Claim) -> None:
    v = claim.evaluate(claim.examples.faithful())
    assert v.state is State.REPRODUCED, f"{key} fails on the paper's own effect: {v.ours}; {v.reason}"


def test_every_claim_is_on_the_protocol_and_every_paper_has_its_inventory() -> None:
    for name in lossy.papers.names():
        r = lossy.papers.get(name)
        assert all(isinstance(c, Claim) for c in r.claims), name
        assert bool(r.claims) != r.measurement, f"{name}: claims, or a measurement labelled so, not both"
        assert r.inventory is not None, f"{name} has no inventory"
        listed = set(r.inventory.claim_keys())
        missing = [c.key for c in r.claims if c.key not in listed]
        assert not missing, f"{name}: claims missing from the inventory: {missing}"


# --- the protocol's pieces -----------------------------------------------------------


def test_bands_are_two_sided_and_finite() -> None:
    with pytest.raises(BadBand):
        Band(1.3, math.inf, "open")
    with pytest.raises(BadBand):
        Band(1.8, 1.3, "reversed")
    assert Band.above(1.0, "higher").direction_only
    assert Band.word("comparable").low == pytest.approx(1 - WORDS["comparable"])
    assert Band.stated(12, '"12 times"').text() == "9.00× to 15.00×"
    with pytest.raises(BadBand):
        Band.word("kind of alike")


def test_the_jackknife_of_a_mean_is_the_t_interval() -> None:
    df = synthetic.runs({"x": [1.0]}, lambda x: 100.0, replications=7, spread=0.1)
    e = jackknife(df, mean_of("goodput"))
    n, mean, _, half = t_interval(df["goodput"].to_numpy())
    assert (e.n, e.value) == (n, pytest.approx(mean))
    assert e.high - e.value == pytest.approx(half)


def test_the_jackknife_of_a_paired_ratio_is_near_the_paired_difference_interval() -> None:
    df = synthetic.runs({"scheme": ["a", "b"]}, lambda scheme: 150.0 if scheme == "b" else 100.0,
                        replications=10, spread=0.05)
    e = jackknife(df, ratio_of(mean_of("goodput", scheme="b"), mean_of("goodput", scheme="a")))
    row = paired(df, "goodput", "scheme", "a").iloc[0]
    assert e.value == pytest.approx(float(row["ratio"]))
    # The delta method for a ratio includes the baseline's noise; the paired difference
    # over the baseline's mean does not: same order, not the same width.
    assert 0.3 < e.half_width / (float(row["half_width"]) / float(row["mean_baseline"])) < 3


def est(value: float, half: float, n: int = 10) -> Estimate:
    return Estimate(value, value - half, value + half, n)


BAND = Band.between(1.3, 1.8, '"30–80 per cent more"')


def test_the_verdict_comes_from_the_ci() -> None:
    def state(*parts: Estimate, missing: Tuple[str, ...] = ()) -> State:
        return judge(Measurement([Part(f"p{i}", e) for i, e in enumerate(parts)], missing), BAND).state

    assert state(est(1.5, 0.1)) is State.REPRODUCED
    assert state(est(2.1, 0.1)) is State.NOT_REPRODUCED
    assert state(est(1.75, 0.1)) is State.INCONCLUSIVE  # the mean is inside, the CI is not
    assert state(est(1.5, 0.1), est(2.1, 0.1)) is State.NOT_REPRODUCED
    assert state(est(1.5, 0.1), est(1.75, 0.1)) is State.INCONCLUSIVE
    assert state(est(1.5, 0.1), missing=("p = 0.1",)) is State.INCONCLUSIVE
    assert state(Estimate(1.5, math.nan, math.nan, 1)) is State.INCONCLUSIVE
    assert state(Estimate.of_exact(1.5, "a model")) is State.REPRODUCED
    assert state(Estimate(math.nan, math.nan, math.nan, 0)) is State.UNCHECKED


def test_the_replications_that_would_decide() -> None:
    # Half-width 0.1 at n = 10, the mean 0.05 from the end: (0.1 / 0.05)² × 10 = 40.
    assert replications_to_decide(est(1.75, 0.1), BAND) == 40
    assert replications_to_decide(est(1.8, 0.1), BAND) is None
    v = judge(Measurement([Part("", est(1.75, 0.1))]), BAND)
    assert v.needed == 40 and "about 40 replications would decide it" in v.reason


def claim(measure: Any) -> Claim:
    null = {"s": synthetic.runs({"p": [0.1], "scheme": ["a", "b"]}, lambda p, scheme: 100.0)}
    return Claim("c", "b is 30–80 % above a", "§1", '"30–80 per cent more"', "b ÷ a", BAND, measure, ["s"],
                 Examples(null=lambda: null, faithful=lambda: null), "anywhere")


def test_a_quick_run_missing_a_point_is_never_reproduced() -> None:
    rows = synthetic.runs({"p": [0.1, 0.2], "scheme": ["a", "b"]},
                          lambda p, scheme: 150.0 if scheme == "b" else 100.0)
    full = {"name": "s", "scenario": str(scenarios_dir() / "one-hop.toml"),
            "variants": {"scheme": {"a": {"links.0.delay": "10 ms"}, "b": {"links.0.delay": "20 ms"}}},
            "grid": {"p": {"path": "links.0.loss.p", "values": [0.1, 0.2, 0.3]}}}
    ctx = Context(out=Path("."), quick=True, runs={"s": rows}, specs={"s": full})
    c = claim(lambda ctx: ratio_per_point(ctx, "s", "goodput", "scheme", "b", "a", "p"))
    v = c.evaluate(ctx)
    assert v.state is State.INCONCLUSIVE and "not measured in this run: p = 0.3" in v.reason


def test_a_measure_that_raises_could_not_be_checked() -> None:
    v = claim(lambda ctx: 1 / 0).evaluate({"s": synthetic.runs({"p": [0.1]}, lambda p: 1.0)})
    assert v.state is State.UNCHECKED and v.reason.startswith("ZeroDivisionError")


def test_the_intervals_of_several_parts_hold_at_once() -> None:
    from scipy.special import stdtrit

    from lossy.papers.judge import simultaneous

    one = simultaneous([Part("a", est(1.5, 0.1))])[0].estimate
    assert one.half_width == pytest.approx(0.1)  # one part: its own 95 % interval
    four = simultaneous([Part(str(i), est(1.5, 0.1)) for i in range(4)])
    factor = float(stdtrit(9, 1 - 0.05 / 8)) / float(stdtrit(9, 0.975))
    assert all(p.estimate.half_width == pytest.approx(0.1 * factor) for p in four)
    # A part just outside at 95 % is no longer "wholly outside" when 14 parts must hold at once.
    parts = [Part("edge", est(1.18, 0.1))] + [Part(str(i), est(1.5, 0.05)) for i in range(13)]
    assert judge(Measurement(parts), BAND).state is State.INCONCLUSIVE


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", lossy.papers.names())
def test_every_test_an_inventory_cites_exists(name: str) -> None:
    """An inventory's `tests` are `path::name` of a Python or Rust test in this tree."""
    inventory = lossy.papers.get(name).inventory
    assert inventory is not None
    for item in inventory.items:
        for test in item.tests:
            path, function = test.split("::")
            source = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"\b(def|fn) {re.escape(function)}\b", source), f"{name} {item.ref}: no test {test}"


def test_a_small_remainder_of_a_gap_is_not_printed_as_zero() -> None:
    from lossy.papers.model import share_text

    assert share_text(0.16) == "16%"
    assert share_text(0.003) == "0.3%"
    assert share_text(0.0) == "0%"
