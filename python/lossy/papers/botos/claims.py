"""Botoș et al.'s claims (§II C, §IV A–B), each a quantity with its 95 % CI over
replications against a band read from the paper's words (bands.py) before any run. The
figures survive only as words ("roughly equal", "below 5%", "from about 5%", "a small
performance penalty", "its share", "just as it is expected"), so every band is a word's
or the stated-number rule's.

Fig. 1 has two claims on loss sequences the core's Neyman Type A channel draws (losses.py,
no TCP run): the simulated CDF of the distance between losses is the Neyman Type A
formula's, and its value at distance 1 is roughly the mean loss rate. The second depends
on the clusters' length, which the paper does not give: clusters that straddle two
packets add about (S − 1)/L to P(d = 1) whatever the loss rate (S the cluster's span, L
the packet's bits), so it can fail at low loss or with long clusters."""

from __future__ import annotations

from typing import List

import pandas as pd

from ..bands import Band
from ..context import Context
from ..estimate import jackknife, select
from ..judge import Measurement, Part
from ..model import Claim, Examples, Probe
from . import curves, examples, losses, sharing
from .curves import CROSSING, OVERHEAD
from .examples import world
from .figures import congested_table
from .sweeps import BOTTLENECK_QUEUES, NEYMAN_ERRORS_PER_CLUSTER, PROBE_DECREASE, PROBE_DELAY_SWEEPS

FIGS_3_4 = list(curves.LOSS_SWEEPS)
UDP_KBPS = 160.0  # Fig. 6: "a data rate of 20kBps"
CHANNEL_LOSS = 0.01  # Figs. 5 and 6 (sweeps.py)


def _friendly(ctx: Context) -> Measurement:
    """FECTCP's rate ÷ the mean TCP flow's, per queue: the congested table's ratio
    (figures.py), computed on each jackknife subset. It is rounded to 0.01, a twentieth
    of the band's half-width."""
    rows = ctx["congested"]

    def ratio(df: pd.DataFrame) -> float:
        return float(congested_table(df)["FECTCP ÷ TCP"].iloc[0])
    return Measurement([Part(q, jackknife(select(rows, {"queue": q}), ratio)) for q in BOTTLENECK_QUEUES])


# The probes swap one reading: FECTCP's reduction on an expired timer, a halving here
# (TCP's), to which the paper gives no size (§II D: "reduce the sending data rate").
HALVING = ("each expired timer halves FECTCP's window: our reading, the paper gives the reduction no size "
           "(§II D)")
GENTLER = f"FECTCP reducing to {PROBE_DECREASE} cwnd instead (the readings sweep's alternative)"
DELAY_PROBE = Probe(HALVING, GENTLER, list(PROBE_DELAY_SWEEPS.values()),
                    lambda ctx: curves.fectcp_delay_ratio(ctx, list(PROBE_DELAY_SWEEPS.values())))
SHARE_PROBE = Probe(HALVING, GENTLER, ["fig5-decrease"], lambda ctx: sharing.share_ratio(ctx, "fig5-decrease"))

CROSSING_READING = (f'"below 5%" and "from about 5%": the crossing at 5 % ± 25 % (the stated-number rule: '
                    f'{CROSSING[0]:.2%} to {CROSSING[1]:.2%}); at each grid loss below that the best TCP leads, '
                    "above it (to the paper's 25 %) FECTCP leads, by a margin the paper does not size")

FIG1_INPUTS = {losses.SEQUENCES: losses.sequences}
FIG1_RATES = ", ".join(f"{100 * p:g} %" for p in losses.RATES)
FIG1_POINTS = (f"the rates of our Fig. 1 ({FIG1_RATES}), set when it was drawn: the paper's figure is missing and "
               f"its rates unknown; {losses.REPLICATIONS} sequences of {losses.SEQUENCE_PACKETS:,} back-to-back "
               f"1500-byte packets per rate ({losses.QUICK_SEQUENCE_PACKETS:,} with --quick), Neyman Type A bit "
               f"errors with {NEYMAN_ERRORS_PER_CLUSTER} errors per cluster over {2 * NEYMAN_ERRORS_PER_CLUSTER} bits "
               "(our reading: the paper gives no parameters)")

