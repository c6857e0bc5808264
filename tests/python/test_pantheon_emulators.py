"""pantheon-emulators (python/lossy/papers/pantheon/): the table of 18 emulators is
experiments.yml's 'emu' section, line by line (re-parsed from the trace mirror); the
descriptions agree with the parameters (BDP fractions, RTTs, ACK traces); the sweeps
expand the table; and a short real run of one emulator."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from lossy.papers import get
from lossy.papers.pantheon import emulators as em
from lossy.papers.pantheon.sweeps import CC_NAMES, ONE_FLOW, THREE_FLOWS

yaml = pytest.importorskip("yaml")


def _yml(trace_mirror: Path) -> Path:
    return trace_mirror / "pantheon-observatory" / "experiments.yml"


def _arg(command: str, pattern: str):
    m = re.search(pattern, command)
    return m.group(1) if m else None


def test_the_table_is_experiments_yml(trace_mirror: Path) -> None:
    path = _yml(trace_mirror)
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    emu = doc["emu"]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert emu["matrix"]["flow_scenario"] == ["-f 1", "-f 3 --interval 10"]
    macro = emu["macros"]["common_param_set"]
    assert f"--run-times {em.RUNS}" in macro and f"-t {em.RUN_SECONDS}" in macro
    assert [e.scenario for e in em.EMULATORS] == [j["scenario"] for j in emu["jobs"]] == list(range(1, 19))
    for e, job in zip(em.EMULATORS, emu["jobs"]):
        cmd = " ".join(job["command"].split())
        assert lines[e.line - 1].strip() == f"- scenario: {e.scenario}", e
        assert " ".join(job["desc"].split()).startswith(e.desc), e
        assert _arg(cmd, r"--uplink-trace \{traces_dir\}/(\S+)") == e.uplink_trace
        assert _arg(cmd, r"--downlink-trace \{traces_dir\}/(\S+)") == e.downlink_trace
        mm = _arg(cmd, r'--prepend-mm-cmds "([^"]*)"')
        assert int(_arg(mm, r"mm-delay (\d+)")) == e.delay_ms
        loss = _arg(mm, r"mm-loss uplink ([0-9.]+)")
        assert (float(loss) if loss else 0.0) == e.uplink_loss
        assert "mm-loss downlink" not in mm, e
        assert _arg(cmd, r'--uplink-queue-args=([^\s"]+)') == e.uplink_queue
        assert _arg(cmd, r'--downlink-queue-args=([^\s"]+)') == e.downlink_queue
        for arg in ("uplink", "downlink"):  # every queue given is a droptail one
            kind = _arg(cmd, rf'--{arg}-queue=([^\s"]+)')
            assert kind in (None, "droptail"), (e, kind)


def test_the_descriptions_agree_with_the_parameters(trace_mirror: Path) -> None:
    by = em.by_key()
    bdp = 12e6 * 2 * 0.030 / 8  # 12 Mbit/s × RTT 60 ms = 90,000 B
    for key, fraction in (("15", 10), ("16", 3), ("17", 2), ("18", 1)):
        assert int(by[key].uplink_queue.split("=")[1]) == pytest.approx(bdp / fraction, rel=0.01)
    for key in ("07", "08", "09", "10", "11", "12"):
        rtt = re.search(r"RTT (\d+)ms", by[key].desc).group(1)
        assert 2 * by[key].delay_ms == int(rtt)
    folder = trace_mirror / "pantheon-observatory"
    assert (folder / "0.12mbps.trace").read_text().split() == ["100"]  # 1 ACK opportunity every 100 ms
    assert (folder / "10-every-200.trace").read_text().split() == ["200"] * 10


def test_mahimahi_queue_arguments_become_lossy_limits() -> None:
    assert em.queue_limit("packets=14") == "14 packets"
    assert em.queue_limit("bytes=9000") == "9000 B"
    assert em.queue_limit(None) == em.UNBOUNDED
    with pytest.raises(ValueError, match="packets=N or bytes=N"):
        em.queue_limit("delay=5")


def test_the_sweeps_expand_the_table() -> None:
    for plan, n in ((ONE_FLOW, 1), (THREE_FLOWS, 3)):
        spec = plan.spec
        assert spec["replications"] == 5 and spec["duration"] == "30 s"
        assert list(spec["variants"]["emulator"]) == [e.key for e in em.EMULATORS]
        assert list(spec["variants"]["cc"]) == list(CC_NAMES) and len(CC_NAMES) == 7
        flows = spec["set"]["flows"]
        assert len(flows) == n and [f.get("start") for f in flows] == [None, "10 s", "20 s"][:n]
        assert all(f["tcp"]["variant"] == "sack" for f in flows)
        codel = spec["variants"]["cc"]["cubic-codel"]
        assert codel["links.0.queue.kind"] == "codel" and all(codel[f"flows.{i}.tcp.cc"] == "cubic" for i in range(n))
    one = ONE_FLOW.spec["variants"]["emulator"]
    assert one["01"]["links.0.loss"] == {"model": "bernoulli", "p": 0.0477}
    assert one["01"]["links.0.queue.limit"] == "14 packets" and one["01"]["links.0.delay"] == "28 ms"
    assert one["05"]["links.0.loss"]["p"] == 0.0006 and one["06"]["links.0.loss"] == {"model": "none"}
    assert one["13"]["links.0.reverse_capacity"] == {"trace": "pantheon:0.12mbps.trace"}
    assert one["13"]["links.0.queue.limit"] == em.UNBOUNDED
    assert one["18"]["links.0.queue.limit"] == "90000 B"


def test_it_is_registered_as_a_measurement() -> None:
    r = get("pantheon-emulators")
    assert r.measurement and not r.claims and r.inventory is not None
    assert {f.key for f in r.figures} == {"one-flow-plot", "three-flows-plot", "one-flow-table", "three-flows-table", "one-flow-grid", "three-flows-grid"}


@pytest.mark.slow
def test_a_short_run_of_three_emulators(trace_mirror: Path, tmp_path: Path) -> None:
    """Emulators 1 (loss), 7 (a 1-packet policer) and 15 (a byte limit), CUBIC and CUBIC
    over CoDel, one flow, two runs of 3 s: every run finishes, the one-packet policer's
    throughput stays under its 12 Mbit/s trace, and the BDP/10 buffer's carries a quarter of it or more."""
    from lossy.papers.run import reproduce

    spec = dict(ONE_FLOW.spec)
    spec["quick"] = {"replications": 2, "duration": "3 s",
                     "variants": {"emulator": {k: ONE_FLOW.spec["variants"]["emulator"][k] for k in ("01", "07", "15")},
                                  "cc": {k: ONE_FLOW.spec["variants"]["cc"][k] for k in ("cubic", "cubic-codel")}}}
    r = get("pantheon-emulators").only(["one-flow-table"])
    r = dataclasses.replace(r, sweeps=[dataclasses.replace(ONE_FLOW, spec=spec)])
    outcome = reproduce(r, tmp_path, quick=True, progress=False)
    runs = outcome.ctx.runs["one-flow"]
    assert (runs["status"] == "ok").all(), runs[runs["status"] != "ok"]["error"].tolist()
    assert len(runs) == 3 * 2 * 2
    policer = runs[runs["emulator"] == "07"]
    assert (policer["throughput"] > 0).all() and (policer["throughput"] < 12.1e6).all()
    bdp10 = runs[runs["emulator"] == "15"]  # 12 Mbit/s, a 9,000-byte buffer: 3 s of slow start and more
    assert (bdp10["throughput"] > 3e6).all() and (bdp10["throughput"] < 12.1e6).all()


def test_a_measurement_with_claims_is_refused() -> None:
    import dataclasses as dc

    from lossy.papers.cellular.claims import CLAIMS as CELLULAR
    from lossy.papers.model import BadReproduction

    r = get("cellular-bufferbloat")
    with pytest.raises(BadReproduction, match="a measurement has no claims; it has cubic-seconds-of-delay"):
        dc.replace(r, measurement=True, claims=CELLULAR[:1])
