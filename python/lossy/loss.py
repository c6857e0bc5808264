"""A loss model on its own, outside a run: which packets of a back-to-back stream it
loses, what is known about it in closed form, and the distances between its losses
(Botoș et al. Fig. 1).

    >>> from lossy.loss import loss_sequence, loss_distances, closed_form
    >>> from lossy.models import neyman_for_packet_loss
    >>> table = neyman_for_packet_loss(0.05, 1500, errors_per_cluster=3)
    >>> lost = loss_sequence(table, packets=1_000_000, packet_bytes=1500, seed=1)
    >>> d = loss_distances(lost)                    # packets from one loss to the next
    >>> (d == 1).mean(), closed_form(table, 1500)["next_lost"]

A loss table is what a scenario's `links.<i>.loss` holds, as a dict (or JSON text): the
same models, fields and checks (see the mechanism pages). The draws come from the
core (`crates/lossy-core/src/channel/sequence.rs`), from `seed`'s streams
`loss-sequence:fading` and `loss-sequence:channel`. Bad input raises ScenarioError (a
ValueError) with one line, `loss.<field>: <what is wrong>` or `<argument>: ...`;
`packets` is bounded up front (at most 10^9, a byte each; a Rayleigh sequence by its
cost, as a Markov fit is).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Dict, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import ScenarioError
from .ellipsis import shorten

__all__ = ["LossTable", "closed_form", "loss_distances", "loss_sequence"]

LossTable = Union[Mapping[str, Any], str]


def _json(loss: LossTable) -> str:
    if isinstance(loss, str):
        return loss
    for key, value in loss.items():
        # JSON cannot carry NaN, and the core's loss-table reader would name only the type.
        if isinstance(value, float) and not math.isfinite(value):
            raise ScenarioError(f"loss.{shorten(str(key))}: {value} is not a finite number; "
                                "use a finite value (lossy schema gives the field's range)")
    return json.dumps(dict(loss), allow_nan=False)


# The core's unsigned arguments are 64-bit: a bigger int would raise OverflowError.
_U64_MAX = 2**64 - 1
# The most packets one sequence holds (`channel/sequence.rs`: a byte of memory each).
MAX_PACKETS = 1_000_000_000


def _whole(name: str, value: int, least: int, example: str, most: int = _U64_MAX, why: str = "") -> int:
    """`value` as an int, or ScenarioError `name: value is not allowed; ...`, naming the
    range (issue 27: `packets=10**20` raised a raw OverflowError)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise ScenarioError(f"{name}: {_cut(value)} is not allowed; use a whole number ≥ {least}, e.g. {example}")
    if value > most:
        raise ScenarioError(f"{name}: {_cut(value)} is too many; use at most {most:,}{why}")
    return int(value)


def _cut(value: object) -> str:
    """`value` as the message shows it: a whole number with thousands separators, and
    anything over 40 characters cut with an ellipsis."""
    text = f"{value:,}" if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def loss_sequence(loss: LossTable, packets: int, packet_bytes: int, seed: int = 1,
                  rate_bps: int = 1_000_000) -> npt.NDArray[np.bool_]:
    """Whether each of `packets` packets of `packet_bytes` bytes is lost (True) under
    the loss table `loss`, the packets sent back to back at `rate_bps` bit/s (only the
    models indexed by time, markov, rayleigh and trace by times, look at the rate)."""
    return _core.loss_sequence(_json(loss), _whole("packets", packets, 0, "100000", MAX_PACKETS, " (a byte of memory each)"),
                               _whole("packet_bytes", packet_bytes, 1, "1500"),
                               _whole("seed", seed, 0, "1"),
                               _whole("rate_bps", rate_bps, 1, "1000000"))


def closed_form(loss: LossTable, packet_bytes: int) -> Dict[str, Any]:
    """What is known in closed form for packets of `packet_bytes` bytes: `model`,
    `loss` (the table with what it implies written out: for neyman, `clusters_per_unit`
    solved from `packet_loss`, and the default `span`), `stationary_loss`, `mean_burst`
    (mean run of consecutive losses, back to back) and `next_lost` (P(the next packet
    is lost | this one is), neyman only); None where there is no closed form."""
    return _core.loss_closed_form(_json(loss), _whole("packet_bytes", packet_bytes, 1, "1500"))


def loss_distances(lost: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Distances, in packets, from each loss to the next (1 = consecutive losses), the
    quantity whose CDF is Botoș Fig. 1. Its empirical CDF at k is
    `(loss_distances(lost) <= k).mean()`; for independent losses at rate p it is
    1 - (1 - p)^k."""
    where = np.flatnonzero(np.asarray(lost, dtype=bool))
    return np.diff(where).astype(np.int64)
