"""`lossy reproduce`: one reproduction, `all` of them with an index page, `--only` some
of its figures, tables and claims, or `--list` what exists. The typer command in
lossy/cli.py is a thin wrapper around `reproduce_command`."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Callable, List, Optional, Sequence

from .._core import ScenarioError, ScenarioWarning
from . import get, names
from .listing import listing, stored_listing

if TYPE_CHECKING:
    from rich.console import Console

    from .outcome import Outcome


def reproduce_command(name: Optional[str], quick: bool, out: Optional[Path], only: Optional[str],
                      list_: bool, console: Callable[[], "Console"]) -> Optional[str]:
    """Run what was asked and print it (on the console `console()` makes, only once
    something runs); the one-line problem that makes the exit status 1 (claims that
    could not be checked, figures not drawn), else None. Bad input raises ScenarioError
    (status 2)."""
    if list_:
        # listing.txt as it is: no reproduction, pandas or rich imported (listing.py).
        sys.stdout.write(stored_listing())
        return None
    if name is None:
        raise ScenarioError(f"name a reproduction: {', '.join(names())}, or all (--list shows what each holds)")
    keys = parse_only(only)
    from .outcome import default_out
    from .report import claims_table
    from .run import reproduce, reproduce_all

    con = console()
    # A reproduction's sweeps hold deliberate controls that a scenario warning is for when
    # written by hand (ELN on a last hop made lossless, to show it then does nothing):
    # the demo's first lines must not call them mistakes.
    warnings.filterwarnings("ignore", category=ScenarioWarning)

    if name == "all":
        if keys:
            raise ScenarioError("--only names items of one reproduction; name it instead of all")
        from .index import write_index

        root = out if out is not None else Path("results")
        outcomes = reproduce_all([get(n) for n in names()], root, quick=quick)
        for o in outcomes:
            con.print(not_run_line(o) if o.not_run else claims_table(o), highlight=False)
            con.print(f"report: {o.report}", highlight=False)
        con.print(f"index: {write_index(outcomes, root, quick)}", highlight=False)
    else:
        outcomes = [reproduce(get(name), out if out is not None else default_out(name), quick=quick, only=keys)]
        if outcomes[0].not_run:  # asked for by name: nothing made is a failure (exit status 1)
            return not_run_line(outcomes[0])
        con.print(claims_table(outcomes[0]))
        con.print(f"report: {outcomes[0].report}", highlight=False)
    return problem(outcomes)


def not_run_line(o: "Outcome") -> str:
    return f"{o.title()}: not run: {o.not_run}"



def parse_only(only: Optional[str]) -> List[str]:
    if only is None:
        return []
    keys = [k.strip() for k in only.split(",") if k.strip()]
    if not keys:
        raise ScenarioError("--only: name figures, tables or claims, e.g. --only fig10,table3 (--list shows them)")
    return list(dict.fromkeys(keys))


def problem(outcomes: Sequence["Outcome"]) -> Optional[str]:
    """One line on what is broken, or None when every claim was checked and every figure drawn."""
    found = [(o, d) for o in outcomes for d in o.defects()]
    if not found:
        return None
    o, first = found[0]
    more = f" and {len(found) - 1} more defect(s)" if len(found) > 1 else ""
    return f"{o.reproduction.name}: {first}{more}; see {o.report}"


__all__ = ["listing", "not_run_line", "parse_only", "problem", "reproduce_command"]
