"""The `lossy` command line.

Bad input (a scenario the core rejects, a missing file, bad TOML, a bad --set, a usage
mistake such as `--seed abc`) prints one line, `lossy: <message>`, on stderr and exits
with status 2; Ctrl-C exits with 130. A bug (an exception nothing expected) prints one
line that says so and exits with 70; LOSSY_DEBUG=1 shows its traceback instead.

Start-up time is part of the interface (`lossy bench` measures it): this module imports
only typer and the core at the top; every command imports what it needs (rich tables,
NumPy, pandas, pyarrow, matplotlib) inside its own function.
"""

from __future__ import annotations

import json
import os
import re
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, List, Optional, Tuple

import typer

from . import _core
from ._core import ScenarioError
from .cli_help import HELP_OPTIONS, FullHelpGroup
from .cli_errors import (click_exceptions, debugging, fail, internal_error, one_line, one_line_warning,
                         usage_message, user_errors)
from .cli_progress import interruptible
from .cli_traces import traces_app

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(
    name="lossy",
    help="Packet-level simulator of TCP over lossy wireless links. `lossy COMMAND -h` says what a "
         "command does and which options it takes.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,  # a bug shows one line (a traceback with LOSSY_DEBUG=1)
    # Plain help: rich's help costs 0.1 s of imports at every start (markdown
    # included) and its markup ate bracketed words such as [metrics].
    rich_markup_mode=None,
    cls=FullHelpGroup,  # each command's whole first sentence in `lossy --help`
    context_settings=HELP_OPTIONS,  # -h as well as --help, for every command
)


def main() -> None:
    click = click_exceptions()
    warnings.showwarning = one_line_warning
    try:
        code = typer.main.get_command(app).main(prog_name="lossy", standalone_mode=False)
    except click.UsageError as e:
        if e.ctx is not None and type(e).__name__ == "NoArgsIsHelpError":
            sys.stdout.write(e.ctx.get_help() + "\n")  # `lossy` or `lossy generate` alone: the help
            sys.exit(0)
        # One line instead of click's usage box: `--seed abc` -> what, which option, what is allowed.
        command = e.ctx.command_path.split(" ", 1)[1] if e.ctx is not None and " " in e.ctx.command_path else ""
        where = f"{command}: " if command else ""
        sys.stderr.write(f"lossy: {one_line(where + usage_message(e))}\n")
        code = 2
    # typer.Exit and typer.Abort, not click's: typer 0.2x vendors click without them (the
    # catch-all below once named `click.Exit` and itself died of an AttributeError).
    except typer.Exit as e:
        code = e.exit_code
    except typer.Abort:
        sys.stderr.write("lossy: interrupted\n")
        code = 130
    except click.ClickException as e:
        sys.stderr.write(f"lossy: {one_line(e.format_message())}\n")
        code = e.exit_code
    except Exception as e:  # a bug: one line, not a traceback (issue 27)
        if debugging():
            raise
        code = internal_error(e)
    sys.exit(code if isinstance(code, int) else 0)


def console(stderr: bool = False) -> "Console":
    from .render import console as make_console

    return make_console(stderr=stderr)


# --- commands --------------------------------------------------------------------------