CLAIMS: List[Claim] = [
    Claim(
        "fig1-cdf-is-neyman", "Fig. 1 is the CDF of the distance between losses of 1500-byte packets under Neyman "
        "Type A errors: our simulated CDF is the formula's", "§II C, Fig. 1",
        '"One can view this distribution as a compound Poisson model in which error clusters have a Poisson '
        'distribution and errors within a cluster also have a Poisson distribution"; "The resulting CDF of the '
        'distance between two consecutive packet losses is presented in Fig. 1, the packet length being 1500 bytes"',
        "the simulated CDF of the distance between losses (distances ≤ k ÷ distances, pooled over the sequences) "
        "less the Neyman Type A formula's F(k) = 1 − (C(k) − C(k + 1))/p, C(m) the probability that m back-to-back "
        f"packets are clean, at k = {', '.join(map(str, losses.KS))} and each rate",
        Band.word("the same", centre=0.0, unit="", absolute=True), losses.cdf_gap, [],
        Examples(null=examples.fig1(consecutive=0.45), faithful=examples.fig1()),
        "Fig. 1 is a CDF on a 0–1 axis: \"the same\" curve is the same to what a printed figure shows (±0.05 of the "
        f"axis); {FIG1_POINTS}; distances 1 to 50 cover the CDF from its foot to its top at every rate",
        inputs=FIG1_INPUTS),
    Claim(
        "next-loss-about-p", "A loss is followed by another with a probability roughly equal to the mean loss rate "
        "(Fig. 1)", "§II C, Fig. 1",
        '"From this CDF it is visible that consecutive packet losses occur with a probability that is roughly equal '
        'to the average packet loss rate of the link"',
        "P(d = 1), the simulated CDF at distance 1 (consecutive losses ÷ distances), ÷ the sequence's loss rate "
        "(losses ÷ packets), pooled over the sequences, at each rate",
        Band.word("roughly equal"), losses.next_loss_ratio, [],
        Examples(null=examples.fig1(consecutive=0.45, formula_consecutive=0.45), faithful=examples.fig1()),
        f"{FIG1_POINTS}. Clusters that straddle two packets add about 19/12,000 = 0.0016 to P(d = 1) at any rate, "
        "so the ratio is farthest from 1 at the lowest rate, 1 %",
        inputs=FIG1_INPUTS),
    Claim(
        "fectcp-wins-high-loss", "TCP leads below about 5 % segment loss and FECTCP from there to 25 %, at both "
        "delays (Figs. 3–4)", "§IV A, Figs. 3–4",
        '"For low segment loss rates on the other hand (below 5%), it is obvious that TCP outperforms FECTCP"; '
        '"Good performances are obtained in the interval 5% - 25%"; FECTCP "still performs better than TCP for '
        'high segment loss rates" at 100 ms',
        "a crossing, by its sign at each grid loss: the paired difference FECTCP − best TCP (kb/s), signed so that "
        "the scheme the paper says leads there is positive",
        Band.above(0.0, CROSSING_READING, unit=" kb/s"), curves.crossing, FIGS_3_4,
        Examples(null=world(crossing=0.01), faithful=world(), exaggerated=world(crossing=0.11)),
        "the grid has losses on both sides of the band (0.1–2 % and 10–25 %) and TCP does lose there: the best "
        "TCP at 20 ms falls from 968 kb/s at 0.1 % to 915 at 2 % and 382 at 10 %, so the curves do cross inside "
        "the grid at both delays; under both loss readings"),
    Claim(
        "tcp-wins-low-loss", "Below 5 % TCP outperforms FECTCP because of the code's overhead: where TCP loses "
        "next to nothing, FECTCP trails it by the 5 % overhead (Fig. 3)", "§IV A, Fig. 3",
        '"it is obvious that TCP outperforms FECTCP. This behavior is easily explained by the fact that the '
        'underlying rateless encoding used on the original data requires a certain overhead" and "a rateless code '
        'with an average overhead of 5% was used"',
        "FECTCP's deficit to the best TCP, 100·(1 − FECTCP ÷ best TCP) in %, at the lowest grid loss (0.1 %) and "
        "20 ms, paired",
        Band.stated(100 * (1 - 1 / (1 + OVERHEAD)), "a 5 % overhead costs 1 − 1/1.05 of the rate", unit="%"),
        curves.overhead_deficit, FIGS_3_4,
        Examples(null=world(overhead=0.0), faithful=world(), exaggerated=world(overhead=2 * OVERHEAD)),
        "at 0.1 % and 20 ms the best TCP carries 968 kb/s of the hop's 973 kb/s ceiling, so the overhead is all "
        "that can part the two; at 100 ms TCP itself loses 8 % to the loss (894 kb/s), so the explanation does "
        "not isolate the overhead there and 100 ms is left to the crossing claim"),
    Claim(
        "fectcp-falls-at-25", "At 25 % loss FECTCP's performance starts to decrease beyond what the loss itself "
        "takes (Figs. 3–4)", "§IV A, Figs. 3–4",
        '"For very large packet loss rates (≥25%) the performance of FECTCP starts to decrease as well"',
        "FECTCP's throughput per delivered segment (throughput ÷ (1 − p)) at 25 % ÷ at 10 %, per delay, paired",
        Band.below(1.0, '"starts to decrease": below 1× (the paper gives no size)'), curves.fectcp_fall, FIGS_3_4,
        Examples(null=world(fall=1.0), faithful=world()),
        "10 % lies inside the paper's \"good\" 5–25 % and 25 % is its \"≥25%\"; both are on the quick and full grids"),
    Claim(
        "delay-costs-fectcp-little", "The 100 ms delay costs FECTCP only a small penalty (Fig. 4 against Fig. 3)",
        "§IV A, Figs. 3–4",
        '"FECTCP also suffers a small performance penalty due to the increased end-to-end delay"',
        "FECTCP's throughput at 100 ms ÷ at 20 ms at each grid loss to 25 %, paired",
        Band.between(0.8, 1.0, '"a small performance penalty": below 1×, and no larger than the word "close" '
                               "allows (20 %)"),
        curves.fectcp_delay_ratio, FIGS_3_4,
        Examples(null=world(fectcp_delay=1.0), faithful=world(), exaggerated=world(fectcp_delay=0.8)),
        "every grid loss of the paper's range at both delays, under both loss readings: the statement is not "
        "limited to some losses", probe=DELAY_PROBE),
    Claim(
        "delay-costs-tcp", "The 100 ms delay costs TCP visibly (Fig. 4 against Fig. 3)", "§IV A, Figs. 3–4",
        '"A performance penalty on TCP is visible due to the increased end-to-end delay"',
        "the best TCP's throughput at 100 ms ÷ at 20 ms at each grid loss to 25 %, paired",
        Band.below(1.0, '"a performance penalty ... is visible": below 1× (the paper gives no size)'),
        curves.tcp_delay_ratio, FIGS_3_4,
        Examples(null=world(tcp_delay=1.0), faithful=world()),
        "every grid loss of the paper's range: from 0.5 % on the best TCP is held below the hop's 973 kb/s by its "
        "losses (959 kb/s at 0.5 % and 20 ms), where a TCP's rate falls with its round-trip time (Mathis et al. "
        "1997), so the 100 ms runs can show the penalty; at 0.1 % it carries 968"),
    Claim(
        "tcp-gets-its-share", "A TCP flow joining a FECTCP flow gets its share of the link (Fig. 5)", "§IV B, Fig. 5",
        '"the FECTCP flow allows the TCP connection to have its share of network bandwidth, both of them being '
        'able to transfer data at a reasonable data rate"',
        "the TCP flow's mean rate ÷ FECTCP's while both run (70 s to the end), paired by replication; Jain's "
        "index of the two mean rates is (1 + r)² / (2(1 + r²)) of this ratio r",
        Band.word("roughly equal"), sharing.share_ratio, ["fig5"],
        Examples(null=examples.two_flows("fig5", 964, 860, 100), faithful=examples.two_flows("fig5", 964, 480, 480),
                 exaggerated=examples.two_flows("fig5", 964, 320, 640)),
        "the link is the bottleneck of both flows (FECTCP alone carries 964 of its 973 kb/s), so one flow's rate "
        "is taken from the other's; \"its share\" of a link two flows share is half, read as the two rates "
        "roughly equal (bands.py has no word \"its share\")", probe=SHARE_PROBE),
    Claim(
        "yields-to-udp", "FECTCP gives way to a 20 kB/s UDP CBR flow (Fig. 6)", "§IV B, Fig. 6",
        '"FECTCP reduces its data rate when faced with the presence of a UDP flow just as it is expected to do"',
        "FECTCP's mean rate alone less its mean rate beside the UDP flow, ÷ the UDP flow's mean rate, paired by "
        "replication: 1 when FECTCP gives up what UDP takes",
        Band.word("close"), sharing.yield_ratio, ["fig6"],
        Examples(null=examples.two_flows("fig6", 964, 964, 158), faithful=examples.two_flows("fig6", 964, 806, 158),
                 exaggerated=examples.two_flows("fig6", 964, 648, 158)),
        f"FECTCP alone fills the link (964 of 973 kb/s), so the UDP flow's {UDP_KBPS:.0f} kb/s less its "
        f"{CHANNEL_LOSS:.0%} channel loss must come out of FECTCP's rate; \"just as it is expected\" read as "
        "\"close\" (bands.py has no word for it)"),
    Claim(
        "tcp-friendly-when-congested", "On a congested bottleneck FECTCP takes a fair share beside TCP flows, with "
        "DropTail and with RED (beyond the paper's figures)", "§IV B and footnote 5, §V",
        '"All of our simulations show that this protocol behaves in a network friendly manner" (footnote 5: '
        '"whether it allows other TCP flows to have a fair share of the existing network bandwidth")',
        "FECTCP's rate ÷ the mean TCP SACK flow's on a 10 Mbit/s bottleneck, per queue, paired by replication",
        Band.word("roughly equal"), _friendly, ["congested"],
        Examples(null=examples.congested(4.0), faithful=examples.congested(1.0),
                 exaggerated=examples.congested(2.0)),
        "the bottleneck congests (DropTail drops about 460 packets a run, RED about 2900), and \"a fair share\" "
        "of five flows is the same for each; the paper shows no such run, so this holds its words to ours. The "
        "DropTail runs draw nothing at random (no channel loss, fixed starts): their replications are one run, "
        "and its CI has no width"),
]
