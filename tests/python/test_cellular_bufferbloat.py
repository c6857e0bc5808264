"""cellular-bufferbloat (python/lossy/papers/cellular/): the traces' mean rates (and so
the 2-second buffers) are the trace files', the sweeps move each trace with its uplink
and buffer, the claims are registered with their inventory, and a short real run."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from lossy.papers import get
from lossy.papers.cellular.sweeps import (AQM, BUFFER_SECONDS, LOSSY_HOP, MEAN_BPS, PROBE_CONSTANT, TRACES,
                                          buffer_packets, trace_name)


@pytest.mark.parametrize("trace", TRACES)
def test_the_mean_rates_are_the_traces(trace_mirror: Path, trace: str) -> None:
    stamps = [int(x) for x in (trace_mirror / "mahimahi" / f"{trace}.down").read_text().split()]
    assert MEAN_BPS[trace] == round(len(stamps) * 1504 * 8 / (stamps[-1] / 1000))
    assert (trace_mirror / "mahimahi" / f"{trace}.up").is_file()


def test_each_buffer_holds_two_seconds_at_the_mean_rate() -> None:
    for t in TRACES:
        assert buffer_packets(t) * 1500 * 8 / MEAN_BPS[t] == pytest.approx(BUFFER_SECONDS, rel=0.01)
    assert buffer_packets("Verizon-EVDO-driving") == 87 and buffer_packets("TMobile-LTE-short") == 2791


def test_each_trace_moves_with_its_uplink_and_buffer() -> None:
    for plan in (AQM, LOSSY_HOP, PROBE_CONSTANT):
        z = plan.spec["zip"]
        rows = list(zip(z["trace"]["values"], z["uplink"]["values"], z["buffer"]["values"]))
        assert [trace_name(down) for down, _, _ in rows] == TRACES
        for (down, up, buf), t in zip(rows, TRACES):
            assert up == f"mahimahi:{t}.up" and buf == f"{buffer_packets(t)} packets"
    assert list(AQM.spec["variants"]["queue"]) == ["droptail", "codel", "pie"]
    assert list(LOSSY_HOP.spec["variants"]["scheme"]) == ["e2e", "arq", "eln"]


def test_it_is_registered_with_its_claims_in_the_inventory() -> None:
    r = get("cellular-bufferbloat")
    assert {c.key for c in r.claims} == {"cubic-seconds-of-delay", "pie-average-latency", "aqm-little-goodput-cost"}
    assert r.inventory is not None and set(r.inventory.claim_keys()) == {c.key for c in r.claims}
    assert not r.measurement


@pytest.mark.slow
def test_a_short_run_of_one_trace(trace_mirror: Path, tmp_path: Path) -> None:
    """Verizon-LTE-short, CUBIC over DropTail and PIE (and the probe's constant rate
    under DropTail), two runs of 8 s: every run finishes, the claim is judged (its other traces missing: never reproduced), and
    CUBIC's queue under DropTail is far longer than under PIE."""
    from lossy.papers.run import reproduce
    from lossy.papers.verdict import State

    i = TRACES.index("Verizon-LTE-short")
    zip_one = {k: {"path": v["path"], "values": [v["values"][i]]} for k, v in AQM.spec["zip"].items()}
    spec = dict(AQM.spec)
    spec["quick"] = {"replications": 2, "duration": "8 s", "zip": zip_one,
                     "variants": {"queue": {q: AQM.spec["variants"]["queue"][q] for q in ("droptail", "pie")},
                                  "cc": {"cubic": AQM.spec["variants"]["cc"]["cubic"]}}}
    probe = dict(PROBE_CONSTANT.spec)
    probe["quick"] = {"replications": 2, "duration": "8 s",
                      "zip": {k: {"path": v["path"], "values": [v["values"][i]]}
                              for k, v in PROBE_CONSTANT.spec["zip"].items()},
                      "variants": {"queue": {"droptail": PROBE_CONSTANT.spec["variants"]["queue"]["droptail"]}}}
    r = get("cellular-bufferbloat").only(["cubic-seconds-of-delay"])
    r = dataclasses.replace(r, sweeps=[dataclasses.replace(AQM, spec=spec), dataclasses.replace(PROBE_CONSTANT, spec=probe)])
    outcome = reproduce(r, tmp_path, quick=True, progress=False)
    runs = outcome.ctx.runs["aqm"]
    assert (runs["status"] == "ok").all(), runs[runs["status"] != "ok"]["error"].tolist()
    [(_, verdict)] = outcome.verdicts
    assert verdict.checked and verdict.state is not State.REPRODUCED
    dt = runs[runs["queue"] == "droptail"]["sojourn_mean"].mean()
    pie = runs[runs["queue"] == "pie"]["sojourn_mean"].mean()
    assert dt > 5 * pie