@app.command()
def run(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A scenario file (TOML), or the name of a shipped scenario, e.g. last-hop.", show_default=False)],
    set_: Annotated[
        Optional[List[str]],
        typer.Option("--set", "-s", metavar="PATH=VALUE",
                     help="Change a field by dotted path, e.g. --set flows.0.tcp.variant=newreno "
                          "or --set links.1.loss.p=0.02. Values are TOML when they parse as TOML, "
                          "else plain text. Repeatable."),
    ] = None,
    seed: Annotated[int, typer.Option(metavar="N", help="Master seed of every random stream: the same seed gives the same result, bit for bit.")] = 1,
    replication: Annotated[int, typer.Option(metavar="N", help="Replication index: each gives an independent run of the same scenario and seed (as a sweep's replications do).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    trace: Annotated[
        Optional[List[str]],
        typer.Option(metavar="NAME", help="Record this trace (cwnd, seq, throughput, owd, sojourn or pacing) and write it to --out (required with --trace). Repeatable. (A link's capacity trace is the scenario's: `lossy traces`.)"),
    ] = None,
    out: Annotated[
        Optional[Path],
        typer.Option(metavar="DIR", help="Directory for the --trace files (CSV; Parquet too if pyarrow is installed); created if missing."),
    ] = None,
    pcap: Annotated[
        Optional[Path],
        typer.Option(metavar="DIR",
                     help="Write a packet capture per link direction into DIR, e.g. DIR/BS-to-MH.pcap "
                          "(pcap, IPv4/TCP headers, for Wireshark or tshark): the directions the "
                          "scenario's [capture] links names, or every one."),
    ] = None,
) -> None:
    """Run one scenario and print its summary, flows, links and agents, and any notes on
    the run. FILE is a scenario file, or the name of a shipped one (`lossy scenarios`
    lists them)."""
    from .api import run as run_scenario
    from .captures import write_captures
    from .cli_checks import run_numbers, traces_asked
    from .scenario import apply_overrides, load_scenario, parse_assignment
    from .traces import check_trace_dir, write_traces

    with user_errors({"--out": out, "--pcap": pcap}):
        overrides = dict(parse_assignment(a) for a in set_ or [])
        names = list(dict.fromkeys(trace or []))
        if names and out is None:
            raise ScenarioError("--trace needs --out DIR to say where to write it")
        run_numbers(seed, replication)
        doc = apply_overrides(load_scenario(_scenario_file(file)), overrides)
        traces_asked(names, out, doc)
        if out is not None:
            check_trace_dir(out)  # before the run: a bad --out must not cost a finished result
        if pcap is not None:
            check_trace_dir(pcap, "--pcap")
        progress = _core.RunProgress()
        result = interruptible(
            lambda: run_scenario(doc, seed=seed, replication=replication, traces=names,
                                 progress=progress, capture=pcap is not None),
            progress,
        )
    written: List[Path] = []
    pcaps: List[Tuple[Path, int]] = []
    errors: List[str] = []
    if out is not None:
        try:
            written = write_traces(result, names or sorted(result.traces), out)
        except OSError as e:  # the disk filled up mid-write: show the result all the same
            errors.append(f"--out {out}: {e.strerror or e}; the traces were not written")
    if pcap is not None:
        try:
            pcaps = write_captures(result, pcap)
        except OSError as e:
            errors.append(f"--pcap {pcap}: {e.strerror or e}; the captures were not all written")
    if as_json:
        payload = result.to_dict(traces=False)
        if out is not None:
            payload["trace_files"] = [str(p) for p in written]
        if pcap is not None:
            payload["capture_files"] = [{"file": str(p), "packets": n} for p, n in pcaps]
        sys.stdout.write(json.dumps(payload, allow_nan=False) + "\n")
    else:
        from .render import result_tables

        con = console()
        con.print(result_tables(result))
        for note in result.notes:  # one line each (no wrap), whatever the width
            con.print(f"note: {note}", style="yellow", soft_wrap=True, markup=False, highlight=False)
        for path in written:
            con.print(f"wrote {path}")
        for path, n in pcaps:
            con.print(f"wrote {path} ({n} packets)")
    for message in errors[:-1]:
        sys.stderr.write(f"lossy: {message}\n")
    if errors:
        raise fail(errors[-1])


def _scenario_file(file: str) -> str:
    """FILE as given, or the shipped scenario of that name when no such file exists."""
    from .cli_checks import file_or_shipped

    return file_or_shipped(file, "scenario")


scenarios_app = typer.Typer(help="The scenarios and sweep specs shipped with lossy: alone, the command lists "
                                 "them with their descriptions; `lossy scenarios show NAME` prints one.",
                            invoke_without_command=True, cls=FullHelpGroup)
app.add_typer(scenarios_app, name="scenarios")


@scenarios_app.callback()
def scenarios_list(ctx: typer.Context) -> None:
    """List the shipped scenarios and experiments (sweep specs), with their descriptions
    (`lossy scenarios` alone)."""
    if ctx.invoked_subcommand is not None:
        return
    from .shipped import experiment_names, experiment_path, scenario_names, scenario_path

    with user_errors():
        rows = [("scenario", n, scenario_path(n)) for n in scenario_names()] + \
               [("experiment", n, experiment_path(n)) for n in experiment_names()]
        width = max(len(n) for _, n, _ in rows)
        for kind, name, path in rows:
            sys.stdout.write(f"{kind:<10}  {name:<{width}}  {_description(path)}\n")
    sys.stdout.write("\n`lossy scenarios show NAME` prints one (e.g. to copy it: "
                     "lossy scenarios show last-hop > my.toml); `lossy run NAME` runs it.\n")


@scenarios_app.command("show")
def scenarios_show(
    name: Annotated[str, typer.Argument(metavar="NAME", help="A shipped scenario or experiment, e.g. last-hop.", show_default=False)],
) -> None:
    """Print a shipped scenario or experiment as TOML (redirect it to a file to start your own)."""
    from .shipped import experiment_names, experiment_path, scenario_path

    with user_errors():
        stem = name[:-5] if name.endswith(".toml") else name
        path = experiment_path(stem) if stem in experiment_names() else scenario_path(stem)
        text = path.read_text(encoding="utf-8")
        if path.parent.name == "experiments":
            # A spec names its scenario relative to itself; a copy elsewhere needs the shipped one.
            text = re.sub(r'scenario = "\.\./scenarios/([\w.-]+)\.toml"', r'scenario = "\1"', text)
    sys.stdout.write(text)


def _description(path: Path) -> str:
    """The `description` field of a shipped TOML file."""
    from .scenario import read_toml

    return " ".join(str(read_toml(path).get("description", "")).split())
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


def _version_option(value: bool) -> None:
    if value:
        version()
        raise typer.Exit(0)


@app.callback()
def _lossy(
    version_: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version_option,
                                           help="Print the version (as `lossy version` does) and exit.")] = False,
) -> None:
    """The options before any command: --version (-h and --help come with every command).
    The help text shown is the Typer's `help`, above."""


