"""The sweeps behind Figs. 10–14 of Chen et al. on scenarios/chen-fig9.toml: p on the
wireless link of either base station and p / 50 on the link between node 8 and S1
(x = 50, §6), for each scheme; throughput of S1 → MH and S2 → MH (both at once). The
paper states neither durations nor replications: 100 s and 10 replications here (20 s
and 3 with --quick). Beyond the figures: the same as Fig. 10 with the data the other
way, MH → S1 and MH → S2 (§6 ran it and reports "similar behaviors" without a figure)."""

from __future__ import annotations

from typing import Any, Dict, List

from ...shipped import scenarios_dir
from ..model import SweepPlan
from .schemes import COEXISTING, PAPER, ROAMING, SCHEMES, TIMERS_2000, UPLINK

SCENARIO = str(scenarios_dir() / "chen-fig9.toml")
X = 50  # wireless loss over wired loss (§6)

# Links of chen-fig9.toml by index: 0 is S1–N8, 7 is HA–MH, 8 is FA–MH, 5 is N8–HA.
S1_WIRED, HA_MH, FA_MH, N8_HA = 0, 7, 8, 5

METRICS = {"S1": "flows.0.goodput_bps", "S2": "flows.1.goodput_bps"}

# The x-axis of Figs. 10, 11 and 13 is 1/√p: these p give 1/√p from about 3 to 32.
P = [0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001]
P_QUICK = [0.1, 0.02, 0.005]


def _uniform(ps: List[float], field: str = ".loss.p", wired: str = ".loss.p", x: float = X) -> Dict[str, Any]:
    """p on both wireless links (`field` of their loss), p / x on the wired link near S1
    (`wired` of it): one zip row per p."""
    return {"p": {"path": f"links.{HA_MH}{field}", "values": ps},
            "p_fa": {"path": f"links.{FA_MH}{field}", "values": ps},
            "p_wired": {"path": f"links.{S1_WIRED}{wired}", "values": [p / x for p in ps]}}


# MH → FH: MH sends to S1 and S2; the losses move to the data's direction, MH → HA (FA)
# and N8 → S1 (each link's reverse direction), and the ACKs' direction is lossless, as in
# the figures' FH → MH runs.
UPLINK_SET: Dict[str, Any] = {
    "flows.0.from": "MH", "flows.0.to": "S1", "flows.1.from": "MH", "flows.1.to": "S2",
    **{f"links.{i}.loss.p": 0.0 for i in (HA_MH, FA_MH, S1_WIRED)},
    **{f"links.{i}.reverse_loss": {"model": "bernoulli", "p": 0.0} for i in (HA_MH, FA_MH, S1_WIRED)},
}


def _plan(key: str, title: str, schemes: List[str], table: Dict[str, Dict[str, Any]] = SCHEMES,
          **spec: Any) -> SweepPlan:
    quick = spec.pop("quick", {})
    return SweepPlan(key, title, {
        "name": f"chen-{key}",
        "scenario": SCENARIO,
        "replications": 10,
        "seed": 1,
        "duration": "100 s",
        "variants": {"scheme": {s: table[s] for s in schemes}},
        "metrics": METRICS,
        **spec,
        "quick": {"replications": 3, "duration": "20 s", **quick},
    })


# Fig. 8's burst model on the wireless links: sojourn means 75 ms (A) and 3.75 ms (B),
# loss 0.0002 in A and p in B; the wired link keeps its uniform p / x.
def _burst(p: float) -> Dict[str, Any]:
    return {"model": "markov", "mean_a": "75 ms", "mean_b": "3.75 ms", "loss_a": 0.0002, "loss_b": p}


# Reordering 0.05 over [1, 10] and duplication 0.02 over [1, 20] (§6), on the wired link
# into the base station: packets reach it out of order or twice.
def _impair(dup: float) -> Dict[str, Any]:
    return {"reorder": {"p": 0.05, "displacement": [1, 10]}, "duplicate": {"p": dup, "distance": [1, 20]}}


