"""The command line's own options: values, files and directories given to `lossy`."""

from bad_inputs.case import BadInput

CASES = [
    BadInput("seed-not-a-number", argv=("run", "last-hop", "--seed", "abc"),
             says=("--seed 'abc' is not a whole number",)),
]
