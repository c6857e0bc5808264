"""`tcp.cc = "bbr3"`'s table (draft-ietf-ccwg-bbr-06): gains ≤ 0 or not growing the rate,
a loss threshold, β or headroom out of range, an unknown field, each refused in one line
naming the field in --set notation."""

from bad_inputs.case import BadInput


def _run(table: str) -> tuple:
    """`lossy run last-hop --set flows.0.tcp.cc={kind="bbr3", TABLE}`."""
    return ("run", "last-hop", "--set", f'flows.0.tcp.cc={{kind="bbr3", {table}}}')


CASES = [
    BadInput("tcp_cc_bbr3-startup-gain-one", argv=_run("startup_pacing_gain=1"),
             says=("flows.0.tcp.cc.startup_pacing_gain: 1 is out of range; use a number greater than 1",),
             source="issue 29: a pacing gain that cannot grow the rate in Startup (draft §5.3.1.1)"),
    BadInput("tcp_cc_bbr3-drain-gain-zero", argv=_run("drain_pacing_gain=0"),
             says=("flows.0.tcp.cc.drain_pacing_gain: 0 is out of range; use a number in (0, 1)",),
             source="issue 29: a pacing gain ≤ 0"),
    BadInput("tcp_cc_bbr3-drain-gain-one", argv=_run("drain_pacing_gain=1.5"),
             says=("flows.0.tcp.cc.drain_pacing_gain: 1.5 is out of range; use a number in (0, 1)",),
             source="draft §5.3.2: Drain paces below the bandwidth"),
    BadInput("tcp_cc_bbr3-cwnd-gain-negative", argv=_run("cwnd_gain=-2"),
             says=("flows.0.tcp.cc.cwnd_gain: -2 is out of range; use a number greater than 0",),
             source="issue 29: a gain ≤ 0"),
    BadInput("tcp_cc_bbr3-loss-thresh-zero", argv=_run("loss_thresh=0"),
             says=("flows.0.tcp.cc.loss_thresh: 0 is out of range; use a number in (0, 1)",),
             source="draft §2.8 BBR.LossThresh: a loss rate in (0, 1)"),
    BadInput("tcp_cc_bbr3-loss-thresh-one", argv=_run("loss_thresh=1"),
             says=("flows.0.tcp.cc.loss_thresh: 1 is out of range; use a number in (0, 1)",),
             source="draft §2.8 BBR.LossThresh: a loss rate of 100 % is never exceeded"),
    BadInput("tcp_cc_bbr3-beta-one", argv=_run("beta=1"),
             says=("flows.0.tcp.cc.beta: 1 is out of range; use a number in (0, 1)",),
             source="issue 29: β ∉ (0, 1)"),
    BadInput("tcp_cc_bbr3-beta-zero", argv=_run("beta=0"),
             says=("flows.0.tcp.cc.beta: 0 is out of range; use a number in (0, 1)",),
             source="issue 29: β ∉ (0, 1)"),
    BadInput("tcp_cc_bbr3-headroom-one", argv=_run("headroom=1"),
             says=("flows.0.tcp.cc.headroom: 1 is out of range; use a number in [0, 1)",),
             source="draft §2.8 BBR.Headroom: a share of inflight_longterm"),
    BadInput("tcp_cc_bbr3-pacing-margin-one", argv=_run("pacing_margin=1"),
             says=("flows.0.tcp.cc.pacing_margin: 1 is out of range; use a number in [0, 1)",),
             source="issue 29: a margin of 100 % paces at nothing"),
    BadInput("tcp_cc_bbr3-unknown-field", argv=_run("high_gain=2.89"),
             says=("flows.0.tcp.cc.high_gain: unknown field `high_gain`", "startup_pacing_gain"),
             source="issue 29: unknown names list the valid ones (BBRv1's field on BBRv3)"),
]
