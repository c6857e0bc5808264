"""`lossy traces`: the catalogue of capacity traces as commands (list, info, fetch). The
work is in trace_catalogue/command.py; this file only declares the commands and their
options, importing what each needs inside it (the CLI's start-up time, cli.py)."""

from __future__ import annotations

import sys
from typing import Annotated, List, Optional

import typer

from .cli_errors import fail, one_line, user_errors
from .cli_help import FullHelpGroup

traces_app = typer.Typer(help="Capacity traces of real links for a scenario's capacity tables (not the time series "
                              "`lossy run --trace` records): the catalogue of Mahimahi, Pantheon and Lumos5G traces, "
                              "fetched on first use and checked by SHA-256.", no_args_is_help=True, cls=FullHelpGroup)


@traces_app.command("list")
def traces_list(
    collection: Annotated[Optional[str], typer.Argument(metavar="COLLECTION", help="Only this collection: mahimahi, pantheon or lumos5g.", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON array, an object per trace, instead of the table.")] = False,
) -> None:
    """List the catalogue's traces by collection: name, format, licence, size and whether
    the file is cached; then where the cache is and where files come from."""
    from .trace_catalogue.command import list_entries

    with user_errors():
        list_entries(collection, as_json)


@traces_app.command("info")
def traces_info(
    name: Annotated[str, typer.Argument(metavar="NAME", help="A catalogue name, e.g. mahimahi:TMobile-LTE-short.down.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the lines.")] = False,
) -> None:
    """Describe a trace from its file (fetched first if it is not cached): source, licence,
    duration, mean capacity, percentiles of the capacity over one-second bins, outage
    seconds, opportunities or samples."""
    from .trace_catalogue.command import info

    with user_errors():
        info(name, as_json)


@traces_app.command("fetch")
def traces_fetch(
    names: Annotated[Optional[List[str]], typer.Argument(metavar="NAME...", help="Catalogue names, or a collection (mahimahi, pantheon, lumos5g) for all of it.", show_default=False)] = None,
    every: Annotated[bool, typer.Option("--all", help="Every trace of the catalogue.")] = False,
) -> None:
    """Fetch traces into the cache (from LOSSY_TRACE_MIRROR when it names a local mirror,
    else from their URLs) and check each file's SHA-256. Exit status 1 when a file could
    not be fetched (its error is printed; the others are fetched)."""
    from .trace_catalogue.command import chosen_for_fetch, fetch

    with user_errors():
        chosen = chosen_for_fetch(names or [], every)
        errors = fetch(chosen, lambda line: sys.stdout.write(line + "\n"))
    for message in errors[:-1]:
        sys.stderr.write(f"lossy: {one_line(message)}\n")
    if errors:
        raise fail(errors[-1], 1)
