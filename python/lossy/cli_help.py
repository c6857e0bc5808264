"""How `lossy --help` lists the commands: each with its whole first sentence.

click cuts each command's description to what fits beside the longest command name at
80 columns and ends it with "..." ("Run one scenario and print its summary, flows,
links and..."); a reader deciding which command to run needs the whole sentence, so
here it wraps onto the next lines instead (issue 27)."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Tuple

from typer.core import TyperGroup

# `-h` as well as `--help`, for every command (click passes it down to subcommands).
HELP_OPTIONS: Dict[str, Any] = {"help_option_names": ["-h", "--help"]}

# A sentence ends at ".", "!" or "?" before a capital or a backquote (so "report.md."
# ends one, "e.g. bch:255,87" does not).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")


def first_sentence(text: str) -> str:
    """The first sentence of a command's help, on one line, whole."""
    paragraph = " ".join(text.strip().split("\n\n", 1)[0].split())
    return _SENTENCE_END.split(paragraph, 1)[0]


class FullHelpGroup(TyperGroup):
    """A command group whose help lists every command with its whole first sentence."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows: List[Tuple[str, str]] = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is None or cmd.hidden:
                continue
            rows.append((name, cmd.short_help or first_sentence(cmd.help or "")))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


__all__ = ["FullHelpGroup", "HELP_OPTIONS", "first_sentence"]
