"""`lossy bench`, codec part: codewords per second of the real BCH decoder (syndromes,
Berlekamp–Massey, Chien search; crates/lossy-core/src/coding/bch.rs), not of the fast
path that only compares a codeword's bit errors with t.

Each row decodes random codewords of one code with a fixed number of random bit
errors, timed in the core around the decoding alone (the words are made before). The
weights: a typical one (3 errors in 255 bits: a bit error rate near 1 %), t (the most
work a word that is corrected costs) and beyond t (a detected failure).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from rich.console import Console
from rich.table import Table

from ._core import BchCode
from .formatting import si

# (n, k, bit errors per codeword)
CASES = [(255, 131, 3), (255, 131, 18), (255, 131, 26), (127, 92, 5), (255, 87, 26)]


def measure(quick: bool = False, progress: Optional[Console] = None) -> List[Dict[str, Any]]:
    """One row per case: the median rate of three timings of `count` decodings."""
    count = 2_000 if quick else 20_000
    rows = []
    for n, k, weight in CASES:
        code = BchCode(n, k)
        if progress is not None:
            progress.print(f"[dim]bench: BCH({n}, {k}, {code.t}) decoder, {weight} errors[/dim]", highlight=False)
        rates = sorted(code.decode_rate(weight, count, seed=seed) for seed in (1, 2, 3))
        rows.append({"code": f"BCH({n}, {k}, {code.t})", "n": n, "k": k, "t": code.t, "errors": weight,
                     "codewords": count, "codewords_per_s": rates[1],
                     "info_bits_per_s": rates[1] * k})
    return rows


def table(rows: List[Dict[str, Any]]) -> Table:
    t = Table(title="BCH decoder (the real one): codewords per wall second, median of 3",
              title_justify="left")
    for name in ["code", "bit errors", "codewords / s", "message bits / s"]:
        t.add_column(name, justify="left" if name == "code" else "right")
    for r in rows:
        beyond = " (> t)" if r["errors"] > r["t"] else " (= t)" if r["errors"] == r["t"] else ""
        t.add_row(r["code"], f"{r['errors']}{beyond}", si(r["codewords_per_s"], "").strip(),
                  si(r["info_bits_per_s"], "b/s"))
    return t
