"""The command line's own help (issue 27): `-h` as well as `--help` for every command,
`lossy --version` beside `lossy version`, the top-level help listing each command with
its whole first sentence (click cut them at 80 columns with "..."), and a help text for
every option and argument. In-process (click's test runner): no interpreter to start."""

from __future__ import annotations

from typing import Iterator, List, Tuple

import click
import pytest
import typer
from click.testing import CliRunner

from lossy.cli import app
from lossy.cli_help import first_sentence

ROOT = typer.main.get_command(app)


def commands(group: click.Command = ROOT, path: Tuple[str, ...] = ()) -> Iterator[Tuple[Tuple[str, ...], click.Command]]:
    """Every command and group under `lossy`, with the words that name it."""
    yield path, group
    for name, sub in sorted(getattr(group, "commands", {}).items()):
        yield from commands(sub, (*path, name))


ALL = list(commands())
NAMES = [" ".join(p) or "lossy" for p, _ in ALL]


def invoke(*args: str) -> click.testing.Result:
    return CliRunner().invoke(ROOT, list(args), prog_name="lossy", terminal_width=80)


@pytest.mark.parametrize("path", [p for p, _ in ALL], ids=NAMES)
def test_dash_h_is_help_for_every_command(path: Tuple[str, ...]) -> None:
    short, long = invoke(*path, "-h"), invoke(*path, "--help")
    assert short.exit_code == 0, short.output
    assert short.output.startswith(f"Usage: {' '.join(('lossy', *path))} ")
    assert short.output == long.output


def test_version_option_prints_what_the_version_command_prints() -> None:
    option, command = invoke("--version"), invoke("version")
    assert option.exit_code == 0 and command.exit_code == 0
    assert option.output == command.output
    assert option.output.startswith("lossy ")


def test_top_level_help_shows_each_command_whole() -> None:
    out = invoke("-h").output
    listed = out.split("Commands:", 1)[1]
    assert "..." not in listed, listed
    flat = " ".join(out.split())
    for name, cmd in ROOT.commands.items():
        sentence = first_sentence(cmd.help or "")
        assert sentence and f"{name} {sentence}" in flat, f"{name}: {sentence!r} is not shown whole"


def test_every_option_and_argument_says_what_it_is() -> None:
    missing: List[str] = []
    for path, cmd in ALL:
        if not (cmd.help or "").strip():
            missing.append(f"{' '.join(path) or 'lossy'}: no description")
        for param in cmd.params:
            if param.name == "help":
                continue
            if not (getattr(param, "help", None) or "").strip():
                missing.append(f"{' '.join(path) or 'lossy'} {param.opts[0]}: no help text")
    assert not missing, missing


@pytest.mark.parametrize("text,sentence", [
    ("Reproduce a paper's figures; writes report.md. Exit status 1 when...", "Reproduce a paper's figures; writes report.md."),
    ("Fit e.g. bch:255,87 codes.\nMore.", "Fit e.g. bch:255,87 codes."),
    ("One line,\nwrapped. `lossy x` next.", "One line, wrapped."),
])
def test_first_sentence(text: str, sentence: str) -> None:
    assert first_sentence(text) == sentence
