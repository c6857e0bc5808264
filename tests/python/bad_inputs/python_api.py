"""The Python API: `lossy.run`, `lossy.sweep` and friends called with what a user can get wrong."""

from bad_inputs.case import BadInput

SHIPPED_NAME = "silent: the README's Python block only works inside the checkout: lossy.run(\"last-hop\") says \"no such scenario file\""
UNKNOWN_NAME = "weak: an unknown shipped name does not list the shipped names"

CASES = [
    BadInput("api-unknown-override-field", python='lossy.run("last-hop", overrides={"flows.0.tcp.nonsense": 1})',
             says=("flows.0.tcp.nonsense",), source=SHIPPED_NAME),
    BadInput("api-unknown-shipped-scenario", python='lossy.run("last-hpo")',
             says=("scenario: 'last-hpo' is neither a file here nor a shipped scenario", "last-hop, miyoshi"),
             source=UNKNOWN_NAME),
    BadInput("api-load-unknown-shipped-scenario", python='lossy.load_scenario("one-hpo.toml")',
             says=("scenario: 'one-hpo.toml'", "one-hop"), source=UNKNOWN_NAME),
    BadInput("api-sweep-unknown-experiment", python='lossy.sweep("reno-vs-el", out="{tmp}/o")',
             says=("spec: 'reno-vs-el' is neither a file here nor a shipped experiment", "reno-vs-eln"),
             source=UNKNOWN_NAME),
    BadInput("api-unknown-name-cut-short", python='lossy.run("x" * 10000)',
             says=("scenario: 'xxxxx", "…' is neither", "last-hop"),
             source="fuzz: messages echo unbounded input"),
    BadInput("api-overrides-not-a-mapping", python='lossy.run("last-hop", overrides=5)',
             says=("overrides: 5 is not a mapping of dotted paths to values",),
             source="fuzz: a bare TypeError from the API (found in review)"),
]
