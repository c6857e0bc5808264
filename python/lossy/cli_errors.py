"""How the `lossy` command reports what a user got wrong: one line, `lossy: <message>`,
on stderr and exit status 2 (130 for Ctrl-C), never a traceback or click's usage box."""

from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager
from typing import Any, Iterator, Optional

import typer

from ._core import ScenarioError


def one_line_warning(message: Any, category: Any, filename: str, lineno: int,
                     file: Any = None, line: Optional[str] = None) -> None:
    """A warning (an unreadable part set aside, say) as `lossy: warning: ...` on one line,
    not Python's two lines with a source path."""
    sys.stderr.write(f"lossy: warning: {' '.join(str(message).split())}\n")


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
    except BrokenPipeError:
        # `lossy scenarios | head`: the reader has gone; say nothing, as a killed `cat` would.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(141) from None
    except KeyboardInterrupt:
        raise fail("interrupted", 130) from None
    except ScenarioError as e:
        raise fail(str(e)) from None
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        raise fail(f"{where}{e.strerror or e}") from None


# typer's value checks speak click's type names (typer is pinned below 0.29); a person
# reads these words instead.
_TYPE_WORDS = {"integer": "is not a whole number", "int": "is not a whole number",
               "int range": "is not a whole number", "float": "is not a number",
               "boolean": "is not true or false"}


def usage_message(e: Any) -> str:
    """`--seed abc` -> `--seed 'abc' is not a whole number`: the option, the value, the rule."""
    message = " ".join(e.format_message().split())
    param = getattr(e, "param", None)
    opts = [o for o in getattr(param, "opts", []) if o.startswith("--")]
    plain = _TYPE_WORDS.get(getattr(getattr(param, "type", None), "name", ""))
    if not (opts and plain and "Invalid value" in message) or "not in the range" in message:
        # click's own wording minus its prefix: `--repeat: 0 is not in the range x>=1.`
        return re.sub(r"^Invalid value for '([^']+)': ", r"\1: ", message)
    value = _argument_after(opts[0])
    return f"{opts[0]} {value!r} {plain}" if value is not None else f"{opts[0]} {plain}"


def _argument_after(option: str) -> Optional[str]:
    """The value given to `option` on the command line (`--seed abc` or `--seed=abc`)."""
    args = sys.argv[1:]
    for i, arg in enumerate(args):
        if arg == option and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(option + "="):
            return arg[len(option) + 1:]
    return None


def click_exceptions() -> Any:
    """The exceptions of the click that typer runs on: vendored inside typer since 0.2x,
    a dependency before."""
    try:
        from typer._click import exceptions  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover - older typer
        from click import exceptions  # type: ignore[no-redef,unused-ignore]
    return exceptions
