"""Scenario files as `lossy run` reads them: what is a file, what is empty, what is a
sweep spec, and what the capture of every link reads before the core validates."""

from bad_inputs.case import BadInput

SPEC = """\
name = "spec"
scenario = "last-hop"
replications = 2

[grid]
"wireless.p" = { path = "links.1.loss.p", values = [0.01, 0.02] }
"""

# A link with one end: --pcap names every direction, and did so before validation.
ONE_ENDED_LINK = """\
nodes = ["S", "MH"]
duration = "1 s"

[[links]]
between = ["S"]
rate = "1 Mbps"
delay = "1 ms"

[[flows]]
from = "S"
to = "MH"
app = { kind = "bulk" }
"""

CASES = [
    BadInput("scenario-dev-zero", argv=("run", "/dev/zero"),
             says=("/dev/zero: not a regular file", "give a scenario file in TOML"),
             source="fuzz: a scenario path of /dev/zero is read until the process is killed at 2 GiB"),
    BadInput("scenario-empty-file", argv=("run", "my.toml"), files={"my.toml": ""},
             says=("my.toml: the file is empty (or has only comments); a scenario needs nodes, links and flows",),
             source="weak: an empty file says nodes: missing without naming the file"),
    BadInput("scenario-comments-only", argv=("run", "my.toml"), files={"my.toml": "# to do\n\n# later\n"},
             says=("my.toml: the file is empty (or has only comments)",),
             source="weak: a comments-only file says nodes: missing without naming the file"),
    BadInput("scenario-sweep-spec-given-to-run", argv=("run", "spec.toml"), files={"spec.toml": SPEC},
             says=("spec.toml: a sweep spec", "lossy sweep spec.toml"),
             source="weak: a sweep spec given to lossy run does not suggest lossy sweep"),
    BadInput("scenario-pcap-one-ended-link", argv=("run", "bad.toml", "--pcap", "{tmp}/caps"),
             files={"bad.toml": ONE_ENDED_LINK},
             says=("links.0.between",),
             source="fuzz: lossy run --pcap reads links before the scenario is validated (TypeError/KeyError)"),
    BadInput("scenario-pcap-link-not-a-table", argv=("run", "bad.toml", "--pcap", "{tmp}/caps"),
             files={"bad.toml": 'nodes = ["S", "MH"]\nduration = "1 s"\nlinks = [5]\n'},
             says=("links.0",),
             source="fuzz: lossy run --pcap reads links before the scenario is validated (TypeError/KeyError)"),
    # An integer past Python's digit limit (4,300) was an internal error (found in review).
    BadInput("scenario-integer-of-5000-digits-in-set", argv=("run", "last-hop", "--set", "links.0.delay=" + "9" * 5000),
             says=("links.0.delay: ", "…"),
             source="fuzz: messages echo unbounded input"),
    BadInput("scenario-integer-of-5000-digits-in-file", argv=("run", "big.toml"),
             files={"big.toml": "duration = " + "9" * 5000 + "\n"},
             says=("big.toml: a number has more than 4,300 digits",),
             source="fuzz: messages echo unbounded input"),
]
