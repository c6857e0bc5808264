"""`lossy ns3`: lossy's congestion controls beside ns-3 3.44's on the same paths.

Each set-up (setups.py) is one path run by both simulators: ns-3 runs our program
python/lossy/anchors/ns3/cc.cc (built on demand as `lossy bench` builds its anchors;
ns3_side.py, its results cached under the user cache directory, keyed by the program's
hash and the run's arguments), lossy runs the set-up's scenario (scenarios/ here, or the
shipped ns3-compare.toml; lossy_side.py). compare.py puts the two side by side: goodput
per congestion control and loss rate, mean ± 95 % CI over seeds, the difference and
whether it is within the 5 % the issue asks for. Where ns-3 cannot be installed, the
stored reference (reference.py, ns3_reference.csv, with its provenance) stands in for it.
"""