def sweeps(schemes: List[str]) -> List[SweepPlan]:
    """Every sweep, for `schemes` (and Snoop as ns-2 runs it beside Snoop in Fig. 10)."""
    readings = schemes + ["snoop-ns2"] if "snoop" in schemes else schemes
    base = _plan("base", "Fig. 10: base version, uniform loss", readings,
                 zip=_uniform(P), quick={"zip": _uniform(P_QUICK)})
    uplink = _plan("uplink", "Beyond the figures: Fig. 10 with the data from MH to S1 and S2", schemes, UPLINK,
                   set=UPLINK_SET, zip=_uniform(P, ".reverse_loss.p", ".reverse_loss.p"),
                   quick={"zip": _uniform(P_QUICK, ".reverse_loss.p", ".reverse_loss.p")})
    full = _plan("full", "Fig. 11: full version, with reordering and duplication", schemes,
                 zip=_uniform(P), set={f"links.{N8_HA}.impair": _impair(0.02)},
                 quick={"zip": _uniform(P_QUICK)})
    dups = [0.02, 0.05, 0.1, 0.15, 0.2]
    dup = _plan("duplicates", "Fig. 12: duplicate probability at p = 0.02", [s for s in schemes if s != "reno"],
                set={f"links.{HA_MH}.loss.p": 0.02, f"links.{S1_WIRED}.loss.p": 0.02 / X,
                     f"links.{N8_HA}.impair": _impair(0.02)},
                grid={"dup": {"path": f"links.{N8_HA}.impair.duplicate.p", "values": dups}},
                # Quick at the full 100 s: at 20 s Syndrome ÷ Snoop for S2 at dup 0.02 came out
                # 0.86 (CI 0.78–0.94) against the full run's 0.92 (0.88–0.95), a quick run
                # deciding what the full one could not.
                quick={"grid": {"dup": {"path": f"links.{N8_HA}.impair.duplicate.p", "values": [0.02, 0.1, 0.2]}},
                       "duration": "100 s"})
    burst = _plan("burst", "Fig. 13: burst loss model", schemes,
                  set={f"links.{HA_MH}.loss": _burst(0.02), f"links.{FA_MH}.loss": _burst(0.02),
                       f"links.{N8_HA}.impair": _impair(0.02)},
                  zip=_uniform(P, ".loss.loss_b"), quick={"zip": _uniform(P_QUICK, ".loss.loss_b")})
    handoffs = _plan("handoffs", "Fig. 14: hand-offs at 8, 13, 18 and 23 s", schemes, ROAMING,
                     duration="30 s",
                     set={f"links.{HA_MH}.loss.p": 0.02, f"links.{FA_MH}.loss.p": 0.02,
                          f"links.{S1_WIRED}.loss.p": 0.02 / X, "actions": HANDOFFS,
                          "traces.throughput_interval": "100 ms"},
                     traces=["seq", "throughput"],
                     quick={"duration": "30 s"})
    scale = SweepPlan("scale", "Beyond the paper: base-station state and speed against the number of connections", {
        "name": "chen-scale",
        "scenario": str(scenarios_dir() / "chen-scale.toml"),
        "replications": 1,
        "seed": 1,
        "variants": {"scheme": {s: SCALE_AGENTS[s] for s in schemes if s in SCALE_AGENTS}},
        "grid": {"connections": {"path": "flow_groups.0.count", "values": [1, 10, 100, 1000, 10000]}},
        "metrics": {"state_bytes": "agents.0.state_bytes_max"},  # events_per_s is a column already
        "quick": {"grid": {"connections": {"path": "flow_groups.0.count", "values": [1, 10, 100, 1000]}},
                  "duration": "2 s"},
    })
    return [base, full, dup, burst, handoffs, scale, uplink]


# The base-station agents of chen-scale.toml (one base station, BS, serving MH).
SCALE_AGENTS: Dict[str, Dict[str, Any]] = {
    "eln": {"agents": [{"kind": "eln", "node": "BS", "wireless_neighbor": "MH"}]},
    "snoop": {"agents": [{"kind": "snoop", "node": "BS", "wireless_neighbor": "MH"}]},
    "syndrome": {"agents": [{"kind": "syndrome", "node": "BS", "wireless_neighbor": "MH"}],
                 "flow_groups.0.tcp.syndrome": "downlink"},
}


# MH moves HA → FA → HA → FA → HA with an outage of 1.2 s each time (§6, Fig. 14).
HANDOFFS = [{"kind": "handoff", "at": f"{t} s", "node": "MH", "from": a, "to": b, "outage": "1.2 s"}
            for t, (a, b) in zip([8, 13, 18, 23], [("HA", "FA"), ("FA", "HA"), ("HA", "FA"), ("FA", "HA")])]


