"""`tcp.cc = "vegas"` and `"westwood"`: thresholds out of range, an unknown filter or
field, each refused in one line naming the field in --set notation."""

from bad_inputs.case import BadInput


def _run(cc: str) -> tuple:
    """`lossy run ns3-compare --set flows.0.tcp.cc=CC` for one second."""
    return ("run", "ns3-compare", "--set", f"flows.0.tcp.cc={cc}", "--set", 'duration="1 s"')


CASES = [
    BadInput("vegas-alpha-zero", argv=_run('{kind="vegas", alpha=0}'),
             says=("flows.0.tcp.cc.alpha: 0 is out of range", "segments > 0"),
             source="range: Vegas's α is a positive number of segments (ns-3 TcpVegas, Linux tcp_vegas.c)"),
    BadInput("vegas-gamma-zero", argv=_run('{kind="vegas", gamma=0}'),
             says=("flows.0.tcp.cc.gamma: 0 is out of range", "segments > 0"),
             source="range: γ = 0 would end slow start on any queue at all"),
    BadInput("vegas-beta-below-alpha", argv=_run('{kind="vegas", alpha=5, beta=4}'),
             says=("flows.0.tcp.cc.beta: 4 is below alpha (5)", "beta >= alpha"),
             source="contradiction: α > β leaves no Diff at which the window holds"),
    BadInput("vegas-unknown-field", argv=_run('{kind="vegas", delta=3}'),
             says=("flows.0.tcp.cc.delta: unknown field", "alpha, beta, gamma"),
             source="silent: a misspelt threshold would run with the default"),
    BadInput("vegas-unknown-loss-rule", argv=_run('{kind="vegas", loss="linux"}'),
             says=('flows.0.tcp.cc.loss: "linux" is not allowed', "reno, ns3"),
             source="names: Vegas's loss response is Reno's (Linux) or ns-3's"),
    BadInput("westwood-unknown-filter", argv=_run('{kind="westwood", filter="butterworth"}'),
             says=('flows.0.tcp.cc.filter: "butterworth" is not allowed', "tustin, linux, none"),
             source="names: the bandwidth filters are ns-3's and Linux's"),
]
