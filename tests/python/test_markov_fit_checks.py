"""`markov_fit = true` at the Python edge (issue 27): accepting a scenario runs no fit,
a run's progress counts its fit's link packets, and the progress line says it is
fitting (`crates/lossy-core/src/scenario/markov_fit.rs`, `python/lossy/cli_progress.py`)."""

from __future__ import annotations

import time
from types import SimpleNamespace

import lossy
from lossy import _core
from lossy.cli_progress import progress_line
from lossy.scenario import to_json_text


def _markov(fit_packets: int, snr: float = 20) -> dict:
    return {"duration": "1 s", "nodes": ["A", "B"],
            "links": [{"between": ["A", "B"], "rate": "1.5 Mbps", "delay": "1 ms",
                       "loss": {"model": "rayleigh", "mean_snr_db": snr, "doppler_hz": 10,
                                "markov_fit": True, "fit_packets": fit_packets}}],
            "flows": [{"from": "A", "to": "B"}]}


def test_validating_runs_no_fit():
    # 150 million 1500-byte link packets: minutes of fitting, just under the cost limit.
    t = time.monotonic()
    _core.validate(to_json_text(_markov(150_000_000)))
    assert time.monotonic() - t < 2


def test_a_run_counts_its_fits_packets():
    progress = _core.RunProgress()
    lossy.run(_markov(3_210, snr=23), progress=progress)  # a parameter set fitted nowhere else
    assert (progress.fit_packets_done, progress.fit_packets_total) == (3_210, 3_210)
    assert progress.end_s == 1


def test_the_progress_line_says_it_is_fitting_before_the_run():
    fitting = SimpleNamespace(sim_time_s=0.0, end_s=0.0, fit_packets_done=1_000_000, fit_packets_total=4_000_000)
    assert progress_line(fitting, 10.0) == ("lossy: fitting the Markov chain: 1,000,000 of 4,000,000 link packets (25%) "
                                            "in 10.0 s; about 30.0 s left")
    running = SimpleNamespace(sim_time_s=5.0, end_s=10.0, fit_packets_done=4_000_000, fit_packets_total=4_000_000)
    assert progress_line(running, 10.0).startswith("lossy: simulated 5 s of 10 s (50%)")
