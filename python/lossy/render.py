"""Human output: rich tables of a RunResult, numbers in readable units (the formatters
themselves live in lossy.formatting, re-exported here for the modules that use them)."""

from __future__ import annotations

import math
from typing import Any, Iterable

from rich.console import Console, Group
from rich.table import Table

from .formatting import count, number, seconds, si
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
        parts.append(_flow_aggregates(flows))
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


def _flow_aggregates(flows: list[dict[str, Any]]) -> Table:
    """Goodput over every flow: mean, min, percentiles and Jain's fairness index."""
    values = sorted(float(f["goodput_bps"]) for f in flows if f.get("goodput_bps") is not None)
    table = Table(title=f"all {len(flows):,} flows", title_justify="left", show_header=False, box=None)
    table.add_column(style="bold")
    table.add_column()
    if not values:
        table.add_row("goodput", "-")
        return table
    total = sum(values)
    squares = sum(v * v for v in values)
    jain = total * total / (len(values) * squares) if squares else 1.0
    for label, text in [
        ("goodput mean / min", f"{si(total / len(values), 'b/s')} / {si(values[0], 'b/s')}"),
        ("goodput p5 / p50 / p95", " / ".join(si(_percentile(values, q), "b/s") for q in (5, 50, 95))),
        ("Jain's fairness index", f"{jain:.3f}"),
        ("total goodput", si(total, "b/s")),
    ]:
        table.add_row(label, text)
    return table


def _percentile(ordered: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (NumPy's default), as the core computes it."""
    pos = (len(ordered) - 1) * q / 100
    low = int(math.floor(pos))
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _table(title: str, columns: Iterable[str]) -> Table:
    table = Table(title=title, title_justify="left")
    for i, name in enumerate(columns):
        table.add_column(name, justify="left" if i == 0 else "right", no_wrap=i == 0)
    return table


def _flows_table(flows: list[dict[str, Any]], title: str = "flows") -> Table:
    table = _table(title, ["flow", "variant", "goodput", "retx fast/rto/eln",
                             "timeouts", "mean cwnd (seg)", "mean RTT"])
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
        )
    return table


def _links_table(links: list[dict[str, Any]], title: str = "links") -> Table:
    table = _table(title, ["link", "offered", "queue drops", "channel losses", "delivered"])
    for link in links:
        table.add_row(
            str(link.get("name", "")),
            count(link.get("packets_offered")),
            count(link.get("queue_drops")),
            count(link.get("channel_losses")),
            count(link.get("packets_delivered")),
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
