"""`lossy sweep` and `lossy results`: names that become paths, and options that would be
ignored (issue 27: "A store name", "Non-clean errors from lossy.sweep", "silent: lossy
results DIR --quick")."""

from bad_inputs.case import BadInput

SCENARIO = 'duration = "1 s"\n[[nodes]]\nname = "a"\n[[nodes]]\nname = "b"\n'


def spec(name_line: str) -> dict:
    return {"spec.toml": f'{name_line}\nscenario = "s.toml"\n', "s.toml": SCENARIO}


CASES = [
    BadInput("sweep-store-name-dot-dot-after-strip", argv=("sweep", "spec.toml"),
             files=spec('name = " .."'), says=("name: ' ..'", "starts with '.'"),
             source="A store name \" ..\" passes the leading-dot check because whitespace is stripped afterwards"),
    BadInput("sweep-store-name-nul-byte", argv=("sweep", "spec.toml"),
             files=spec('name = "a\\u0000b"'), says=("name: 'a\\x00b'", "control characters"),
             source="fuzz: a name with a NUL byte raises ValueError: embedded null byte"),
    BadInput("sweep-store-name-too-long", argv=("sweep", "spec.toml"),
             files=spec(f'name = "{"x" * 300}"'), says=("name: 'xxx", "…", "300 bytes", "at most 249 bytes"),
             source="fuzz: a very long sweep name raises OSError: [Errno 36] File name too long"),
    BadInput("sweep-store-name-too-long-api",
             python='lossy.sweep({"name": "y" * 4000, "scenario": "s.toml"}, progress=False)',
             files={"s.toml": SCENARIO}, says=("name: 'yyy", "4000 bytes", "at most 249 bytes"),
             source="fuzz: a very long sweep name raises OSError: [Errno 36] File name too long"),
    BadInput("sweep-store-name-nul-byte-api",
             python='lossy.sweep({"name": "run\\x00s", "scenario": "s.toml"}, progress=False)',
             files={"s.toml": SCENARIO}, says=("name: 'run\\x00s'", "control characters"),
             source="fuzz: a name with a NUL byte raises ValueError: embedded null byte"),
    BadInput("sweep-store-name-slash-api",
             python='lossy.sweep({"name": "../elsewhere", "scenario": "s.toml"}, progress=False)',
             files={"s.toml": SCENARIO}, says=("name: '../elsewhere'", "holds '/'"),
             source="A store name passes the leading-dot check (names that become paths)"),
]

# Options of `lossy results` that pick a spec's store, given a store: refused, not ignored.
CASES += [
    # `lossy results DIR --quick` is command_line.py's cli-results-dir-with-quick.
    BadInput("sweep-store-results-dir-out", argv=("results", "{tmp}", "--out", "elsewhere"),
             says=("--out: ", "is a results directory, read as it is", "give the spec"),
             source="silent: lossy results DIR --quick ignores --quick (and --out likewise)"),
]

# A stored trace altered after it was written: read_trace raised a raw ArrowInvalid.
CORRUPT_TRACE = """
import pathlib
s = lossy.sweep({"name": "t", "scenario": "one-hop", "duration": "1 s", "traces": ["cwnd"]},
                out="store", progress=False)
rid = s.results()["run_id"][0]
trace = pathlib.Path("store/traces") / rid / "cwnd.parquet"
trace.write_bytes(trace.read_bytes()[:-40] + b"x" * 40)
lossy.results.read_trace("store", rid, "cwnd")
"""

CASES += [
    BadInput("sweep-store-read-trace-corrupt", python=CORRUPT_TRACE,
             says=("trace 'cwnd' of run", "cwnd.parquet is altered or replaced", "run the sweep again"),
             source="Trace files are never checked: a corrupt trace makes read_trace raise a raw ArrowInvalid"),
]

# A trace name becomes traces/<run_id>/<name>.parquet: checked as a name before the core
# sees it (a long one was echoed whole).
CASES += [
    BadInput("sweep-store-trace-name-path", argv=("sweep", "spec.toml"),
             files={"spec.toml": 'name = "t"\nscenario = "one-hop"\ntraces = ["../x"]\n'},
             says=("traces: '../x' is not a trace name", "\"cwnd\""),
             source="names that become paths: validate the characters of anything that becomes a path"),
    BadInput("sweep-store-trace-name-long", argv=("sweep", "spec.toml"),
             files={"spec.toml": f'name = "t"\nscenario = "one-hop"\ntraces = ["{"c" * 5000}"]\n'},
             says=("traces: 'ccc", "…", "is not a trace name"),
             source="Messages echo unbounded input: a long trace name came back whole"),
]
