"""`lossy bench`, rateless part: how fast the verifying mode of FECTCP's codes runs
(crates/lossy-core/src/coding/rateless/rate.rs), RaptorQ (RFC 6330, the `raptorq` crate)
and our LT code.

Each row is one transfer of a file of random bytes in 1,460-byte symbols over a channel
that erases 20 % of them, sent as ids 0, 1, 2, … and decoded from what arrives; the core
times encoding (building the block encoders, then every symbol sent) and decoding (every
symbol received, then the file put together) apart. The file is checked byte for byte.
"""

from __future__ import annotations

import statistics
from typing import Any, Dict, List, Optional

from rich.console import Console
from rich.table import Table

from ._core import rateless_rate

SYMBOL_SIZE = 1460
LOSS = 0.2


def measure(quick: bool = False, progress: Optional[Console] = None) -> List[Dict[str, Any]]:
    """One row per code: the medians of three transfers (seeds 1 to 3); a 1 MB file with
    --quick, else 10 MB."""
    file_bytes = 1_000_000 if quick else 10_000_000
    rows = []
    for code, label in [("raptorq", "RaptorQ"), ("lt", "LT")]:
        if progress is not None:
            progress.print(f"[dim]bench: {label}, {file_bytes / 1e6:g} MB file[/dim]", highlight=False)
        runs = [rateless_rate(code, file_bytes, SYMBOL_SIZE, seed=seed, loss=LOSS) for seed in (1, 2, 3)]
        rows.append({"code": label, "file_bytes": file_bytes, "symbol_size": SYMBOL_SIZE, "loss": LOSS,
                     "source_symbols": runs[0]["source_symbols"], "blocks": runs[0]["blocks"],
                     "symbols_received": statistics.median(r["symbols_received"] for r in runs),
                     "encode_mb_per_s": statistics.median(r["encode_mb_per_s"] for r in runs),
                     "decode_mb_per_s": statistics.median(r["decode_mb_per_s"] for r in runs),
                     "verified": all(r["verified"] for r in runs)})
    return rows


def table(rows: List[Dict[str, Any]]) -> Table:
    t = Table(title=f"rateless codes, verifying mode: file MB per wall second, {SYMBOL_SIZE}-byte symbols, "
                    f"{LOSS:.0%} lost, median of 3", title_justify="left")
    for name in ["code", "file", "K", "received", "encode", "decode", "file back"]:
        t.add_column(name, justify="left" if name == "code" else "right")
    for r in rows:
        t.add_row(r["code"], f"{r['file_bytes'] / 1e6:g} MB", f"{r['source_symbols']:,}",
                  f"{r['symbols_received']:,.0f}", f"{r['encode_mb_per_s']:.0f} MB/s",
                  f"{r['decode_mb_per_s']:.0f} MB/s",
                  "byte for byte" if r["verified"] else "[red]differs[/]")
    return t