@app.command()
def bench(
    quick: Annotated[bool, typer.Option(help="3 rounds instead of 5, and the smaller scale rows (a few minutes).")] = False,
    pairs: Annotated[Optional[int], typer.Option(min=1, help="Rounds of fresh processes per row, every side once per round (lossy, REF, htsim, ns-3, lossy, ...). [default: 5, 3 with --quick]")] = None,
    rows: Annotated[Optional[str], typer.Option(metavar="PATTERN", help="Only the rows whose label this regular expression finds (case-insensitive); the other tables only when it finds their name (sweep, BCH, rateless, command line).")] = None,
    compare: Annotated[Optional[str], typer.Option(metavar="REF", help="Also run another build, interleaved: a git commit of this repository (built once, cached) or a path to another installation's Python.")] = None,
    min_loop: Annotated[float, typer.Option(min=0.0, metavar="SECONDS", help="CPU seconds each process's event loop is sized to last at least (a calibration run per row). [default: 1]")] = 1.0,
    anchors: Annotated[bool, typer.Option("--anchors/--no-anchors", help="Also run htsim and ns-3 where they are available.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (every sample) instead of tables.")] = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the main table and its notes as Markdown (for a README or a paper) instead of tables.")] = False,
    scenarios: Annotated[Optional[Path], typer.Option(metavar="DIR", help="Where the standard scenarios are. [default: the shipped ones]")] = None,
    sweep: Annotated[bool, typer.Option("--sweep/--no-sweep", help="Also time 1,000 short runs through the sweep machinery (overhead per run).")] = True,
) -> None:
    """Measure CPU time per delivered packet and memory on the standard scenarios, beside
    htsim and ns-3 when they are available, each row in interleaved fresh processes.
    Exit status 1 when a row failed (its error is the last output; the other rows run)."""
    from . import bench as bench_mod  # only this command needs it
    from . import bench_cli, bench_codec, bench_rateless, bench_sweep
    from .bench_compare import CompareError, resolve
    from .bench_table import eln_lines

    if rows is not None:
        try:
            re.compile(rows)
        except re.error as e:
            raise fail(f"--rows {rows!r}: not a regular expression ({e})") from None
    if as_json and markdown:
        raise fail("--json and --markdown: choose one output")
    progress = None if as_json else console(stderr=True)

    def wanted(name: str) -> bool:
        return rows is None or re.search(rows, name, re.I) is not None

    with user_errors():
        try:
            ref = resolve(compare, progress) if compare is not None else None
        except CompareError as e:
            raise fail(str(e)) from None
        if progress is not None:
            progress.print("[dim]bench: " + ("a few minutes" if quick else "10 minutes or more with the anchors")
                           + "[/dim]", highlight=False)
        anchor_sides, anchor_notes = bench_mod.load_anchors(anchors, progress)
        report = bench_mod.run_bench(
            scenarios_dir=bench_mod.find_scenarios(scenarios),
            pairs=pairs or (3 if quick else 5),
            quick=quick,
            anchors=anchor_sides,
            compare=ref,
            rows=rows,
            progress=progress,
            target_s=min_loop,
        )
        report["notes"] = anchor_notes + report["notes"]
        # The other tables: all of them, or those whose name --rows finds.
        if sweep and wanted("sweep machinery"):
            report["sweep"] = bench_sweep.measure(quick=quick, progress=progress)
        if wanted("BCH decoder"):
            report["codec"] = bench_codec.measure(quick=quick, progress=progress)
        if wanted("rateless codes"):
            report["rateless"] = bench_rateless.measure(quick=quick, progress=progress)
        if wanted("command line"):
            report["cli"] = bench_cli.measure(quick=quick, progress=progress)
    if as_json:
        sys.stdout.write(json.dumps(report, allow_nan=False) + "\n")
    elif markdown:
        from .bench_table import markdown as markdown_table

        sys.stdout.write(markdown_table(report))
    else:
        if report["rows"]:
            console().print(bench_mod.report_table(report))
        for note in report["notes"] + eln_lines(report):
            console().print(note, highlight=False)
        for key, module in (("sweep", bench_sweep), ("codec", bench_codec), ("rateless", bench_rateless),
                            ("cli", bench_cli)):
            if key in report:
                console().print(module.table(report[key]))  # type: ignore[attr-defined]
    failed = bench_mod.failures(report)
    for line in failed[:-1]:
        sys.stderr.write(f"lossy: {line}\n")
    if failed:
        raise fail(failed[-1], 1)


