"""A scenario's fields as the core validates them: units, ranges, tables that contradict
each other, and sizes bounded by the memory and time they imply."""

from bad_inputs.case import BadInput

# A small network of its own, for what a shipped scenario cannot be turned into by --set.
_NET = """\
duration = "10 s"
nodes = ["S", "BS", "MH"]

[[links]]
between = ["S", "BS"]
rate = "10 Mbps"
delay = "20 ms"

[[links]]
between = ["BS", "MH"]
rate = "2 Mbps"
delay = "5 ms"
loss = { model = "bernoulli", p = 0.01 }
"""

_FLOW = """
[[flows]]
from = "S"
to = "MH"
"""


def _run(*sets: str) -> tuple:
    """`lossy run last-hop --set A --set B ...`."""
    return ("run", "last-hop", *(arg for s in sets for arg in ("--set", s)))


_SHORT = 'duration="1 s"'

CASES = [
    # The silent acceptances: refused (or warned about) in one line.
    BadInput("scenario_fields-syndrome-without-receiver", argv=_run("agents.0.kind=syndrome"),
             says=('agents.0.kind: "syndrome" stamps counts that only a receiver with tcp.syndrome reads',
                   'tcp.syndrome = "downlink"'),
             source="silent: a Syndrome agent without a Syndrome receiver runs as plain Reno"),
    BadInput("scenario_fields-eln-wired-neighbour", argv=_run("agents.0.wireless_neighbor=S", _SHORT),
             warning=True,
             says=('agents.0.wireless_neighbor: "S" is on the wired side of "BS"',
                   'name a wireless neighbour: "MH"'),
             source="silent: an ELN agent whose wireless_neighbor is the wired side marks nothing"),
    BadInput("scenario_fields-flow-starts-at-the-end", argv=_run('flows.0.start="100 s"'),
             says=("flows.0.start: 100 s is at or after the run's end at 100 s",),
             source="silent: a flow starting after the run ends gives 0 b/s"),
    BadInput("scenario_fields-group-starts-after-the-end", argv=("run", "net.toml"),
             files={"net.toml": _NET + '\n[[flow_groups]]\nname = "late"\ncount = 3\nfrom = "S"\n'
                                       'to = "MH"\nstart = "20 s"\n'},
             says=("flow_groups.0.start: 20 s is at or after the run's end at 10 s",),
             source="silent: a flow starting after the run ends gives 0 b/s (flow groups too)"),
    BadInput("scenario_fields-group-spacing-past-the-end", argv=("run", "net.toml"),
             files={"net.toml": _NET + '\n[[flow_groups]]\nname = "spread"\ncount = 5\nfrom = "S"\n'
                                       'to = "MH"\nstart = { every = "4 s" }\n'},
             says=("flow_groups.0.start.every: flow 3 of the group would start at 12 s, at or after "
                   "the run's end at 10 s",),
             source="silent: a flow starting after the run ends gives 0 b/s (flow groups too)"),
    BadInput("scenario_fields-two-links-between-the-same-nodes", argv=("run", "net.toml"),
             files={"net.toml": _NET + '\n[[links]]\nbetween = ["MH", "BS"]\nrate = "1 Mbps"\n'
                                       'delay = "1 ms"\n' + _FLOW},
             says=('links.2.between: "MH" and "BS" are already joined by links.1',
                   "one link per pair of nodes"),
             source="silent: two links between the same nodes: the second is never used"),
    BadInput("scenario_fields-bare-delay", argv=_run("links.0.delay=5", _SHORT), warning=True,
             says=('links.0.delay: 5 is read as 5 s; write "5 s" (or "5 ms")',),
             source="silent: `delay = 5` means 5 seconds with no note"),
    BadInput("scenario_fields-bare-queue", argv=_run("links.1.queue=100", _SHORT), warning=True,
             says=('links.1.queue: 100 is read as 100 B; write "100 B" (or "100 packets")',),
             source="silent: a bare number for a size (a queue of 100 is 100 bytes)"),
    BadInput("scenario_fields-bare-rate", argv=_run("links.1.rate=2", _SHORT), warning=True,
             says=('links.1.rate: 2 is read as 2 bps; write "2 bps" (or "2 Mbps")',),
             source="silent: a bare number for a rate"),

    # Weaker messages, rewritten: the field, the value and the allowed range.
    BadInput("scenario_fields-negative-bare-delay", argv=_run("links.0.delay=-1"),
             says=("links.0.delay: -1 must be ≥ 0 s; use 0 s to 1,000,000 s",),
             source="weak: a negative value is 'not a duration' instead of 'must be ≥ 0'"),
    BadInput("scenario_fields-negative-delay", argv=_run('links.0.delay="-1 s"'),
             says=("links.0.delay: -1 s must be ≥ 0 s; use 0 s to 1,000,000 s",),
             source="weak: a negative value is 'not a duration' instead of 'must be ≥ 0'"),
    BadInput("scenario_fields-negative-rate", argv=_run('links.1.rate="-5 Mbps"'),
             says=("links.1.rate: -5 Mbps must be ≥ 1 bps; use 1 bps to 1 Tbps",),
             source="weak: a negative value is 'not a bit rate'"),
    BadInput("scenario_fields-negative-size", argv=_run('flows.0.app={kind="file", size="-1 B"}'),
             says=("flows.0.app.size: -1 B must be ≥ 0 B; use 0 B to 1,000,000,000,000,000 B",),
             source="weak: a negative value is 'not a size'"),
    BadInput("scenario_fields-negative-mss", argv=_run("flows.0.tcp.mss=-5"),
             says=("flows.0.tcp.mss: -5 must be ≥ 1 B; use 1 B to 65,000 B",),
             source="weak: a negative value is 'not a size'"),
    BadInput("scenario_fields-negative-queue", argv=_run("links.1.queue=-5"),
             says=("links.1.queue: -5 must be ≥ 1 B", "or 1 to 1,000,000,000 packets"),
             source="weak: a negative value is 'not a queue limit'"),
    BadInput("scenario_fields-infinite-delay", argv=_run('links.0.delay="inf s"'),
             says=("links.0.delay: inf s is not a finite number; use 0 s to 1,000,000 s",),
             source="weak: NaN and inf get a generic message without the field's range"),
    BadInput("scenario_fields-bbr-high-gain-not-above-one", argv=_run('flows.0.tcp.cc={kind="bbr", high_gain=1}'),
             says=("flows.0.tcp.cc.high_gain: 1 is out of range; use a number greater than 1",),
             source="new field (issue 29): BBR's Startup gain must grow the rate"),
    BadInput("scenario_fields-bbr-cwnd-gain-zero", argv=_run('flows.0.tcp.cc={kind="bbr", cwnd_gain=0}'),
             says=("flows.0.tcp.cc.cwnd_gain: 0 is out of range; use a number greater than 0",),
             source="new field (issue 29): a gain ≤ 0"),
    BadInput("scenario_fields-bbr-pacing-margin-one", argv=_run('flows.0.tcp.cc={kind="bbr", pacing_margin=1}'),
             says=("flows.0.tcp.cc.pacing_margin: 1 is out of range; use a number in [0, 1)",),
             source="new field (issue 29): a margin of 100 % paces at nothing"),
    BadInput("scenario_fields-initial-window-zero", argv=_run("flows.0.tcp.initial_window=0"),
             says=("flows.0.tcp.initial_window: 0 is out of range; use a whole number from 1 to 4,294,967,295",),
             source="weak: initial_window advertises '0 to 4,294,967,295' but rejects 0"),
    BadInput("scenario_fields-initial-window-negative", argv=_run("flows.0.tcp.initial_window=-1"),
             says=("flows.0.tcp.initial_window: -1 is not allowed; use a whole number from 1 to 4,294,967,295",),
             source="weak: initial_window advertises '0 to 4,294,967,295' but rejects 0"),
    BadInput("scenario_fields-dupack-threshold-zero", argv=_run("flows.0.tcp.dupack_threshold=0"),
             says=("flows.0.tcp.dupack_threshold: 0 is out of range; use a whole number from 1 to 4,294,967,295",),
             source="weak: a count advertises 0 and rejects it"),
    BadInput("scenario_fields-huge-probability", argv=_run("links.1.loss.p=1e300"),
             says=("links.1.loss.p: 1e300 is not a probability; use a number in [0, 1]",),
             source="weak: 1e300 prints as a 301-digit number"),
    BadInput("scenario_fields-probability-not-a-number", argv=_run("links.1.loss.p=often"),
             says=('links.1.loss.p: "often" is not allowed; use a number from 0 to 1',),
             source="weak: a number field's message without the field's range"),
    BadInput("scenario_fields-link-down-is-the-root-cause", argv=_run("links.1.up=false"),
             says=('links.1.up: false leaves flows.0 ("S" to "MH") no route at any time',
                   "set up = true or add a link_up action"),
             source="weak: 'links.1.up = false' is reported as 'flows.0.to: no route'"),
    BadInput("scenario_fields-variant-unknown-field-named-once", argv=("sweep", "spec.toml"),
             files={"net.toml": _NET + _FLOW,
                    "spec.toml": 'name = "v"\nscenario = "net.toml"\nreplications = 1\n\n'
                                 '[variants.scheme]\na = { "links.1.loss.q" = 1 }\n'},
             says=("lossy: variants.scheme.a.links.1.loss.q: unknown field `q`; use one of: p",),
             source="weak: a variant's unknown field prints its name twice"),
    # A file is answered by name first (scenario_files.py); an empty table reaches the core.
    BadInput("scenario_fields-empty-scenario", python="lossy.run({})",
             says=("nodes: missing: the scenario is empty",),
             source="weak: an empty or comments-only file says 'nodes: missing'"),

    # Messages echo bounded input.
    BadInput("scenario_fields-long-node-name", argv=_run("flows.0.to=" + "x" * 10_000),
             says=('flows.0.to: "' + "x" * 60 + '…" is not a node',),
             source="fuzz: a 10,000-character value comes back whole in the error line"),
    BadInput("scenario_fields-long-unit-value", argv=_run('links.0.delay="' + "5" * 10_000 + ' parsecs"'),
             says=("links.0.delay:", "…", "is not a duration"),
             source="fuzz: a 10,000-character value comes back whole in the error line"),

    BadInput("scenario_fields-many-long-node-names", argv=("run", "long.toml"),
             files={"long.toml": "nodes = [" + ", ".join(f'"{i}{"n" * 1000}"' for i in range(12))
                    + ']\n\n[[links]]\nbetween = ["0' + "n" * 1000 + '", "1' + "n" * 1000 + '"]\n'
                    'rate = "1 Mbps"\ndelay = "1 ms"\n\n[[flows]]\nfrom = "0' + "n" * 1000 + '"\nto = "x"\n'},
             says=('flows.0.to: "x" is not a node; nodes are 0' + "n" * 59 + "…", "…"),
             source="fuzz: a 10,000-character value comes back whole in the error line"),
    BadInput("scenario_fields-huge-count", argv=_run("flows.0.tcp.dupack_threshold=1e300"),
             says=("flows.0.tcp.dupack_threshold: 1e300 is not allowed; use a whole number from 1 to 4,294,967,295",),
             source="weak: 1e300 prints as a 301-digit number (or as 1e+300)"),

    # Sizes bounded up front by the memory they imply.
    BadInput("scenario_fields-five-groups-of-a-million", argv=("run", "many.toml"),
             files={"many.toml": _NET + "".join(
                 f'\n[[flow_groups]]\nname = "g{g}"\ncount = 1000000\nfrom = "S"\nto = "MH"\n'
                 for g in range(5))},
             says=("flow_groups.1.count: 1,000,000 brings the scenario to 2,000,000 flows; "
                   "use at most 1,000,000 flows in all",),
             source="fuzz: five flow groups of 1,000,000 pass 6 GiB (the cap is per group)"),
    BadInput("scenario_fields-throughput-every-nanosecond",
             argv=_run("traces.throughput=true", 'traces.throughput_interval="1 ns"'),
             says=("traces.throughput_interval: 1 ns gives 100,000,000,000 rows",
                   "use at least 4 us (25,000,000 rows at most"),
             source="fuzz: throughput_interval = '1 ns' passes 4 GiB in 9 s"),
    BadInput("scenario_fields-fectcp-verifies-a-gigabyte",
             argv=_run("flows.0.transport=fectcp", 'flows.0.app={kind="file", size="1 GB"}',
                       'flows.0.fectcp={decoding="verify"}', "agents=[]"),
             says=("flows.0.app.size: 1,000,000,000 B is more than FECTCP verifies",
                   "use at most 100,000,000 B in all"),
             source="fuzz: FECTCP verifying a 1 GB file passes 4 GiB"),
]

