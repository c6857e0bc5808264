"""The command line's own options: values, files and directories given to `lossy`."""

from bad_inputs.case import BadInput

LONG = "x" * 10_000  # a value that must not come back whole (cut with "…")

TINY_SPEC = """\
name = "tiny"
scenario = "last-hop"
replications = 1
duration = "1 s"

[grid]
"wireless.p" = { path = "links.1.loss.p", values = [0.01] }
"""

CASES = [
    BadInput("seed-not-a-number", argv=("run", "last-hop", "--seed", "abc"),
             says=("--seed 'abc' is not a whole number",)),
    BadInput("cli-seed-negative", argv=("run", "last-hop", "--seed", "-1"),
             says=("--seed: -1 is out of range", "0 to 2^64-1"),
             source="weak: the message named the API's `seed`, not --seed"),
    BadInput("cli-long-set-value-cut", argv=("run", "last-hop", "--set", f"flows.0.tcp.variant={LONG}"),
             says=("flows.0.tcp.variant", "xxx…", "use one of"),
             source="fuzz: messages echo unbounded input"),
    BadInput("cli-long-seed-cut", argv=("run", "last-hop", "--seed", "9" * 10_000),
             says=("--seed", "999…"),
             source="fuzz: messages echo unbounded input"),
    BadInput("cli-out-without-trace", argv=("run", "last-hop", "--out", "{tmp}/traces"),
             says=("--out", "no trace to write", "--trace"),
             source="silent: --out without --trace writes nothing"),
    BadInput("cli-generate-hosts-over-the-node-limit", argv=("generate", "base-station", "--hosts", "70000"),
             says=("--hosts: 70,000 is too many", "65,535 nodes", "1 to 65,533"),
             source="silent: generate --hosts 70000 writes a file the core then rejects"),
    BadInput("cli-generate-hosts-two-million", argv=("generate", "base-station", "--hosts", "2000000"),
             says=("--hosts: 2,000,000 is too many",),
             source="silent: generate --hosts 2000000 spends 6.5 minutes and 2.9 GB first"),
    BadInput("cli-generate-out-unwritable",
             argv=("generate", "base-station", "--hosts", "2", "--out", "/proc/lossy-nowhere/bs.toml"),
             says=("--out /proc/lossy-nowhere/bs.toml: ", "No such file or directory"),
             source="weak: generate passes raw OS errors without naming the option"),
    BadInput("cli-sweep-out-unwritable", argv=("sweep", "tiny.toml", "--out", "/proc/lossy-nowhere"),
             files={"tiny.toml": TINY_SPEC},
             says=("--out /proc/lossy-nowhere: ",),
             source="weak: sweep passes raw OS errors without naming the option"),
    BadInput("cli-reproduce-out-unwritable", argv=("reproduce", "validation", "--quick", "--out", "/proc/lossy-nowhere"),
             says=("--out /proc/lossy-nowhere: ",),
             source="weak: reproduce passes raw OS errors without naming the option"),
    BadInput("cli-run-unknown-shipped-name", argv=("run", "last-hopp"),
             says=("last-hopp: no such scenario file, nor a shipped scenario", "shipped: ", "last-hop"),
             source="weak: an unknown shipped name does not list the shipped names"),
    BadInput("cli-sweep-unknown-shipped-name", argv=("sweep", "reno-vs-eln2"),
             says=("reno-vs-eln2: no such sweep spec file", "shipped: reno-vs-eln"),
             source="weak: an unknown shipped name does not list the shipped names"),
    BadInput("cli-run-given-a-shipped-experiment", argv=("run", "reno-vs-eln"),
             says=("reno-vs-eln: a shipped experiment", "lossy sweep reno-vs-eln"),
             source="weak: a sweep spec given to lossy run does not suggest lossy sweep"),
    BadInput("cli-sweep-given-a-shipped-scenario", argv=("sweep", "last-hop"),
             says=("last-hop: a shipped scenario", "lossy run last-hop"),
             source="weak: a sweep spec given to lossy run does not suggest lossy sweep"),
    BadInput("cli-sweep-scheduler-without-dask", argv=("sweep", "tiny.toml", "--scheduler", "tcp://host:8786"),
             files={"tiny.toml": TINY_SPEC},
             says=("--scheduler tcp://host:8786: only a Dask cluster has a scheduler", "--executor dask"),
             source="silent: --scheduler without --executor dask went unused"),
    BadInput("cli-until-ci-over-one", argv=("sweep", "tiny.toml", "--until-ci", "150%"),
             files={"tiny.toml": TINY_SPEC},
             says=("--until-ci '150%' is not a precision", "above 0 and below 1"),
             source="weak: the message gave an example, not the allowed range"),
    BadInput("cli-max-replications-below-the-specs", argv=("sweep", "tiny.toml", "--until-ci", "5%",
                                                           "--max-replications", "0"),
             files={"tiny.toml": TINY_SPEC},
             says=("--max-replications: 0 is below the spec's replications (1); use 1 to ",),
             source="weak: the message did not say what is allowed"),
    BadInput("cli-bench-repeat-zero", argv=("bench", "--repeat", "0"),
             says=("--repeat: 0 is out of range; use 1 or more",),
             source="weak: click's words (is not in the range x>=1.)"),
    BadInput("cli-generate-duration-names-the-option", argv=("generate", "base-station", "--duration", "10 sx"),
             says=("--duration: ", "10 sx"),
             source="weak: generate named the scenario's field, not --duration"),
    BadInput("cli-run-unknown-trace", argv=("run", "last-hop", "--trace", "cwdn", "--out", "{tmp}/t"),
             says=("--trace 'cwdn' is not a trace; use cwnd, seq or throughput",),
             source="weak: the core's traces.cwdn: unknown field, throughput_interval among the choices"),
    BadInput("cli-results-neither-spec-nor-directory", argv=("results", "reno-vs-eln2"),
             says=("reno-vs-eln2: no such sweep spec or results directory", "shipped: reno-vs-eln"),
             source="weak: results passed the raw OS error"),
    BadInput("cli-results-dir-with-quick", argv=("results", "{tmp}", "--quick"),
             says=("--quick: ", "is a results directory, read as it is", "give the spec"),
             source="silent: lossy results DIR --quick ignores --quick"),
]
