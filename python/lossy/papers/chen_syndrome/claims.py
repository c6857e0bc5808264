"""Chen et al.'s claims on Figs. 10–14 and the MH → FH direction (§6). The paper gives
curves without numbers; each band comes from its words (bands.py), each quantity is
measured per loss rate and connection with a 95 % jackknife CI over the replications,
the schemes of a sweep paired by replication. The claims beyond the figures (Table 1,
§1's coexistence, x ≠ 50) are in claims_added.py."""

from __future__ import annotations

from functools import partial
from typing import List

from .. import synthetic
from ..bands import Band
from ..context import Context
from ..estimate import mean_of
from ..judge import Measurement
from ..measures import joined, per_point
from ..model import Claim, Examples, Runs
from . import examples as ex
from .claims_added import ADDED
from .examples import constant
from .probes import timers_2000
from .quantities import direction_ratios, excess_percent, handoff_ratios, high, s1_over_s2, scheme_ratios
from .schemes import PAPER

def near_snoop(sweep: str, readings: List[str]) -> partial[Measurement]:
    return partial(lambda ctx, s, r: scheme_ratios(ctx, s, [("syndrome", x) for x in r]), s=sweep, r=readings)


def above_reno(sweep: str) -> partial[Measurement]:
    return partial(lambda ctx, s: scheme_ratios(ctx, s, [("syndrome", "reno"), ("snoop", "reno")], keep=high),
                   s=sweep)


# S2's worst case, named by the paper (§6 on Fig. 12).
WORST_DUP = 0.1
# Below which no notable discrepancy is seen: dup ≤ 0.05 for S1, dup < 0.1 for S2 (at 0.1
# the paper places S2's worst case, so 0.1 is read as the threshold's far side).
CLOSE_BELOW = {"S1": lambda d: d <= 0.05 + 1e-12, "S2": lambda d: d < WORST_DUP - 1e-12}


def dup_close(sweep: str) -> partial[Measurement]:
    def measure(ctx: Context, s: str) -> Measurement:
        each = [scheme_ratios(ctx, s, [("syndrome", "snoop")], "dup", CLOSE_BELOW[f], [f]) for f in ["S1", "S2"]]
        return Measurement([p for m in each for p in m.parts], [x for m in each for x in m.missing])
    return partial(measure, s=sweep)


def dup_worst(sweep: str) -> partial[Measurement]:
    def measure(ctx: Context, s: str) -> Measurement:
        stat = excess_percent(mean_of("S2", scheme="syndrome"), mean_of("S2", scheme="snoop"))
        return joined(["S2, syndrome over snoop"],
                      [per_point(ctx, s, "dup", lambda d: stat, lambda d: abs(d - WORST_DUP) < 1e-12)])
    return partial(measure, s=sweep)


def handoffs(sweep: str) -> partial[Measurement]:
    return partial(lambda ctx, s: handoff_ratios(ctx, s, [("syndrome", "snoop"), ("syndrome", "reno")]), s=sweep)


def directions(up: str, down: str) -> partial[Measurement]:
    return partial(lambda ctx, u, d: direction_ratios(ctx, u, d, PAPER), u=up, d=down)


def handoff_rows(syndrome: float, snoop: float, reno: float) -> Runs:
    level = {"syndrome": syndrome, "snoop": snoop, "reno": reno}
    return {"handoffs": synthetic.runs({"scheme": list(level)},
                                          lambda scheme: {"advance_S1": 8e5 * level[scheme],
                                                          "advance_S2": 5e5 * level[scheme]})}


FIG10 = "§6 on Fig. 10"
LIKE_SNOOP = {"syndrome": constant(1.0), "snoop": constant(1.0)}
BELOW_SNOOP = {"syndrome": constant(0.7), "snoop": constant(1.0)}