# --- Sweeps for the claims beyond Figs. 10–14 ----------------------------------------

# §6: "x varies from 10 to 1000"; the figures use x = 50. Fig. 10 at both ends.
X_ENDS = [10, 1000]
# §1's coexistence where Syndrome gains most (Fig. 10: about 2× Reno at p ≥ 0.05) and
# at p = 0.02, where the two connections load the wireless link most.
P_COEXIST, P_COEXIST_QUICK = [0.1, 0.05, 0.02], [0.1, 0.02]


def added_sweeps() -> List[SweepPlan]:
    """Fig. 10 at x = 10 and x = 1000, and a plain end host beside Syndrome hosts."""
    ends = [_plan(f"x{x}", f"Fig. 10 with wired loss p / {x} (§6: x from 10 to 1000)", PAPER,
                  zip=_uniform(P, x=x), quick={"zip": _uniform(P_QUICK, x=x)}) for x in X_ENDS]
    coexist = _plan("coexist", "§1: plain end hosts beside Syndrome hosts (Fig. 10's network)",
                    list(COEXISTING), COEXISTING,
                    zip=_uniform(P_COEXIST), quick={"zip": _uniform(P_COEXIST_QUICK)})
    return [*ends, coexist]


# --- Probes: the same sweeps with ns-2's timers of 2000, where the gaps are ----------

# Fig. 10's gaps to the bands lie at p ≥ 0.02; Fig. 12's at every duplicate probability.
P_PROBE, P_PROBE_QUICK = [0.1, 0.05, 0.02], [0.1, 0.02]


def with_timers_2000(plan: SweepPlan, points: Dict[str, Any] = {}, quick_points: Dict[str, Any] = {}) -> SweepPlan:
    """`plan` with every sender on ns-2's timers of 2000 (schemes.TIMERS_2000), on the
    points `points` of its zip or grid (`quick_points` with --quick) in place of its own
    (its own when none are given)."""
    spec = {**plan.spec, "set": {**plan.spec.get("set", {}), **TIMERS_2000}, "name": f"{plan.spec['name']}-2000"}
    if points:
        axes = "grid" if "grid" in plan.spec else "zip"
        spec.update({axes: points, "quick": {**plan.spec.get("quick", {}), axes: quick_points}})
    return SweepPlan(f"{plan.key}-2000", f"Probe: {plan.title}, with ns-2's timers of 2000", spec)


def probe_sweeps(plans: List[SweepPlan]) -> List[SweepPlan]:
    """The timers-of-2000 version of Figs. 10–12, the MH → FH direction and x = 10, 1000."""
    by_key = {p.key: p for p in plans}
    uniform = {key: with_timers_2000(by_key[key], _uniform(P_PROBE), _uniform(P_PROBE_QUICK))
               for key in ("base", "full")}
    reverse = (".reverse_loss.p", ".reverse_loss.p")
    uplink = with_timers_2000(by_key["uplink"], _uniform(P_PROBE, *reverse), _uniform(P_PROBE_QUICK, *reverse))
    ends = [with_timers_2000(by_key[f"x{x}"], _uniform(P_PROBE, x=x), _uniform(P_PROBE_QUICK, x=x))
            for x in X_ENDS]
    dup_axis = by_key["duplicates"].spec["grid"]["dup"]
    dup = with_timers_2000(by_key["duplicates"], {"dup": {**dup_axis, "values": [0.02, 0.05, 0.1]}},
                           {"dup": {**dup_axis, "values": [0.02, 0.1]}})
    handoffs = with_timers_2000(by_key["handoffs"])
    return [*uniform.values(), uplink, *ends, dup, handoffs, with_wide_links(by_key["coexist"])]


# The links both connections share toward MH: node 8 → HA and HA → MH.
SHARED = [N8_HA, HA_MH]


def with_wide_links(plan: SweepPlan) -> SweepPlan:
    """`plan` with the shared links at 10 Mb/s, more than both connections together use."""
    spec = {**plan.spec, "name": f"{plan.spec['name']}-wide",
            "set": {**plan.spec.get("set", {}), **{f"links.{i}.rate": "10 Mbps" for i in SHARED}}}
    return SweepPlan(f"{plan.key}-wide", f"Probe: {plan.title}, the shared links at 10 Mb/s", spec)
