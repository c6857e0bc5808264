"""Link capacity tables (issue 30): Mahimahi traces and rate schedules a link reads, and
`rate` where a capacity table makes it needless or its absence makes it needed. Each
answer names the field in `--set` notation and, for a file's contents, the file and line."""

from bad_inputs.case import BadInput

# A one-link scenario whose forward direction is `{capacity}`; `{rate}` is the rate line.
_LINK = """\
duration = "1 s"
nodes = ["A", "B"]
[[links]]
between = ["A", "B"]
{rate}
delay = "1 ms"
capacity = {capacity}
[[flows]]
from = "A"
to = "B"
"""


def _mahimahi(trace: str, once: str = "") -> dict:
    return {"link.toml": _LINK.format(rate='rate = "10 Mbps"', capacity='{ kind = "mahimahi", file = "trace.down"%s }' % once),
            "trace.down": trace}


def _schedule(log: str, extra: str = "") -> dict:
    return {"link.toml": _LINK.format(rate='rate = "10 Mbps"', capacity='{ kind = "rate_schedule", file = "rates.log"%s }' % extra),
            "rates.log": log}


CASES = [
    BadInput("capacity-mahimahi-malformed-line", argv=("run", "link.toml"), files=_mahimahi("1\n2\n2.5\n"),
             says=("links.0.capacity.file: ", "trace.down line 3: \"2.5\" is not a delivery opportunity",
                   "whole number of milliseconds"),
             source="issue 30: a malformed trace line names the file and line"),
    BadInput("capacity-mahimahi-empty", argv=("run", "link.toml"), files=_mahimahi(""),
             says=("links.0.capacity.file: ", "trace.down: no delivery opportunities"),
             source="issue 30: an empty trace is refused with the reason"),
    BadInput("capacity-mahimahi-blank-line", argv=("run", "link.toml"), files=_mahimahi("1\n\n2\n"),
             says=("links.0.capacity.file: ", "trace.down line 2: an empty line", "invalid empty line"),
             source="mm-link's link_queue.cc refuses an empty line; so does lossy (issue 30: Mahimahi's rules exactly)"),
    BadInput("capacity-mahimahi-decreasing", argv=("run", "link.toml"), files=_mahimahi("1\n5\n4\n"),
             says=("links.0.capacity.file: ", "trace.down line 3: 4 ms comes after 5 ms", "never decrease"),
             source="issue 30: a trace with decreasing timestamps is refused with the reason"),
    BadInput("capacity-mahimahi-zero-duration", argv=("run", "link.toml"), files=_mahimahi("0\n0\n", once=", once = true"),
             says=("links.0.capacity.file: ", "every opportunity is at 0 ms", "nonzero time"),
             source="issue 30: a zero-duration trace is refused (mm-link: \"trace must last for a nonzero amount of time\")"),
    BadInput("capacity-mahimahi-missing-file", argv=("run", "link.toml"),
             files={"link.toml": _LINK.format(rate='rate = "10 Mbps"', capacity='{ kind = "mahimahi", file = "nowhere.down" }')},
             says=("links.0.capacity.file: ", "nowhere.down: no such file"),
             source="issue 30: each direction its own file"),
    BadInput("capacity-schedule-negative-rate", argv=("run", "link.toml"), files=_schedule("1.0\t5.0\n2.0\t-3.0\n"),
             says=("links.0.capacity.file: ", "rates.log line 2: rate -3.0 Mbit/s is negative"),
             source="issue 30: a rate schedule with negative rates is refused with the reason"),
    BadInput("capacity-schedule-not-a-number", argv=("run", "link.toml"), files=_schedule("1.0\tfast\n"),
             says=("links.0.capacity.file: ", "rates.log line 1: \"fast\" is not a rate in Mbit/s"),
             source="issue 30: a malformed line names the file and line"),
    BadInput("capacity-schedule-all-zero", argv=("run", "link.toml"), files=_schedule("1.0\t0\n2.0\t0.0\n"),
             says=("links.0.capacity.file: ", "every rate is 0 Mbit/s", "never deliver"),
             source="issue 30: a zero-capacity trace is refused (wrapping, it would never deliver either)"),
    BadInput("capacity-schedule-zero-interval", argv=("run", "link.toml"), files=_schedule("1.0\t5\n", extra=', interval = "0 s"'),
             says=("links.0.capacity.interval: 0 s holds no sample",),
             source="issue 30: every new field is checked"),
    BadInput("capacity-unknown-kind", argv=("run", "link.toml"),
             files={"link.toml": _LINK.format(rate='rate = "10 Mbps"', capacity='{ kind = "trace", file = "x" }')},
             says=("links.0.capacity", "constant", "mahimahi", "rate_schedule"),
             source="brief: unknown names list the valid ones"),
    BadInput("capacity-rate-not-used", argv=("run", "link.toml"),
             files={"link.toml": _LINK.format(rate='rate = "10 Mbps"\nreverse_capacity = { kind = "constant", rate = "1 Mbps" }',
                                              capacity='{ kind = "constant", rate = "5 Mbps" }')},
             says=("links.0.rate: ", "is not used: both directions have a capacity table; remove it"),
             source="DESIGN30: a rate no direction uses is refused, never silently ignored"),
    BadInput("capacity-rate-missing", argv=("run", "link.toml"),
             files={"link.toml": _LINK.format(rate="", capacity='{ kind = "constant", rate = "5 Mbps" }')},
             says=("links.0.rate: missing: the reverse direction has no `reverse_capacity` table",),
             source="DESIGN30: rate is required for a direction without a capacity table"),
]