generate_app = typer.Typer(help="Write a generated scenario as TOML.", no_args_is_help=True, cls=FullHelpGroup)
app.add_typer(generate_app, name="generate")


@generate_app.command("base-station")
def generate_base_station(
    hosts: Annotated[int, typer.Option(metavar="N", help="Mobile hosts behind the base station, one bulk TCP flow to each.")] = 10_000,
    loss_p: Annotated[float, typer.Option(metavar="P", help="Bernoulli loss probability on each base station -> host hop.")] = 0.01,
    duration: Annotated[str, typer.Option(metavar="D", help="Simulated time, with its unit: \"10 s\", 500ms.")] = "10 s",
    eln: Annotated[bool, typer.Option("--eln/--no-eln", help="An ELN agent at the base station for every host.")] = True,
    out: Annotated[Optional[Path], typer.Option(metavar="FILE", help="Write here instead of to stdout.")] = None,
) -> None:
    """Write a base-station scenario: server --1 Gbps--> base station --2 Mbps, lossy--> N
    mobile hosts, a bulk TCP flow to each, started 0.1 ms apart (a scale test)."""
    import shlex

    from .generate import GenerateError, base_station, to_toml
    from .scenario import to_json_text

    with user_errors({"--out": out}):
        try:
            doc = base_station(hosts, loss_p=loss_p, duration=duration, eln=eln)
            # One host checks every value given here, in a millisecond: the full scenario
            # only repeats it, and the core would take seconds over 10,000 hosts.
            _core.validate(to_json_text(base_station(1, loss_p=loss_p, duration=duration, eln=eln)))
        except GenerateError as e:
            raise fail(f"--{e.argument.replace('_', '-')}: {e.problem}") from None
        except ScenarioError as e:  # the scenario's `duration` is --duration here
            message = str(e)
            raise fail("--" + message if message.startswith("duration:") else message) from None
        header = (f"Generated by: lossy generate base-station --hosts {hosts} "
                  f"--loss-p {loss_p:g} --duration {shlex.quote(duration)}{'' if eln else ' --no-eln'}")
        text = to_toml(doc, header=header)
        if out is None:
            sys.stdout.write(text)
            return
        out.write_text(text, encoding="utf-8")
    console().print(f"wrote {out}", highlight=False)


