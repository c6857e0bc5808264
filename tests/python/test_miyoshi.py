"""Miyoshi et al.'s Appendix model, the thresholds derived from it, and the packet stream
(lossy.papers.miyoshi): each equation against a hand computation or the core's stream."""

from __future__ import annotations

import json
import math

import pytest

from lossy._core import fec_stream
from lossy.papers.miyoshi import analytic, stream
from lossy.papers.miyoshi.analytic import BCH36, BCH64, BCH92, FEC94, LADDER, NONE, TABLES_LADDER


def test_eq_a1_and_a4_by_hand():
    # A·1: 1 − (1 − 7.5e-4)^800.
    assert analytic.packet_error(7.5e-4, 800) == pytest.approx(1 - (1 - 7.5e-4) ** 800, rel=1e-12)
    # A·4 with c = 1: 1 − (1 − p)^l − l·p·(1 − p)^(l − 1).
    p, l = 1e-3, 127
    want = 1 - (1 - p) ** l - l * p * (1 - p) ** (l - 1)
    assert analytic.packet_error(p, l, 1) == pytest.approx(want, rel=1e-9)
    with pytest.raises(ValueError, match="p_b: 1.5 is not a bit error ratio"):
        analytic.packet_error(1.5, 800)


def test_eq_a5_both_ways_and_the_tables_counts():
    assert analytic.overhead_fraction(BCH92) == pytest.approx(35 / 127)
    assert analytic.overhead_fraction(BCH92, printed=True) == pytest.approx(92 / 127)
    assert analytic.overhead_fraction(NONE) == 0
    # Table 3's (127,64) row: nothing lost at 1.5e-4, overhead 63/127 of 50,000 = 24,803.
    c = analytic.counts(1.5e-4, BCH64)
    assert (round(c.lost), round(c.overhead), round(c.available)) == (0, 24803, 25197)
    # A·7 as printed charges every packet sent: the same here, since nothing is lost.
    assert analytic.counts(1.5e-4, BCH64, charge="sent").overhead == pytest.approx(c.overhead)
    with pytest.raises(ValueError, match="charge"):
        analytic.counts(1e-4, BCH64, charge="all")


def test_codeword_frames_follow_the_cores_rule():
    # 1120 bits in ⌈1120/92⌉ = 13 codewords of 127 bits: efficiency 1120/1651 when error-free.
    assert analytic.codeword_efficiency(0.0, BCH92, 1120) == pytest.approx(1120 / 1651)
    assert analytic.codeword_loss(0.0, BCH36, 1120) == 0
    assert analytic.codeword_loss(1e-3, NONE, 1120) == pytest.approx(1 - 0.999 ** 1120)


def test_crossing_and_thresholds():
    # Two straight lines in log x cross where they should.
    f = analytic.interpolated([1e-6, 1e-2], [1.0, 0.0])
    g = analytic.interpolated([1e-6, 1e-2], [0.5, 0.5])
    assert analytic.crossing(f, g, 1e-6, 1e-2) == pytest.approx(1e-4, rel=1e-6)
    assert analytic.crossing(g, f, 1e-6, 1e-2) is None  # f never overtakes g from below
    share = {"stream": lambda b, c: analytic.available_fraction(b, c, 800),
             "frame": lambda b, c: analytic.codeword_efficiency(b, c, 1120)}
    for kind, steps in (("stream", analytic.stream_thresholds()), ("frame", analytic.frame_thresholds(1120))):
        assert [s.stronger for s in steps] == [FEC94 if kind == "stream" else BCH92, BCH64, BCH36]
        assert all(0 < s.down <= s.up <= 1 for s in steps), steps
        assert [s.ber for s in steps] == sorted(s.ber for s in steps)
        for s in steps:  # at the crossing both codes leave the link the same share
            assert share[kind](s.ber, s.weaker) == pytest.approx(share[kind](s.ber, s.stronger), rel=1e-6)
    ctl = analytic.control(analytic.stream_thresholds(), window=7)
    assert ctl["window"] == 7 and len(ctl["up"]) == len(ctl["down"]) == 3


def test_the_thresholds_are_read_at_the_simulated_crossings():
    """Issue 25 item 4 (b): A–D come from our simulated Fig. 3 curves (setup.CROSSINGS),
    not from the air-time model, whose first crossing (3.5e-4) is 5× above ours."""
    from lossy.papers.miyoshi import setup

    model = analytic.frame_thresholds(setup.FRAME_BITS, LADDER)[0].ber
    first, lo, hi = setup.CROSSINGS[0]
    assert lo <= first <= hi and 5e-5 < first < 1e-4 and model > 3 * hi
    ctl = setup.thresholds()
    for i, ((b, _, _), weak, strong) in enumerate(zip(setup.CROSSINGS, LADDER, LADDER[1:])):
        up = max(analytic.codeword_loss(b, weak, setup.FRAME_BITS), setup.up_floor())
        assert ctl["up"][i] == pytest.approx(up)
        assert ctl["down"][i] == pytest.approx(analytic.codeword_loss(b, strong, setup.FRAME_BITS))
    # The crossing of two simulated curves: where the stronger's mean passes the weaker's.
    assert analytic.simulated_crossing([1e-5, 1e-4], [250e3, 150e3], [186e3, 186e3]) == pytest.approx(
        10 ** (-5 + 64 / 100), rel=1e-6)


