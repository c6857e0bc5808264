"""What pantheon-emulators holds the simulator to: the 18 emulators of Pantheon's
experiments.yml (tested line by line), and Pantheon's published statements, none of which
is a statement about these emulators' numbers that our runs could hold (see why)."""

from __future__ import annotations

from ..inventory import Inventory, Item

TEST = "tests/python/test_pantheon_emulators.py"

INVENTORY = Inventory(paper="docs/papers/pantheon-emulators.md (Yan et al., USENIX ATC 2018; observatory's "
                            "experiments.yml)", items=[
    Item("experiments.yml, 'emu'", "StanfordSNR/observatory src/scripts/experiments.yml", "table",
         "the 18 emulators: traces, mm-delay, mm-loss uplink, DropTail sizes; 5 runs of 30 s; 1 flow, 3 flows "
         "10 s apart",
         tests=[f"{TEST}::test_the_table_is_experiments_yml", f"{TEST}::test_the_sweeps_expand_the_table"]),
    Item("Abstract, second result", "Abstract; §4 (calibrated emulators)", "statement",
         "the calibrated emulators capture the diverse performance of real Internet paths and closely "
         "approximate real-world results",
         not_covered="a statement about Pantheon's emulators against the real paths they were calibrated to; "
                     "we replay the emulators' parameters, not the paths, and no published number for a "
                     "scheme on an emulator is an input here: a measurement, not a claim"),
    Item("Abstract, first result", "Abstract; §3 (measurement study)", "statement",
         "congestion-control schemes vary dramatically in their relative performance as a function of path "
         "dynamics",
         not_covered="measured over a year on real paths with Pantheon's 17 schemes, of which this reproduction "
                     "runs the kernel ones only; a measurement (the plots and tables), not a claim"),
])

__all__ = ["INVENTORY"]