channel_app = typer.Typer(help="Channel models: fit the fading channel's two-state chain.", no_args_is_help=True,
                          cls=FullHelpGroup)
app.add_typer(channel_app, name="channel")


@channel_app.command("fit")
def channel_fit(
    snr: Annotated[List[float], typer.Option("--snr", metavar="DB", help="Mean SNR per bit in dB, -100 to 100 (repeatable: a row each).", show_default=False)],
    doppler: Annotated[List[float], typer.Option("--doppler", metavar="HZ", help="Maximum Doppler frequency f_d in Hz, > 0 (repeatable).", show_default=False)],
    payload: Annotated[int, typer.Option(metavar="BYTES", help="N_L: data bytes per link packet.")] = 32,
    code: Annotated[Optional[List[str]], typer.Option(metavar="none|bch:N,K", help="FEC of each link packet, e.g. bch:255,87 (repeatable). [default: none]")] = None,
    modulation: Annotated[str, typer.Option(metavar="bpsk|dpsk", help="Modulation that sets the bit error probability.")] = "bpsk",
    rate: Annotated[str, typer.Option(metavar="RATE", help="Link rate, e.g. 1.5Mbps, \"384 kbps\" or bit/s.")] = "1.5 Mbps",
    packets: Annotated[Optional[int], typer.Option(metavar="N", help="Link packets per fit. [default: max(2000 Doppler periods, 10^6)]")] = None,
    seed: Annotated[int, typer.Option(metavar="N", help="Master seed of the fit's random streams.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON array, a row per fit, instead of the table.")] = False,
) -> None:
    """Fit Chockalingam's two-state Markov chain (Eq. 1) to the Rayleigh fading channel.
    Link packets are sent back to back, each judged with its FEC; prints P_E, 1 - q and the
    mean error burst (1 - q)^-1 with standard errors, the threshold model's closed form
    beside it, and the fitted chain as a link's `loss = {...}` line. Several --snr,
    --doppler and --code values give a row each (Table 1 style)."""
    from .channel_cli import OptionError, parse_code, parse_rate, print_json, print_table, run_rows

    with user_errors():
        try:
            codes = [parse_code(c) for c in code] if code else [None]
            fits = run_rows(snr, doppler, codes, payload, modulation, parse_rate(rate), packets, seed)
        except OptionError as e:
            raise fail(str(e)) from None
        if as_json:
            print_json(fits)
        else:
            print_table(fits, console())


app.add_typer(traces_app, name="traces")


