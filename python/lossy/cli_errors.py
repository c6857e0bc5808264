"""How the `lossy` command reports what a user got wrong: one line, `lossy: <message>`,
on stderr and exit status 2 (130 for Ctrl-C), never a traceback or click's usage box."""

from __future__ import annotations

import errno
import os
import re
import sys
from contextlib import contextmanager
from typing import Any, Iterator, Mapping, Optional

import typer

from ._core import ScenarioError
from .ellipsis import shorten


# Issue 27: an error line echoes what was typed, and a 10,000-character value must not come
# back whole. A word (a value, a path) longer than LONGEST_WORD is cut with an ellipsis;
# a line still longer than LONGEST_MESSAGE (a long value with spaces; a list of what is
# allowed may be long) loses its middle, keeping the field in front and the end.
LONGEST_WORD = 200
LONGEST_MESSAGE = 1000


# C0 and C1 control characters (ESC among them) a terminal would act on; echoed input may
# hold them (`--set 'x="\x1b[2J"'`), so a message shows them escaped.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def one_line(message: str) -> str:
    """`message` on one line, control characters escaped (`\\x1b`), over-long words cut and
    an over-long line cut in the middle."""
    words = (_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", word) for word in str(message).split())
    line = " ".join(shorten(word, LONGEST_WORD) for word in words)
    if len(line) <= LONGEST_MESSAGE:
        return line
    head, tail = LONGEST_MESSAGE * 2 // 3, LONGEST_MESSAGE // 3 - 3
    return f"{line[:head]} … {line[-tail:]}"


def one_line_warning(message: Any, category: Any, filename: str, lineno: int,
                     file: Any = None, line: Optional[str] = None) -> None:
    """A warning (an unreadable part set aside, say) as `lossy: warning: ...` on one line,
    not Python's two lines with a source path."""
    sys.stderr.write(f"lossy: warning: {one_line(str(message))}\n")


def fail(message: str, code: int = 2) -> "typer.Exit":
    sys.stdout.flush()
    sys.stderr.write(f"lossy: {one_line(message)}\n")
    sys.stderr.flush()
    return typer.Exit(code)


# An unexpected exception is a bug in lossy, not bad input: one line that says so (BSD's
# EX_SOFTWARE, 70, as its status), the traceback only when asked for.
INTERNAL_ERROR = 70
DEBUG_VARIABLE = "LOSSY_DEBUG"


def internal_error(e: BaseException) -> int:
    """Report an exception nothing else caught: one line, status 70."""
    summary = str(e).strip().splitlines()[0] if str(e).strip() else ""
    what = f"{type(e).__name__}: {summary}" if summary else type(e).__name__
    sys.stdout.flush()
    sys.stderr.write(f"lossy: internal error (a bug in lossy): {shorten(one_line(what), 160)}; please report it "
                     f"to the lossy issue tracker with the command and `lossy version`'s output "
                     f"({DEBUG_VARIABLE}=1 shows the traceback)\n")
    sys.stderr.flush()
    return INTERNAL_ERROR


def debugging() -> bool:
    """LOSSY_DEBUG=1 (any value but empty or 0): let a bug's traceback through."""
    return os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


@contextmanager
def user_errors(options: Optional[Mapping[str, Any]] = None) -> Iterator[None]:
    """Turn what a user can get wrong into one line and status 2; Ctrl-C into 130.
    `options` maps an option to the path it gave (`{"--out": out}`): a system error about
    that path (or one inside it) names the option."""
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
        raise fail(os_error_message(e, options or {})) from None


def os_error_message(e: OSError, options: Mapping[str, Any]) -> str:
    """`--out /proc/x: No such file or directory`: the option whose path the error is
    about (that path or one inside it), then the file and the system's words."""
    name = os.fsdecode(e.filename) if isinstance(e.filename, (str, bytes, os.PathLike)) else ""
    problem = e.strerror or str(e)
    hint = "" if e.errno in (errno.ENOSPC, errno.EDQUOT) else "; give a path lossy can create and write"
    for option, value in options.items():
        if value is None or not name:
            continue
        given = os.fspath(value)
        if _is_within(name, given):
            inside = "" if os.path.abspath(name) == os.path.abspath(given) else f"{name}: "
            return f"{option} {given}: {inside}{problem}{hint}"
    return f"{name}: {problem}" if name else problem


def _is_within(name: str, given: str) -> bool:
    """Whether the error's path is the option's, inside it (a file in --out DIR) or on
    the way to it (the parent of --output FIG that could not be made)."""
    a, b = os.path.abspath(name), os.path.abspath(given)
    return a == b or a.startswith(b.rstrip(os.sep) + os.sep) or b.startswith(a.rstrip(os.sep) + os.sep)


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
    if "not in the range" in message:
        return _range_message(message)
    if not (opts and plain and "Invalid value" in message):
        # click's own wording minus its prefix.
        return re.sub(r"^Invalid value for '([^']+)': ", r"\1: ", message)
    value = _argument_after(opts[0])
    return f"{opts[0]} {value!r} {plain}" if value is not None else f"{opts[0]} {plain}"


def _range_message(message: str) -> str:
    """click's `Invalid value for '--repeat': 0 is not in the range x>=1.` in words:
    `--repeat: 0 is out of range; use 1 or more`."""
    match = re.match(r"^Invalid value for '([^']+)': (.+?) is not in the range (.+?)\.?$", message)
    if match is None:
        return re.sub(r"^Invalid value for '([^']+)': ", r"\1: ", message)
    option, value, bounds = match.groups()
    words = {
        r"^x>=(-?[\d.]+)$": "{0} or more", r"^x>(-?[\d.]+)$": "more than {0}",
        r"^x<=(-?[\d.]+)$": "{0} or less", r"^x<(-?[\d.]+)$": "less than {0}",
        r"^(-?[\d.]+)<=x<=(-?[\d.]+)$": "{0} to {1}",
    }
    for pattern, text in words.items():
        found = re.match(pattern, bounds)
        if found:
            return f"{option}: {value} is out of range; use {text.format(*found.groups())}"
    return f"{option}: {value} is out of range; use {bounds}"


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
