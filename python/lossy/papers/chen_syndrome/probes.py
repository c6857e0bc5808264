"""What closes Chen's gaps, shown by runs with the cause removed (model.Probe).

The 1 s minimum RTO of chen-fig9.toml is ns-2's `minrto_` from 2001/05/14 on; the ns-2
of the paper's time (its technical report [16] is of December 2000) had no floor but
two ticks of 100 ms (schemes.TIMERS_2000). A sender that ends a repair in a timeout
waits at least 1 s with the floor and about 0.2–0.3 s without it: Reno ends many of its
repairs so, Syndrome those whose end-to-end retransmission is lost again, Snoop almost
none (its base station resends locally). The probes run the claims' own quantity on
the sweeps of sweeps.probe_sweeps. The explanation held to them is the one this
reproduction gave before it had probes: the timer makes the whole gap (share 1.0); the
report prints the share each probe closes, and what it leaves is cause unknown.

Table 1's state is a reading: our agent keeps a 16-bit epoch beside the 32-bit count.
"""

from __future__ import annotations

from typing import Callable

from ..context import Context
from ..judge import Measurement
from ..model import Probe

TIMER_CAUSE = ("the senders' 1 s minimum RTO (ns-2's minrto_, set on 2001/05/14; the paper's ns-2 of 2000 had "
               "none beyond two 100 ms ticks) costs the scheme that ends more repairs in timeouts more")
TIMER_CHANGE = "every sender on ns-2's timers of 2000 (RTO ≥ 0.2 s, 100 ms ticks), at the points of the gap"


def timers_2000(measure: Callable[[Context], Measurement], *sweeps: str) -> Probe:
    """The claim's `measure` on the timers-of-2000 `sweeps`."""
    return Probe(TIMER_CAUSE, TIMER_CHANGE, list(sweeps), measure, share=1.0)


__all__ = ["TIMER_CAUSE", "TIMER_CHANGE", "timers_2000"]
