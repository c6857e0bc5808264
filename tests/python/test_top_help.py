"""The stored `lossy --help` (python/lossy/top_help.txt, printed without importing the
command line) is what the command line renders."""

from lossy.top_help import REFRESH, rendered_help, stored_help


def test_the_stored_help_is_what_the_command_line_renders() -> None:
    assert stored_help() == rendered_help(), (
        f"python/lossy/top_help.txt is out of date with the commands' help: run {REFRESH}")


def test_the_stored_help_lists_every_command() -> None:
    import typer

    from lossy.cli import app

    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    listed = stored_help().split("Commands:\n", 1)[1]
    for name, command in commands.items():
        if not command.hidden:
            assert f"\n  {name} " in "\n" + listed, name