CLAIMS: List[Claim] = [
    Claim("syndrome-near-snoop", "Syndrome's throughput is very close to Snoop's over the range of p (Fig. 10)",
          FIG10, "the performance of syndrome is very close, and comparable, to that of SNOOP for a wide range of "
          "packet loss probabilities",
          "Syndrome ÷ Snoop throughput at each p, S1 and S2, against Snoop on the first duplicate ACK (snoop) "
          "and as ns-2 runs it (snoop-ns2, on the second)",
          Band.word("very close"), near_snoop("base", ["snoop", "snoop-ns2"]), ["base"],
          Examples(null=ex.one_sweep("base", {**BELOW_SNOOP, "snoop-ns2": constant(1.0)}),
                   faithful=ex.one_sweep("base", {**LIKE_SNOOP, "snoop-ns2": constant(1.0)})),
          "Fig. 10's seven p from 0.001 to 0.1 (1/√p from 3 to 32), the paper's \"wide range\"; from p = 0.02 "
          "on Reno keeps only 8–75 % of its throughput at p = 0.005, so a scheme that did not hide wireless losses "
          "as well as Snoop would fall visibly below it there",
          probe=timers_2000(near_snoop("base-2000", ["snoop", "snoop-ns2"]), "base-2000")),
    Claim("above-reno", "At high loss Syndrome and Snoop get 30–80 % more than Reno (Fig. 10, §7)", FIG10,
          "The throughput attained by both SNOOP and syndrome senders is 30–80 per cent more than TCP senders "
          "in the case of high packet loss rates",
          "Syndrome ÷ Reno and Snoop ÷ Reno throughput at p = 0.05 and 0.1, S1 and S2",
          Band.between(1.3, 1.8, '"30–80 per cent more": 1.3× to 1.8×'), above_reno("base"), ["base"],
          Examples(null=ex.one_sweep("base", {"syndrome": constant(1.0), "snoop": constant(1.0),
                                              "reno": constant(1.0)}),
                   faithful=ex.one_sweep("base", {"syndrome": constant(1.55), "snoop": constant(1.55),
                                                  "reno": constant(1.0)}),
                   exaggerated=ex.one_sweep("base", {"syndrome": constant(2.1), "snoop": constant(2.1),
                                                     "reno": constant(1.0)})),
          "\"high packet loss rates\" read as the two highest p of Fig. 10, 0.05 and 0.1 (1/√p ≤ 4.5), where "
          "Reno loses one or two of every 20-segment window and falls to 10–36 kB/s from 95–140 kB/s at p = 0.005",
          probe=timers_2000(above_reno("base-2000"), "base-2000")),
    Claim("s1-above-s2", "S1 → MH, the shorter-RTT connection, gets more than S2 → MH (Fig. 10)", FIG10,
          "the throughput attained by the connection S1 ↔ MH is consistently higher than that by the connection "
          "S2 ↔ MH", "S1 ÷ S2 throughput in the same runs, per scheme (the paper's three) and p",
          Band.above(1.0, '"consistently higher": above 1×, no magnitude'),
          partial(lambda ctx: s1_over_s2(ctx, "base", PAPER)), ["base"],
          # The null: S1 no higher than S2 (a hair below, since the band's end 1× itself is in it).
          Examples(null=lambda: {"base": synthetic.runs({"p": list(ex.PS), "scheme": PAPER},
                                                           lambda p, scheme: {"S1": 0.98e5, "S2": 1e5})},
                   faithful=ex.one_sweep("base", {s: constant(1.0) for s in PAPER})),
          "both connections run at once through HA; S2's path has three more 2 Mb/s, 5 ms hops, so its RTT "
          "is about 30 ms longer than S1's, at every p of Fig. 10"),
    Claim("full-near-snoop", "With reordering and duplication the full Syndrome stays comparable to Snoop (Fig. 11)",
          "§6 on Fig. 11", "Syndrome achieves comparable, and sometimes slightly better, throughput to/than SNOOP",
          "Syndrome ÷ Snoop throughput at each p, S1 and S2",
          Band.word("comparable"), near_snoop("full", ["snoop"]), ["full"],
          Examples(null=ex.one_sweep("full", BELOW_SNOOP), faithful=ex.one_sweep("full", LIKE_SNOOP)),
          "Fig. 11's seven p; reordering (0.05 over 1–10 packets) and duplication (0.02) on the wire into HA "
          "give the syndromes of §4–5 at every p",
          probe=timers_2000(near_snoop("full-2000", ["snoop"]), "full-2000")),
    Claim("duplicates", "Syndrome and Snoop differ notably only beyond a duplicate probability of 0.05 (S1) and "
          "0.1 (S2) (Fig. 12)", "§6 on Fig. 12",
          "only when the probability of packets being duplicated exceeds 0.05 (i.e., 2.5 times larger than the "
          "packet loss probability) and 0.1 (i.e., 5 times larger than the packet loss probability), "
          "respectively, for connections S1 → MH and S2 → MH, will a notable performance discrepancy between "
          "syndrome and SNOOP be observed",
          "Syndrome ÷ Snoop throughput at p = 0.02 for duplicate probabilities up to 0.05 (S1) and below 0.1 (S2)",
          Band.word("no notable difference"), dup_close("duplicates"), ["duplicates"],
          Examples(null=ex.one_sweep("duplicates", {"syndrome": constant(1.2), "snoop": constant(1.0)},
                                     axis="dup", values=(0.02, 0.05, 0.1)),
                   faithful=ex.one_sweep("duplicates", LIKE_SNOOP, axis="dup", values=(0.02, 0.05, 0.1))),
          "duplicates 0.02 and 0.05 are 1 and 2.5 times the loss probability 0.02: cases C1.b–C1.d of Table 4 "
          "occur at both, so an optimistic error would show"),
    Claim("duplicates-worst", "In the worst case (S2 at a duplicate probability of 0.1) Syndrome is 20 % more "
          "aggressive than Snoop (Fig. 12)", "§6 on Fig. 12",
          "syndrome performs, in the worst case (when the probability of packet being duplicated is 0.1 for "
          "connection S2 → MH), 20 per cent more aggressively than SNOOP",
          "S2's throughput under Syndrome over Snoop's, in per cent, at duplicate probability 0.1",
          Band.stated(20, '"20 per cent more aggressively"', unit="%"), dup_worst("duplicates"), ["duplicates"],
          Examples(null=ex.one_sweep("duplicates", LIKE_SNOOP, axis="dup", values=(0.05, 0.1)),
                   faithful=ex.one_sweep("duplicates", {"syndrome": constant(1.2), "snoop": constant(1.0)},
                                         axis="dup", values=(0.05, 0.1)),
                   exaggerated=ex.one_sweep("duplicates", {"syndrome": constant(1.4), "snoop": constant(1.0)},
                                            axis="dup", values=(0.05, 0.1))),
          "the point the paper names; at duplicate probability 0.1 (5 times the loss probability) about one "
          "segment in ten reaches MH twice, so cases C1.b–C1.d are frequent",
          probe=timers_2000(dup_worst("duplicates-2000"), "duplicates-2000")),
    Claim("burst-near-snoop", "Under the burst loss model Syndrome stays comparable to Snoop (Fig. 13)",
          "§6 on Fig. 13", "Again syndrome achieves comparable throughput performance to SNOOP",
          "Syndrome ÷ Snoop throughput at each p (the loss in Fig. 8's bad state), S1 and S2",
          Band.word("comparable"), near_snoop("burst", ["snoop"]), ["burst"],
          Examples(null=ex.one_sweep("burst", BELOW_SNOOP), faithful=ex.one_sweep("burst", LIKE_SNOOP)),
          "Fig. 13's seven p in the bad state; the bad state holds about 5 % of the time, so losses come in "
          "bursts of a few packets within 3.75 ms, several per window at the higher p"),
    Claim("handoffs", "Syndrome advances most and suffers least around the hand-offs (Fig. 14)", "§6 on Fig. 14",
          "syndrome outperforms SNOOP and TCP-Reno in terms of instantaneous throughput and advance in TCP "
          "sequence number, and suffers least during hand-off",
          "bytes acknowledged from the first hand-off (8 s) to 2 s after the last outage (26.2 s), Syndrome ÷ "
          "Snoop and Syndrome ÷ Reno, S1 and S2",
          Band.above(1.0, '"outperforms": above 1×, no magnitude'), handoffs("handoffs"), ["handoffs"],
          Examples(null=lambda: handoff_rows(1.0, 1.0, 1.0), faithful=lambda: handoff_rows(1.2, 1.0, 0.9)),
          "the span holds all four hand-offs of §6 (8, 13, 18, 23 s, 1.2 s outages) at p = 0.02; every outage "
          "drops a window in flight, so each scheme's recovery after it shows",
          probe=timers_2000(handoffs("handoffs-2000"), "handoffs-2000")),
    Claim("uplink-alike", "MH → FH performs as FH → MH (Fig. 10's network, §6)", FIG10,
          "As the performance in both directions (FH → MH and MH → FH) exhibits similar behaviors",
          "each scheme's throughput MH → FH ÷ FH → MH (the paper's three) at each p, S1 and S2",
          Band.word("similar"), directions("uplink", "base"), ["uplink", "base"],
          Examples(null=lambda: {"uplink": ex.fig10({s: constant(0.6) for s in PAPER}),
                                 "base": ex.fig10({s: constant(1.0) for s in PAPER})},
                   faithful=lambda: {"uplink": ex.fig10({s: constant(1.0) for s in PAPER}),
                                     "base": ex.fig10({s: constant(1.0) for s in PAPER})}),
          "the seven p of Fig. 10 in each direction, the loss on the data's direction; the schemes differ most "
          "at p ≥ 0.05, where a direction in which one of them works differently would show",
          probe=timers_2000(directions("uplink-2000", "base-2000"), "uplink-2000", "base-2000")),
    *ADDED,
]
