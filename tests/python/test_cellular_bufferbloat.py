"""cellular-bufferbloat (python/lossy/papers/cellular/): the traces' mean rates (and so
the 2-second buffers) are the trace files', the sweeps move each trace with its uplink
and buffer, the claims are registered with their inventory, and a short real run."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from lossy.papers import get
from lossy.papers.cellular.sweeps import (AQM, BUFFER_SECONDS, FLOOR_TRACES, LOSSY_HOP, MEAN_BPS, MSS, PIE_TARGET_S,
                                          PROBE_CONSTANT, PROBE_FLOOR, PROBE_STEADY, TRACES, UP_MEAN_BPS,
                                          buffer_packets, floor_mss, trace_name)


@pytest.mark.parametrize("trace", TRACES)
def test_the_mean_rates_are_the_traces(trace_mirror: Path, trace: str) -> None:
    stamps = [int(x) for x in (trace_mirror / "mahimahi" / f"{trace}.down").read_text().split()]
    assert MEAN_BPS[trace] == round(len(stamps) * 1504 * 8 / (stamps[-1] / 1000))
    up = [int(x) for x in (trace_mirror / "mahimahi" / f"{trace}.up").read_text().split()]
    assert UP_MEAN_BPS[trace] == round(len(up) * 1504 * 8 / (up[-1] / 1000))


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


def test_the_steady_probe_holds_both_directions_at_the_traces_means() -> None:
    z = PROBE_STEADY.spec["zip"]
    assert z["trace"]["values"] == [f"{MEAN_BPS[t]} bps" for t in TRACES]
    assert z["uplink"] == {"path": "links.1.reverse_capacity.rate", "values": [f"{UP_MEAN_BPS[t]} bps" for t in TRACES]}
    assert z["buffer"] == AQM.spec["zip"]["buffer"]
    assert PROBE_STEADY.spec["set"]["links.1.reverse_capacity"]["kind"] == "constant"


def test_the_floor_probe_shrinks_segments_only_where_two_packets_exceed_pies_target() -> None:
    # 2 packets (segment + 52 B of headers) at the mean rate within QDELAY_REF (RFC 8033 §5: 15 ms).
    for t in TRACES:
        two_packets_s = 2 * (floor_mss(t) + 52) * 8 / MEAN_BPS[t]
        assert two_packets_s <= PIE_TARGET_S or floor_mss(t) == MSS
        assert 2 * (floor_mss(t) + 53) * 8 / MEAN_BPS[t] > PIE_TARGET_S or floor_mss(t) == MSS
    assert FLOOR_TRACES == ["Verizon-EVDO-driving"] and floor_mss("Verizon-EVDO-driving") == 437
    z = PROBE_FLOOR.spec["zip"]
    assert z["mss"]["values"] == ["437 B"] and z["trace"]["values"] == [f"{MEAN_BPS['Verizon-EVDO-driving']} bps"]
    assert z["uplink"]["values"] == [f"{UP_MEAN_BPS['Verizon-EVDO-driving']} bps"] and z["buffer"]["values"] == ["87 packets"]


def test_the_probes_chain_their_steps() -> None:
    claims = {c.key: c for c in get("cellular-bufferbloat").claims}
    pie = claims["pie-average-latency"].probe
    cost = claims["aqm-little-goodput-cost"].probe
    assert pie is not None and cost is not None
    assert [list(p.sweeps) for p in pie.steps()] == [["probe-constant"], ["probe-steady"], ["probe-floor", "probe-steady"]]
    assert [list(p.sweeps) for p in cost.steps()] == [["probe-constant"], ["probe-steady"]]


def test_the_floor_step_takes_the_other_traces_from_the_steady_probe() -> None:
    """Its measure: Verizon-EVDO-driving from probe-floor, the rest from probe-steady
    (synthetic rows: PIE's sojourn 40 ms on the steady probe, 20 ms on the floor one)."""
    import pandas as pd

    from lossy.papers.context import as_context

    def rows(traces: list, sojourn: float) -> pd.DataFrame:
        return pd.DataFrame([{"trace": f"{MEAN_BPS[t]} bps", "queue": "pie", "cc": "cubic", "replication": r,
                              "status": "ok", "sojourn_mean": sojourn + r} for t in traces for r in range(3)])

    claim = {c.key: c for c in get("cellular-bufferbloat").claims}["pie-average-latency"]
    assert claim.probe is not None
    last = claim.probe.steps()[-1]
    m = last.measure(as_context({"probe-steady": rows(TRACES, 40.0), "probe-floor": rows(FLOOR_TRACES, 20.0)}))
    assert [p.label for p in m.parts] == TRACES and not m.missing
    assert {p.label: round(p.estimate.value) for p in m.parts} == {t: 21 if t in FLOOR_TRACES else 41 for t in TRACES}


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
