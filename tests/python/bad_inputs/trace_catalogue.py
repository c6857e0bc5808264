"""The trace catalogue (issue 30): `lossy traces list | info | fetch` and a scenario's
`capacity = { trace = ... }`. A name not in the catalogue lists the close ones; a
reference's error names its field."""

from bad_inputs.case import BadInput

# One link whose forward capacity names a trace; `{capacity}` is the table's inside. The
# reference is resolved when the scenario is loaded, before the core reads it.
_SCENARIO = """\
duration = "1 s"
nodes = ["A", "B"]
[[links]]
between = ["A", "B"]
rate = "10 Mbps"
delay = "10 ms"
capacity = {{ {capacity} }}
[[flows]]
from = "A"
to = "B"
"""

CASES = [
    BadInput("traces-info-unknown-name", argv=("traces", "info", "mahimahi:TMobile-LTE-shrt.down"),
             says=("'mahimahi:TMobile-LTE-shrt.down' is not in the trace catalogue",
                   "close names: mahimahi:TMobile-LTE-short.down", "lossy traces list")),
    BadInput("traces-fetch-name-without-collection", argv=("traces", "fetch", "Verizon-LTE-short.down"),
             says=("'Verizon-LTE-short.down' is not in the trace catalogue", "close names: mahimahi:Verizon-LTE-short.down")),
    BadInput("traces-fetch-unknown-collection", argv=("traces", "fetch", "cellular:TMobile-LTE-short.down"),
             says=("the collections are mahimahi, pantheon, lumos5g",)),
    BadInput("traces-fetch-nothing", argv=("traces", "fetch"),
             says=("name a trace, a collection or --all",)),
    BadInput("traces-list-unknown-collection", argv=("traces", "list", "cellular"),
             says=("'cellular' is not a collection; use mahimahi, pantheon, lumos5g",)),
    BadInput("scenario-capacity-trace-unknown-name", argv=("run", "s.toml"),
             files={"s.toml": _SCENARIO.format(capacity='trace = "mahimahi:TMobile-LTE-shrt.down"')},
             says=("links.0.capacity.trace: 'mahimahi:TMobile-LTE-shrt.down' is not in the trace catalogue",
                   "close names: mahimahi:TMobile-LTE-short.down")),
    BadInput("scenario-capacity-trace-not-text", argv=("run", "s.toml"),
             files={"s.toml": _SCENARIO.format(capacity="trace = 5")},
             says=("links.0.capacity.trace: 5 is not a trace", "a catalogue name such as mahimahi:")),
    BadInput("scenario-capacity-trace-missing-file", argv=("run", "s.toml"),
             files={"s.toml": _SCENARIO.format(capacity='trace = "my.down"')},
             says=("links.0.capacity.trace: 'my.down': no such file",)),
    BadInput("scenario-capacity-trace-and-file", argv=("run", "s.toml"),
             files={"s.toml": _SCENARIO.format(capacity='trace = "my.down", file = "my.down"'), "my.down": "1\n"},
             says=("links.0.capacity: both trace and file are given; keep one",)),
    BadInput("scenario-capacity-trace-kind-contradicts-the-catalogue", argv=("run", "s.toml"),
             files={"s.toml": _SCENARIO.format(capacity='trace = "lumos5g:5g_trace_100_walking", kind = "mahimahi"')},
             says=("links.0.capacity.kind: 'mahimahi' does not match lumos5g:5g_trace_100_walking, a rate_schedule trace",
                   "leave kind out")),
    BadInput("set-capacity-trace-unknown-name",
             argv=("run", "last-hop", "--set", "links.1.reverse_capacity.trace=pantheon:12mbps"),
             says=("links.1.reverse_capacity.trace: 'pantheon:12mbps' is not in the trace catalogue",
                   "close names: pantheon:12mbps.trace")),
    BadInput("run-trace-given-a-capacity-trace",
             argv=("run", "last-hop", "--trace", "mahimahi:TMobile-LTE-short.down", "--out", "{tmp}/out"),
             says=("--trace 'mahimahi:TMobile-LTE-short.down' is not a trace",
                   "a link's capacity trace goes in the scenario, e.g. --set links.0.capacity.trace="),
             source="issue 30: `lossy run --trace` records a run's time series; a capacity trace is not one"),
    BadInput("api-catalogue-path-unknown-name",
             python="    from lossy import trace_catalogue\n    trace_catalogue.path('pantheon:100mbit.trace')",
             says=("'pantheon:100mbit.trace' is not in the trace catalogue", "close names: pantheon:100mbps.trace")),
]