# Queue disciplines (issue 29): the AQMs' fields, and a WLAN queue that cannot drop queued
# packets. `last-hop`'s links.1 is the BS->MH link.
_WLAN = """\
duration = "1 s"
nodes = ["A", "B"]
[[wlans]]
stations = ["A", "B"]
queue = { kind = "codel" }
[[flows]]
from = "A"
to = "B"
"""

CASES += [
    BadInput("scenario_fields-sack-after-timeout-without-sack",
             argv=_run('flows.0.tcp.variant="newreno"', 'flows.0.tcp.sack_after_timeout="keep"'),
             says=('flows.0.tcp.sack_after_timeout: "keep" has no effect with variant = "newreno", which keeps '
                   'no RFC 6675 scoreboard; remove it or use variant = "sack"',),
             source="silent: a setting that means nothing without RFC 6675's scoreboard"),
    BadInput("scenario_fields-sack-after-timeout-unknown", argv=_run('flows.0.tcp.sack_after_timeout="forget"'),
             says=('flows.0.tcp.sack_after_timeout: "forget" is not allowed; use one of: clear, keep',),
             source="issue 29: unknown names list the valid ones"),
    BadInput("scenario_fields-pacing-unknown", argv=_run('flows.0.tcp.pacing="fq"'),
             says=('flows.0.tcp.pacing: "fq" is not allowed; use one of: none, linux',),
             source="issue 30: tcp.pacing names a pacing rule; unknown names list the valid ones"),
    BadInput("scenario_fields-codel-target-zero", argv=_run('links.1.queue={kind="codel", target="0 ms"}'),
             says=('links.1.queue.target: 0 s is not allowed; use a duration > 0, e.g. "5 ms"',),
             source="issue 29: target <= 0"),
    BadInput("scenario_fields-codel-interval-below-target",
             argv=_run('links.1.queue={kind="codel", target="20 ms", interval="10 ms"}'),
             says=("links.1.queue.interval: 10 ms is not allowed; use a duration at least target (20 ms)",),
             source="issue 29: interval < target"),
    BadInput("scenario_fields-fq-codel-quantum-zero", argv=_run('links.1.queue={kind="fq_codel", quantum="0 B"}'),
             says=("links.1.queue.quantum: 0 B is not allowed; use a size > 0",),
             source="issue 29: quantum 0"),
    BadInput("scenario_fields-fq-codel-flows-zero", argv=_run('links.1.queue={kind="fq_codel", flows=0}'),
             says=("links.1.queue.flows: 0 is not allowed; use 1 to 65536 queues",),
             source="issue 29: flows 0"),
    BadInput("scenario_fields-pie-tupdate-zero", argv=_run('links.1.queue={kind="pie", tupdate="0 s"}'),
             says=('links.1.queue.tupdate: 0 s is not allowed; use a duration > 0, e.g. "15 ms"',),
             source="issue 29: tupdate <= 0"),
    BadInput("scenario_fields-pie-alpha-out-of-range", argv=_run('links.1.queue={kind="pie", alpha=0}'),
             says=("links.1.queue.alpha: 0 is not allowed; use a number in (0, 10] per second",),
             source="issue 29: alpha out of range"),
    BadInput("scenario_fields-pie-beta-out-of-range", argv=_run('links.1.queue={kind="pie", beta=500}'),
             says=("links.1.queue.beta: 500 is not allowed; use a number in (0, 100] per second",),
             source="issue 29: beta out of range"),
    BadInput("scenario_fields-unknown-queue-kind", argv=_run('links.1.queue={kind="cake"}'),
             says=('links.1.queue.kind: "cake" is not allowed; use one of: drop_tail, red, codel, fq_codel, pie, drop_head',),
             source="issue 29: unknown AQM names list the valid ones"),
    BadInput("scenario_fields-wlan-queue-drops-at-dequeue", argv=("run", "wlan.toml"), files={"wlan.toml": _WLAN},
             says=("wlans.0.queue.kind: codel drops packets it has queued (at dequeue, RFC 8289 §5)",
                   "which a WLAN station cannot do", "use drop_tail, red or pie"),
             source="issue 29: an AQM on a link layer that cannot drop before service is refused with a reason"),
]
