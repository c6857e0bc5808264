"""Tables: built from one or more sweeps' runs, rendered into report.md and written as
CSV beside it (`<key>.csv`), e.g. a paper's table of lost, received and overhead packets
with the paper's numbers beside ours."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, List, Sequence

import pandas as pd

from ..context import Context
from .base import Artifact, write_table


@dataclass(frozen=True)
class Table:
    key: str
    title: str
    sweeps: Sequence[str]
    build: Callable[[Context], pd.DataFrame]  # reads ctx[sweep] for its sweeps only
    caption: str = ""

    kind = "table"

    @property
    def needs(self) -> Sequence[str]:
        return tuple(self.sweeps)

    def render(self, ctx: Context) -> List[Artifact]:
        df = self.build(ctx)
        if df.empty:
            raise ValueError("the table has no rows")
        return [write_table(df, ctx.out / f"{self.key}.csv")]


def table_of(key: str, sweep: str, title: str, build: Callable[[pd.DataFrame], pd.DataFrame],
             caption: str = "") -> Table:
    """A table of one sweep's runs."""
    return Table(key, title, (sweep,), lambda ctx: build(ctx[sweep]), caption)


__all__ = ["Table", "table_of"]