@app.command("sweep")
def sweep_(
    spec: Annotated[str, typer.Argument(metavar="SPEC", help="Sweep spec (TOML), e.g. experiments/reno-vs-eln.toml.", show_default=False)],
    out: Annotated[Optional[Path], typer.Option(metavar="DIR", help="Results directory (the store; a second call resumes it). [default: results/<name>, the spec's name]")] = None,
    executor: Annotated[str, typer.Option(metavar="local|processes|dask", help="Where runs execute: threads on every core, a process per core, or a Dask cluster.")] = "local",
    scheduler: Annotated[Optional[str], typer.Option(metavar="ADDR", help="Dask scheduler address, e.g. tcp://host:8786 (without it, a local Dask cluster).")] = None,
    workers: Annotated[Optional[int], typer.Option(metavar="N", help="Parallel runs. [default: every core]")] = None,
    retry_failed: Annotated[bool, typer.Option("--retry-failed", help="Run the stored failed runs again.")] = False,
    until_ci: Annotated[Optional[str], typer.Option(metavar="PRECISION", help="Add replications until every point's 95 % CI half-width is within this fraction of its mean: 5% or 0.05.")] = None,
    max_replications: Annotated[Optional[int], typer.Option(metavar="N", help="Most replications per point with --until-ci. [default: 50]")] = None,
    metric: Annotated[Optional[List[str]], typer.Option(metavar="NAME", help="Metric for --until-ci (repeatable). [default: the spec's [metrics]]")] = None,
    quick: Annotated[bool, typer.Option(help="Lay the spec's [quick] table over it (results go to results/<name>-quick).")] = False,
) -> None:
    """Run a sweep: every run the store lacks, on every core; resumable. Exit status 1 when
    some runs failed (stored with their error; --retry-failed runs them again)."""
    from .cli_checks import file_or_shipped, only_with_until_ci, scheduler_with_dask

    con = console()
    with user_errors({"--out": out}):  # a Ctrl-C while these load is "lossy: interrupted" too
        from .sweep import sweep as run_sweep
        from .sweep.commands import closing_table, parse_fraction, print_errors, print_results
        from .sweep.executors import release_before_exit
        from .sweep.interrupt import exit_on_second
        from .sweep.runner import SweepInterrupted

        exit_on_second()  # a second Ctrl-C ends the command, whatever is still closing
        scheduler_with_dask(scheduler, executor)
        only_with_until_ci(until_ci, {"--max-replications": max_replications, "--metric": metric})
        target = parse_fraction(until_ci) if until_ci is not None else None
        file_or_shipped(spec, "experiment")  # a bare unknown name: list the shipped ones
        try:
            done = run_sweep(spec, out=out, executor=executor, workers=workers, retry_failed=retry_failed,
                             until_ci=target, max_replications=50 if max_replications is None else max_replications, scheduler=scheduler,
                             quick=quick, ci_metrics=metric)
        except SweepInterrupted as e:
            con.print(closing_table(e.report))
            sys.stdout.flush()
            sys.stderr.write("lossy: interrupted; every finished run is stored, run again to resume\n")
            sys.stderr.flush()
            # Every finished run is stored: leave now. Runs still inside the core cannot be
            # stopped from Python, and a Dask client's exit handlers waited 60 s more.
            release_before_exit()
            os._exit(130)
        assert done.report is not None
        con.print(closing_table(done.report))
        if done.metrics and done.report.ok + done.report.stored_before:
            print_results(spec, None, False, out=out, quick=quick, con=con)  # failed points too
        else:
            print_errors(con, done.report)
    report = done.report
    if report.lost:
        raise fail(f"{len(report.lost)} run(s) lost by the executor (e.g. {report.lost[0]}); "
                   "run the sweep again to redo them", 1)
    if report.failed or report.failed_kept:
        raise fail(f"{report.failed + report.failed_kept} run(s) failed; their errors are stored "
                   "(lossy results shows them); --retry-failed runs them again", 1)


