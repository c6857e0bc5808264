"""The Python API: `lossy.run`, `lossy.sweep` and friends called with what a user can get wrong."""

from bad_inputs.case import BadInput

CASES = [
    BadInput("api-unknown-override-field", python='lossy.run("last-hop", overrides={"flows.0.tcp.nonsense": 1})',
             says=("flows.0.tcp.nonsense",)),
]
