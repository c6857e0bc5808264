"""The `lossy` command's entry point: `lossy`, `lossy -h` and `lossy --help` print the
stored help (lossy.top_help) without importing the command line; everything else goes
to `lossy.cli.main`."""

from __future__ import annotations

import shutil
import sys

from .top_help import STORED_FOR_COLUMNS, stored_help


def main() -> None:
    if sys.argv[1:] in ([], ["-h"], ["--help"]) and shutil.get_terminal_size().columns >= STORED_FOR_COLUMNS:
        sys.stdout.write(stored_help())
        sys.exit(0)
    from .cli import main as command_line

    command_line()
