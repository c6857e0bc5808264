"""The text of `lossy --help`, kept beside this module as top_help.txt.

Rendering it means importing typer and every command's declaration: about 0.2 G
instructions, twice what Python itself costs to start, where the target for `lossy
--help` is 0.1 s (issue 28). The text only changes when a command's help does, so the
entry point (`lossy.entry`) prints the stored text when it would come out the same: at
click's width of 78 columns, which any terminal of 80 columns or more (or none) gets.
A test (tests/python/test_top_help.py) holds the stored text equal to what the command
line renders; `python -m lossy.top_help` writes it again after a help text changes.
"""

from __future__ import annotations

import sys
from pathlib import Path

HELP_FILE = Path(__file__).with_name("top_help.txt")
REFRESH = "python -m lossy.top_help"
# click's help is min(terminal columns, 80) - 2 wide (HelpFormatter): every terminal of
# at least this many columns gets the stored text's 78.
STORED_FOR_COLUMNS = 80


def rendered_help() -> str:
    """`lossy --help` as the command line renders it in a terminal of 80 columns or more."""
    import typer

    from .cli import app

    command = typer.main.get_command(app)
    ctx = command.make_context("lossy", [], resilient_parsing=True,
                                   terminal_width=STORED_FOR_COLUMNS - 2)
    return command.get_help(ctx) + "\n"


def stored_help() -> str:
    return HELP_FILE.read_text(encoding="utf-8")


if __name__ == "__main__":
    HELP_FILE.write_text(rendered_help(), encoding="utf-8")
    sys.stdout.write(f"wrote {HELP_FILE}\n")
