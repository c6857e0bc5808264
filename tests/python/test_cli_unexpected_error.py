"""A bug reaches the user as one line, not a traceback (issue 27: the catch-all handler
named `click.Exit`, absent from the vendored click of typer 0.28, so any unexpected
error printed two tracebacks ending in an AttributeError). The exception is injected
into a command and `lossy.cli.main` runs in this process."""

from __future__ import annotations

import sys

import pytest

from lossy import cli


def _run_main(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["lossy", *args])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    return int(stop.value.code or 0)


def _boom() -> str:
    raise RuntimeError("something the code did not expect\nsecond line")


def test_an_unexpected_error_is_one_line_saying_it_is_a_bug(monkeypatch, capsys) -> None:
    monkeypatch.delenv("LOSSY_DEBUG", raising=False)
    monkeypatch.setattr(cli._core, "schema", _boom)
    code = _run_main(monkeypatch, "schema")
    err = capsys.readouterr().err
    assert code == 70
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("lossy: internal error (a bug in lossy): RuntimeError: something the code did not expect;")
    assert "report it" in err and "LOSSY_DEBUG=1" in err


def test_lossy_debug_lets_the_traceback_through(monkeypatch, capsys) -> None:
    monkeypatch.setenv("LOSSY_DEBUG", "1")
    monkeypatch.setattr(cli._core, "schema", _boom)
    monkeypatch.setattr(sys, "argv", ["lossy", "schema"])
    with pytest.raises(RuntimeError, match="did not expect"):
        cli.main()


def test_a_usage_error_still_gets_status_2(monkeypatch, capsys) -> None:
    code = _run_main(monkeypatch, "run", "last-hop", "--seed", "x" * 5000)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--seed" in err and "…" in err, err
    assert len(err) < 400


def test_a_long_exception_message_is_cut(monkeypatch, capsys) -> None:
    def boom() -> str:
        raise ValueError("v" * 10_000)

    monkeypatch.delenv("LOSSY_DEBUG", raising=False)
    monkeypatch.setattr(cli._core, "schema", boom)
    assert _run_main(monkeypatch, "schema") == 70
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 400 and "…" in err, err[:500]
