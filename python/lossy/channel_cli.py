"""`lossy channel fit`: the two-state Markov fit of the fading channel as a command
(Chockalingam Eq. 1, Table 1): its options read, the rows run, the table and the
fitted chains' TOML lines printed. Bad input is one line naming the option
(`--code: ...`), never the API's field name (`code: ...`)."""

from __future__ import annotations

import json
import math
import re
import sys
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from .channel_fit import MarkovFit, fit_markov

if TYPE_CHECKING:
    from rich.console import Console

# The API's field names (the core's messages start with them) -> the command's options.
OPTIONS = {"mean_snr_db": "--snr", "doppler_hz": "--doppler", "payload_bytes": "--payload",
           "code": "--code", "modulation": "--modulation", "rate": "--rate",
           "packets": "--packets", "seed": "--seed"}

Code = Optional[Tuple[int, int]]


class OptionError(ValueError):
    """Bad input, with the message already naming the option."""


def as_option_error(e: ValueError) -> OptionError:
    """`code: BCH(100, 50) does not exist: ...` -> `--code: BCH(100, 50) does not exist: ...`."""
    field, sep, rest = str(e).partition(": ")
    return OptionError(f"{OPTIONS[field]}: {rest}" if sep and field in OPTIONS else str(e))


def parse_code(text: str) -> Code:
    """`none` -> None, `bch:255,87` -> (255, 87); whether such a code exists is the core's
    to say."""
    t = text.strip().lower()
    if t == "none":
        return None
    m = re.fullmatch(r"bch:\s*(\d+)\s*,\s*(\d+)", t)
    if m is None:
        raise OptionError(f"--code: {text!r} is not a code; use none or bch:N,K, e.g. bch:255,87")
    return int(m.group(1)), int(m.group(2))


def parse_rate(text: str) -> int:
    """A rate as scenarios write it ("1.5 Mbps", "1.5Mbps", "384 kbps", bit/s as a bare
    number), read by the core's own parser."""
    from . import _core

    try:
        return _core.parse_rate(text)
    except ValueError as e:
        raise OptionError(f"--rate: {e}") from None


def code_name(code: Code) -> str:
    return "none" if code is None else f"bch:{code[0]},{code[1]}"


def run_rows(snrs: Sequence[float], dopplers: Sequence[float], codes: Sequence[Code], payload: int,
             modulation: str, rate_bps: int, packets: Optional[int], seed: int) -> List[MarkovFit]:
    """One fit per (code, Doppler, SNR), in Table 1's order; every row is checked before
    the first runs, so a bad value late in a list costs no wait."""
    from . import _core

    rows = [(c, fd, snr) for c in codes for fd in dopplers for snr in snrs]
    try:
        for c, fd, snr in rows:
            _core.fit_markov(snr, fd, payload, c, modulation, rate_bps, packets, seed, check_only=True)
        return [fit_markov(snr, fd, payload_bytes=payload, code=c, modulation=modulation,
                           rate_bps=rate_bps, packets=packets, seed=seed) for c, fd, snr in rows]
    except ValueError as e:
        raise as_option_error(e) from None


def _pm(value: float, se: float) -> str:
    if not math.isfinite(value):
        return "-"
    return f"{value:.2e} ±{se:.0e}" if math.isfinite(se) else f"{value:.2e}"


def _num(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}f}" if math.isfinite(value) else "-"


def print_table(fits: Sequence[MarkovFit], con: "Console") -> None:
    """The table, the notes under it and the TOML lines, written at once (a reader that
    closes the pipe early, `| head`, meets one write: a BrokenPipeError the caller's
    user_errors() turns into a quiet exit, not rich's SystemExit)."""
    with con.capture() as captured:
        _table(fits, con)
    sys.stdout.write(captured.get())
    sys.stdout.flush()


def _table(fits: Sequence[MarkovFit], con: "Console") -> None:
    from rich import box
    from rich.table import Table

    first = fits[0]
    con.print(f"lossy channel fit: the two-state chain (Chockalingam Eq. 1) of Rayleigh fading, "
              f"{first.payload_bytes}-byte link packets back to back at {first.rate_bps:,} bit/s, "
              f"{first.modulation.upper()}, seed {first.seed}", highlight=False, markup=False, soft_wrap=True)
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ["code", "f_d Hz", "SNR dB", "P_E", "1−q", "(1−q)⁻¹", "ZRM (1−q)⁻¹", "T",
                 "periods"]:
        t.add_column(name, justify="left" if name == "code" else "right", no_wrap=True)
    for f in fits:
        burst = f"{_num(f.burst)} ±{_num(f.burst_se)}" if math.isfinite(f.burst) else "-"
        t.add_row(code_name(f.code), f"{f.doppler_hz:g}", f"{f.mean_snr_db:g}", _pm(f.p_e, f.p_e_se),
                  _pm(f.one_minus_q, f.q_se), burst, _num(f.closed_form_burst),
                  f"{f.packet_time_s * 1e6:.1f} µs", f"{f.doppler_periods:,.0f}")
    con.print(t)
    lines = [
        "± one standard error (batch means over 40 independent fading draws); periods: Doppler "
        "periods the fit spans (packets × T × f_d).",
        "ZRM: the threshold model of Zorzi, Rao and Milstein with its threshold set so that its "
        "P_E equals the simulated P_E, ρ = J0(2π f_d T).",
        "The fitted chains, for a link's loss (slot = T: the chain also steps while the link is idle):",
    ]
    for line in lines:
        con.print(line, highlight=False, markup=False, soft_wrap=True)
    for f in fits:
        con.print(f"{f.loss_toml()}  # {code_name(f.code)}, {f.doppler_hz:g} Hz, {f.mean_snr_db:g} dB",
                  highlight=False, markup=False, soft_wrap=True)


def print_json(fits: Sequence[MarkovFit]) -> None:
    rows: List[Dict[str, Any]] = [f.to_dict() for f in fits]
    sys.stdout.write(json.dumps(rows, allow_nan=False) + "\n")
    sys.stdout.flush()
