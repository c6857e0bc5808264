"""`tcp.cc = "cubic"`'s table (RFC 9438): β and C out of range, an unknown slow start or
field, each refused in one line naming the field in --set notation."""

from bad_inputs.case import BadInput


def _run(*sets: str) -> tuple:
    """`lossy run last-hop --set A --set B ...`."""
    return ("run", "last-hop", *(arg for s in sets for arg in ("--set", s)))


CASES = [
    BadInput("tcp_cc_cubic-beta-above-one", argv=_run('flows.0.tcp.cc={kind="cubic", beta=1.2}'),
             says=("flows.0.tcp.cc.beta: 1.2 is out of range; use a number in (0, 1)",),
             source="issue 29: β ∉ (0, 1)"),
    BadInput("tcp_cc_cubic-beta-zero", argv=_run('flows.0.tcp.cc={kind="cubic", beta=0}'),
             says=("flows.0.tcp.cc.beta: 0 is out of range; use a number in (0, 1)",),
             source="issue 29: β ∉ (0, 1)"),
    BadInput("tcp_cc_cubic-c-zero", argv=_run('flows.0.tcp.cc={kind="cubic", c=0}'),
             says=("flows.0.tcp.cc.c: 0 is out of range; use a number above 0",),
             source="issue 29: C ≤ 0"),
    BadInput("tcp_cc_cubic-c-negative", argv=_run('flows.0.tcp.cc={kind="cubic", c=-0.4}'),
             says=("flows.0.tcp.cc.c: -0.4 is out of range; use a number above 0",),
             source="issue 29: C ≤ 0"),
    BadInput("tcp_cc_cubic-unknown-slow-start", argv=_run('flows.0.tcp.cc={kind="cubic", slow_start="hystart2"}'),
             says=('flows.0.tcp.cc.slow_start: "hystart2" is not allowed; use one of: hystart, hystart++, standard',),
             source="issue 29: unknown names list the valid ones"),
    BadInput("tcp_cc_cubic-unknown-field", argv=_run('flows.0.tcp.cc={kind="cubic", gamma=1}'),
             says=("flows.0.tcp.cc.gamma: unknown field `gamma`; use one of: beta, c, fast_convergence, slow_start",),
             source="issue 29: unknown names list the valid ones"),
]