def test_the_tables_first_code_is_127_94():
    """Issue 25 item 5: the overhead column of Tables 3–4 is 33/127 of the received
    packets for the first code (FEC(127,94)), not BCH(127,92)'s 35/127; and it is a block
    code the stream runs with t = 4."""
    for case in stream.CASES:
        lost, received, overhead, _ = stream.PAPER[case][FEC94.label]
        assert overhead == pytest.approx(received * analytic.overhead_fraction(FEC94), abs=1)
        assert abs(overhead - received * analytic.overhead_fraction(BCH92)) > 100
    assert (FEC94.n, FEC94.k, FEC94.t) == (127, 94, 4) and TABLES_LADDER[1] == FEC94
    r = fec_stream(json.dumps({"packets": 20_000, "packet_bits": 800, "rate": "384 kbps",
                               "loss": {"model": "ber", "ber": 0.0}, "codes": [FEC94.scenario()]}), 1)
    assert r["overhead"] == pytest.approx(20_000 * 33 / 127)


def test_the_stream_matches_the_appendix_on_independent_errors():
    """On independent bit errors the core's stream is Eqs. A·1–A·8 (table counting)."""
    for code in (*LADDER, FEC94):
        cfg = {"packets": 50_000, "packet_bits": 800, "rate": "384 kbps",
               "loss": {"model": "ber", "ber": 7.5e-4}, "codes": [code.scenario()]}
        r = fec_stream(json.dumps(cfg), 3)
        a = analytic.counts(7.5e-4, code)
        sd = math.sqrt(50_000 * analytic.packet_error(7.5e-4, 800, code.t) + 1)
        assert abs(r["lost"] - a.lost) < 4 * sd, (code, r, a)
        assert r["overhead"] == pytest.approx(r["received"] * analytic.overhead_fraction(code))


def test_each_reading_of_the_error_state_reproduces_what_it_promises():
    for case, (p_ge, p_eg, p_b, p_err) in stream.CASES.items():
        pi_e = p_ge / (p_ge + p_eg)
        assert stream.error_state_ber(case, "10p_b") == pytest.approx(10 * p_b)
        assert stream.error_state_ber(case, "p_b") * pi_e == pytest.approx(p_b)
        b = stream.error_state_ber(case, "p_err")
        assert pi_e * (1 - (1 - b) ** 800) == pytest.approx(p_err)
    with pytest.raises(ValueError, match="reading"):
        stream.error_state_ber("table3", "both")


def test_doppler_of_eq_1():
    # About 3 Hz per m/s at 900 MHz.
    assert stream.doppler(1.0) == pytest.approx(3.0, rel=0.01)


def test_the_papers_own_gains():
    from lossy.papers.miyoshi.claims import gains

    g = gains()
    assert g["table3"] == pytest.approx(46706 / 45539 - 1)
    assert g["table4"] == pytest.approx(32564 / 27758 - 1)


def test_bch36_is_the_strongest_and_slowest():
    assert BCH36.t == 15 and analytic.overhead_fraction(BCH36) == pytest.approx(91 / 127)


def test_the_scenario_is_table_1():
    """Fig. 1 and Table 1: 100-byte segments, 40-byte ACKs, 50 kB buffers, 1 ms delays, a
    384 kbit/s radio link BS -> MH with bit errors, the wired hops faster than it."""
    import tomllib

    from lossy.papers.miyoshi.setup import SCENARIO

    with open(SCENARIO, "rb") as f:
        s = tomllib.load(f)
    tcp = s["flows"][0]["tcp"]
    assert (tcp["variant"], tcp["mss"], tcp["ack_size"]) == ("reno", "100 B", "40 B")
    assert all(link["delay"] == "1 ms" and link["queue"] == "50 KB" for link in s["links"])
    radio = s["links"][3]
    assert radio["between"] == ["BS", "MH"] and radio["rate"] == "384 kbps" and radio["loss"]["model"] == "ber"
    assert all(link["rate"] == "10 Mbps" for link in s["links"][:3])


def test_no_packet_is_lost_to_congestion():
    """§2: losses come from transmission errors only; no queue overflows, with FEC's
    parity on the radio link or without."""
    import lossy
    from lossy.papers.miyoshi.setup import FIG2, LOSS, SCENARIO

    for scheme in ("Snoop+ELN", "FEC BCH(127,92)"):
        r = lossy.run(SCENARIO, overrides={**FIG2[scheme], f"{LOSS}.ber": 1e-5, "duration": "20 s"})
        assert r.summary["drops_queue"] == 0, scheme
        assert r.summary["flows.0.goodput_bps"] > 150e3, scheme


def test_table_2_and_the_captions():
    # Table 2: (p_GE, p_EG); the captions of Tables 3–4: (p_b, p_err).
    assert stream.CASES == {"table3": (0.006, 0.05, 0.00015, 0.090), "table4": (0.006, 0.007, 0.00075, 0.445)}
    # Every row of the tables adds up: received = sent − lost, available = received − overhead.
    for rows in stream.PAPER.values():
        for lost, received, overhead, available in rows.values():
            assert lost + received == stream.PACKETS and received - overhead == available
