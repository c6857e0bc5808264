"""Human output: rich tables of a RunResult, numbers in readable units (the formatters
themselves live in lossy.formatting, re-exported here for the modules that use them)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Iterable

from rich.console import Console, Group
from rich.table import Table

from .formatting import count, number, seconds, si

if TYPE_CHECKING:
    from .result import RunResult

__all__ = ["console", "count", "number", "result_tables", "seconds", "si"]


def result_tables(result: RunResult) -> Group:
    """Summary, then one table each for flows, links and agents."""
    s = result.raw.get("summary", {})
    head = Table(title=f"lossy run: {s.get('scenario', '?')}", show_header=False, box=None)
    head.add_column(style="bold")
    head.add_column()
    for label, text in [
        ("seed / replication", f"{s.get('seed')} / {s.get('replication')}"),
        ("simulated time", seconds(s.get("sim_time_s"))),
        ("events", count(s.get("events"))),
        ("data packets delivered", count(s.get("packets_delivered"))),
        ("wall time", seconds(s.get("wall_s"))),
        ("speed", f"{number(s.get('sim_s_per_wall_s'))} sim s per wall s, "
                  f"{si(s.get('events_per_s'), 'events/s')}"),
    ]:
        head.add_row(label, text)
    parts: list[Any] = [head]
    flows, links = result.flows, result.links
    if len(flows) > MAX_ROWS:
        parts.append(_flow_aggregates(result))
        parts.append(_flows_table(_first_and_worst(flows, "goodput_bps"), title=(
            f"flows: the first {SHOWN} and the {SHOWN} with the lowest goodput, of {len(flows):,} "
            "(--json for all)")))
    elif flows:
        parts.append(_flows_table(flows))
    if len(links) > MAX_ROWS:
        lossy = sorted(links, key=lambda k: -(k.get("queue_drops", 0) + k.get("channel_losses", 0)))
        parts.append(_links_table(lossy[:SHOWN], title=(
            f"links: the {SHOWN} with the most drops and losses, of {len(links):,} (--json for all)")))
    elif links:
        parts.append(_links_table(links))
    if result.agents:
        parts.append(_agents_table(result.agents))
    return Group(*parts)


# A run with more flows (or links) than this prints aggregates and a few rows, not every
# one: 10,000 rows take longer to print than to simulate and nobody reads them.
MAX_ROWS = 20
SHOWN = 5


def _first_and_worst(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    first = rows[:SHOWN]
    rest = sorted(rows[SHOWN:], key=lambda r: _sort_value(r.get(key)))[:SHOWN]
    return first + rest


def _sort_value(value: Any) -> float:
    return math.inf if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)


def _flow_aggregates(result: RunResult) -> Table:
    """Goodput over every flow as the core aggregates it (mean, min, percentiles, Jain's
    fairness index), and per flow group where the scenario has groups."""
    s = result.raw.get("summary", {})
    table = Table(title=f"all {len(result.flows):,} flows", title_justify="left", show_header=False, box=None)
    table.add_column(style="bold")
    table.add_column()
    rows = [("", s)] + [(f" (group {name})", g) for name, g in (s.get("groups") or {}).items()]
    for label, agg in rows:
        table.add_row(f"goodput mean / min{label}",
                      f"{si(agg.get('goodput_mean_bps'), 'b/s')} / {si(agg.get('goodput_min_bps'), 'b/s')}")
        table.add_row(f"goodput p5 / p50 / p95{label}",
                      " / ".join(si(agg.get(f"goodput_{q}_bps"), "b/s") for q in ("p5", "p50", "p95")))
        table.add_row(f"Jain's fairness index{label}", number(agg.get("jain_index")))
    return table


def _table(title: str, columns: Iterable[str]) -> Table:
    table = Table(title=title, title_justify="left")
    for i, name in enumerate(columns):
        table.add_column(name, justify="left" if i == 0 else "right", no_wrap=i == 0)
    return table


def _ms(value: Any) -> str:
    """A delay column in milliseconds (`rtt_p95_ms`, ...) shown as `seconds` shows one."""
    return seconds(None if value is None else value * 1e-3)


def _flows_table(flows: list[dict[str, Any]], title: str = "flows") -> Table:
    table = _table(title, ["flow", "variant", "goodput", "retx fast/rto/eln",
                             "timeouts", "mean cwnd (seg)", "mean RTT", "p95 RTT",
                             "p95 one-way"])
    for f in flows:
        retx = "/".join(count(f.get(k)) for k in
                        ("retransmits_fast", "retransmits_timeout", "retransmits_eln"))
        table.add_row(
            str(f.get("name", "")),
            str(f.get("variant", f.get("transport", ""))),
            si(f.get("goodput_bps"), "b/s"),
            retx,
            count(f.get("timeouts")),
            number(f.get("cwnd_mean_segments")),
            seconds(f.get("rtt_mean_s")),
            _ms(f.get("rtt_p95_ms")),
            _ms(f.get("owd_p95_ms")),
        )
    return table


def _links_table(links: list[dict[str, Any]], title: str = "links") -> Table:
    table = _table(title, ["link", "offered", "queue drops", "channel losses", "delivered",
                           "mean queue (pkts)", "p95 sojourn"])
    for link in links:
        table.add_row(
            str(link.get("name", "")),
            count(link.get("packets_offered")),
            count(link.get("queue_drops")),
            count(link.get("channel_losses")),
            count(link.get("packets_delivered")),
            number(link.get("queue_mean_packets")),
            _ms(link.get("sojourn_p95_ms")),
        )
    return table


def _agents_table(agents: list[dict[str, Any]]) -> Table:
    table = _table("agents", ["agent", "kind", "state max", "state mean"])
    for a in agents:
        table.add_row(
            str(a.get("name", "")),
            str(a.get("kind", "")),
            si(a.get("state_bytes_max"), "B"),
            si(a.get("state_bytes_mean"), "B"),
        )
    return table


def console(stderr: bool = False) -> Console:
    # Wide enough that tables do not wrap when stdout is a pipe (rich assumes 80 then).
    c = Console(stderr=stderr)
    if not c.is_terminal:
        c = Console(stderr=stderr, width=120)
    return c
