"""Human output: rich tables of a RunResult, numbers in readable units (the formatters
themselves live in lossy.formatting, re-exported here for the modules that use them)."""

from __future__ import annotations

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
    if result.flows:
        parts.append(_flows_table(result.flows))
    if result.links:
        parts.append(_links_table(result.links))
    if result.agents:
        parts.append(_agents_table(result.agents))
    return Group(*parts)


def _table(title: str, columns: Iterable[str]) -> Table:
    table = Table(title=title, title_justify="left")
    for i, name in enumerate(columns):
        table.add_column(name, justify="left" if i == 0 else "right", no_wrap=i == 0)
    return table


def _flows_table(flows: list[dict[str, Any]]) -> Table:
    table = _table("flows", ["flow", "variant", "goodput", "retx fast/rto/eln",
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


def _links_table(links: list[dict[str, Any]]) -> Table:
    table = _table("links", ["link", "offered", "queue drops", "channel losses", "delivered"])
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
