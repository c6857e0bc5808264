"""The `lossy` command line.

Bad input (a scenario the core rejects, a missing file, bad TOML, a bad --set) prints one
line, `lossy: <message>`, on stderr and exits with status 2; Ctrl-C exits with 130.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Callable, Dict, Iterator, List, Optional, TypeVar

import typer

from . import _core
from ._core import ScenarioError
from .api import run as run_scenario
from .render import console, result_tables
from .scenario import parse_assignment
from .traces import write_traces

app = typer.Typer(
    name="lossy",
    help="Packet-level simulator of TCP over lossy wireless links.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,  # a bug shows a plain traceback; bad input never does
)

T = TypeVar("T")


def main() -> None:
    app(prog_name="lossy")


# --- error handling --------------------------------------------------------------------


def fail(message: str, code: int = 2) -> "typer.Exit":
    sys.stdout.flush()
    sys.stderr.write(f"lossy: {' '.join(message.split())}\n")
    sys.stderr.flush()
    return typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn what a user can get wrong into one line and status 2; Ctrl-C into 130."""
    try:
        yield
    except KeyboardInterrupt:
        raise fail("interrupted", 130) from None
    except ScenarioError as e:
        raise fail(str(e)) from None
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        raise fail(f"{where}{e.strerror or e}") from None


def interruptible(fn: Callable[[], T]) -> T:
    """Call fn in a worker thread so that Ctrl-C stops the command at once.

    The core runs with the GIL released and never returns to Python mid-run, so the main
    thread waits in short joins, where KeyboardInterrupt can land. The run cannot be
    cancelled from outside, so an interrupt ends the process.
    """
    box: Dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # handed back to the main thread
            box["error"] = e

    worker = threading.Thread(target=target, name="lossy-run", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
    except KeyboardInterrupt:
        sys.stdout.flush()
        sys.stderr.write("lossy: interrupted\n")
        sys.stderr.flush()
        os._exit(130)  # the worker is still inside the core; nothing else can stop it
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


# --- commands --------------------------------------------------------------------------


@app.command()
def run(
    file: Annotated[str, typer.Argument(metavar="FILE", help="Scenario file (TOML).", show_default=False)],
    set_: Annotated[
        Optional[List[str]],
        typer.Option("--set", "-s", metavar="PATH=VALUE",
                     help="Change a field by dotted path, e.g. --set flows.0.tcp.variant=newreno "
                          "or --set links.1.loss.p=0.02. Values are TOML when they parse as TOML, "
                          "else plain text. Repeatable."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Master seed of every random stream.")] = 1,
    replication: Annotated[int, typer.Option(help="Replication index (another independent run).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    trace: Annotated[
        Optional[List[str]],
        typer.Option(metavar="NAME", help="Record this trace (cwnd, seq, throughput) and write it to --out. Repeatable."),
    ] = None,
    out: Annotated[
        Optional[Path],
        typer.Option(metavar="DIR", help="Directory for trace files (CSV; Parquet too if pyarrow is installed)."),
    ] = None,
) -> None:
    """Run one scenario and print its summary, flows, links and agents."""
    with user_errors():
        overrides = dict(parse_assignment(a) for a in set_ or [])
        names = list(dict.fromkeys(trace or []))
        if names and out is None:
            raise ScenarioError("--trace needs --out DIR to say where to write it")
        for name in names:
            overrides[f"traces.{name}"] = True  # the core records only what is switched on
        result = interruptible(
            lambda: run_scenario(file, seed=seed, replication=replication, overrides=overrides)
        )
        written: List[Path] = []
        if out is not None:
            written = write_traces(result, names or sorted(result.traces), out)
    if as_json:
        payload = result.to_dict(traces=False)
        if out is not None:
            payload["trace_files"] = [str(p) for p in written]
        sys.stdout.write(json.dumps(payload, allow_nan=False) + "\n")
        return
    con = console()
    con.print(result_tables(result))
    for path in written:
        con.print(f"wrote {path}")


@app.command()
def schema() -> None:
    """Print the scenario JSON Schema (for editors that complete TOML)."""
    sys.stdout.write(json.dumps(json.loads(_core.schema()), indent=2) + "\n")


@app.command()
def version() -> None:
    """Print the version of lossy and of the crates that decide its results."""
    sys.stdout.write(f"lossy {_core.version()}\n")
    for name, value in _core.build_info().items():
        sys.stdout.write(f"  {name} {value}\n")


@app.command()
def bench(
    quick: Annotated[bool, typer.Option(help="One repeat of shorter runs (about a minute).")] = False,
    repeat: Annotated[Optional[int], typer.Option(min=1, help="Runs per measurement; the median is shown. [default: 3, 1 with --quick]")] = None,
    ns3: Annotated[bool, typer.Option("--ns3/--no-ns3", help="Also run the ns-3 anchor when it is built.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
    scenarios: Annotated[Optional[Path], typer.Option(metavar="DIR", help="Where the standard scenarios are. [default: ./scenarios]")] = None,
) -> None:
    """Measure speed and memory on the standard scenarios, beside ns-3 when it is built."""
    from . import bench as bench_mod  # only this command needs it

    with user_errors():
        report = bench_mod.run_bench(
            scenarios_dir=bench_mod.find_scenarios(scenarios),
            repeat=repeat or (1 if quick else 3),
            quick=quick,
            with_ns3=ns3,
            progress=None if as_json else console(stderr=True),
        )
    if as_json:
        sys.stdout.write(json.dumps(report, allow_nan=False) + "\n")
    else:
        console().print(bench_mod.report_table(report))
        for note in report["notes"]:
            console().print(note)