@app.command("results")
def results_(
    target: Annotated[str, typer.Argument(metavar="SPEC|DIR", help="A sweep spec, or a results directory.", show_default=False)],
    metric: Annotated[Optional[List[str]], typer.Option(metavar="NAME", help="Metric to summarize: an alias or a summary key (repeatable). [default: the spec's [metrics]]")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON array of summary rows instead of a table.")] = False,
    out: Annotated[Optional[Path], typer.Option(metavar="DIR", help="The results directory of SPEC, if the sweep used --out.")] = None,
    quick: Annotated[bool, typer.Option(help="The results of `lossy sweep SPEC --quick`.")] = False,
) -> None:
    """Summarize a sweep: per point and metric, n, mean and 95 % confidence interval."""
    from .cli_checks import results_target
    from .sweep.commands import print_results

    with user_errors({"--out": out}):
        results_target(target, out is not None, quick)
        print_results(target, metric, as_json, out=out, quick=quick, con=console())


@app.command()
def plot(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="A sweep's results directory, e.g. results/reno-vs-eln.", show_default=False)],
    x: Annotated[str, typer.Option("--x", metavar="AXIS", help="The axis along x, e.g. wireless.p.", show_default=False)],
    y: Annotated[str, typer.Option("--y", metavar="METRIC", help="The metric along y: an alias (goodput) or a summary key (flows.0.goodput_bps).", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FIG", help="The figure file: .png, .svg or .pdf.", show_default=False)],
    hue: Annotated[Optional[str], typer.Option(metavar="AXIS", help="One line per value of this axis, e.g. scheme.")] = None,
    logx: Annotated[bool, typer.Option(help="Logarithmic x axis.")] = False,
    logy: Annotated[bool, typer.Option(help="Logarithmic y axis.")] = False,
    errorbars: Annotated[bool, typer.Option(help="95 % CI as error bars instead of shaded bands.")] = False,
    title: Annotated[Optional[str], typer.Option(metavar="T", help="Title above the plot.")] = None,
    xlabel: Annotated[Optional[str], typer.Option(metavar="TEXT", help="Label of the x axis. [default: AXIS]")] = None,
    ylabel: Annotated[Optional[str], typer.Option(metavar="TEXT", help="Label of the y axis, as given. [default: METRIC and its unit, from the metric's name: _bps -> Mb/s, _s -> s]")] = None,
) -> None:
    """Plot a metric of a sweep against an axis: mean and 95 % CI, a line per --hue value."""
    from .plot import PlotError, PlotSpec, plot_dir

    spec = PlotSpec(x=x, y=y, hue=hue, logx=logx, logy=logy, errorbars=errorbars, title=title,
                    xlabel=xlabel, ylabel=ylabel)
    with user_errors({"--output": output}):
        try:
            path = plot_dir(directory, spec, output)
        except PlotError as e:
            message = str(e)  # the figure's name is --output's value here
            raise fail(f"--output {message}" if message.startswith(f"{output}:") else message) from None
    console().print(f"wrote {path}")


@app.command("ns3")
def ns3(
    setup: Annotated[Optional[List[str]], typer.Option(metavar="NAME", help="Only this set-up (repeatable): bbr-dumbbell, cubic-codel, aqm-droptail, aqm-codel, aqm-fq-codel, aqm-pie, fq-codel-4flows or lossy-path.", show_default=False)] = None,
    quick: Annotated[bool, typer.Option(help="Three seeds a point instead of all.")] = False,
    stored: Annotated[bool, typer.Option(help="Take ns-3's column from its stored reference run, even where ns-3 can be built.")] = False,
    write_reference: Annotated[bool, typer.Option(help="Rewrite the stored reference (python/lossy/ns3cc/ns3_reference.csv) from ns-3's runs.")] = False,
    out: Annotated[Path, typer.Option(metavar="DIR", help="Where ns3-compare.csv and ns3-compare.md go.")] = Path("results/ns3"),
) -> None:
    """Compare each congestion control's goodput with ns-3 3.44's on ns-3's own set-ups
    and the ns3-compare lossy path: mean and 95 % CI over seeds, difference, within 5 %?"""
    from .ns3cc.command import compare_ns3 as run_comparison
    from .ns3cc.compare import markdown

    say = console(stderr=True).print
    with user_errors({"--out": out}):
        table, window = run_comparison(setup, quick, stored, write_reference, out,
                                       lambda line: say(line, markup=False, soft_wrap=True))
    print(markdown(table) + "\n" + window, end="")


@app.command()
def reproduce(
    name: Annotated[Optional[str], typer.Argument(metavar="NAME", help="What to reproduce, e.g. validation (--list shows every one); all for every one and an index page.", show_default=False)] = None,
    quick: Annotated[bool, typer.Option(help="A reduced version: fewer points and replications, shorter runs (under a minute).")] = False,
    out: Annotated[Optional[Path], typer.Option(metavar="DIR", help="Where results, figures and report.md go. [default: results/reproduce-NAME; with all, results/ holds each reproduce-NAME/ and index.md]")] = None,
    only: Annotated[Optional[str], typer.Option(metavar="KEYS", help="Only these figures, tables and claims (comma-separated keys, see --list), and the sweeps they need; their report goes to DIR/only-KEYS/report.md, so the full run's report.md stays.")] = None,
    list_: Annotated[bool, typer.Option("--list", help="List every reproduction with its figures, tables and claims; run nothing.")] = False,
) -> None:
    """Reproduce a paper's figures and check its claims; writes report.md. Exit status 1
    when a claim could not be checked or a figure not drawn (a defect, named in the report)."""
    from .papers.cli import reproduce_command

    with user_errors({"--out": out}):
        problem = reproduce_command(name, quick=quick, out=out, only=only, list_=list_, console=console)
    if problem:
        raise fail(problem, 1)
