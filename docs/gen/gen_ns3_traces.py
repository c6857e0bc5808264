"""guide/ns3-traces.png: the cwnd traces of `lossy ns3`'s traced set-ups, ns-3 3.44's
(stored in python/lossy/ns3cc/ns3_traces.csv) over lossy's (run as the site is built),
in segments; and the BBR run's pacing rate on each side. docs/guide/anchors.md
shows it; lossy.ns3cc.traces has the runs."""

from __future__ import annotations

import io
from typing import Dict

from lossy.ns3cc import traces
from lossy.ns3cc.setups import SETUPS

PATH = "guide/ns3-traces.png"


def _stairs(ax, steps, scale: float, **style) -> None:  # type: ignore[no-untyped-def]
    if steps:
        xs = [t for t, _ in steps]
        ys = [v / scale for _, v in steps]
        ax.step(xs, ys, where="post", **style)


def png() -> bytes:
    """The figure, as PNG bytes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(3, 1, figsize=(9, 9))
    bbr, cubic = SETUPS["bbr-dumbbell"], SETUPS["cubic-codel"]
    ns3_bbr, ns3_cubic = traces.ns3(bbr.name), traces.ns3(cubic.name)
    lossy_bbr, lossy_cubic = traces.lossy(bbr.name), traces.lossy(cubic.name)
    _stairs(axes[0], ns3_bbr["cwnd"], bbr.mss, label="ns-3 TcpBbr", color="tab:orange")
    _stairs(axes[0], lossy_bbr["cwnd"], bbr.mss, label="lossy bbr", color="tab:blue", alpha=0.7)
    axes[0].set_title(f"{bbr.title}: BBR, seed {traces.SEED}")
    axes[0].set_ylabel("cwnd, segments")
    _stairs(axes[1], ns3_bbr["pacing"], 1e6, label="ns-3 TcpBbr pacing rate", color="tab:orange")
    _stairs(axes[1], lossy_bbr["pacing"], 1e6, label="lossy bbr pacing rate", color="tab:blue", alpha=0.7)
    axes[1].set_ylabel("pacing rate, Mb/s")
    axes[1].set_title(f"{bbr.title}: BBR's pacing rate, seed {traces.SEED}")
    _stairs(axes[2], ns3_cubic["cwnd"], cubic.mss, label="ns-3 TcpCubic", color="tab:orange")
    _stairs(axes[2], lossy_cubic["cwnd"], cubic.mss, label="lossy cubic", color="tab:blue", alpha=0.7)
    axes[2].set_title(f"{cubic.title}: CUBIC, seed {traces.SEED}")
    axes[2].set_ylabel("cwnd, segments")
    for ax in axes:
        ax.set_xlabel("time, s")
        ax.legend(loc="upper right")
        ax.grid(alpha=0.3)
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=90)
    plt.close(fig)
    return out.getvalue()


def pages() -> Dict[str, bytes]:
    return {PATH: png()}


def write() -> None:
    import mkdocs_gen_files

    for path, content in pages().items():
        with mkdocs_gen_files.open(path, "wb") as f:
            f.write(content)
