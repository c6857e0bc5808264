# Stub for the compiled module built from crates/lossy-py (kept honest by mypy.stubtest).
from typing import Any, final

import numpy as np
import numpy.typing as npt

__all__ = ["BchCode", "MAX_NODES", "RunProgress", "ScenarioError", "ScenarioWarning", "build_commit", "build_info", "capture_example", "fec_stream", "fit_markov", "loss_closed_form", "loss_sequence", "parse_rate", "rateless_overhead", "rateless_plan", "rateless_rate", "run", "schema", "trace_legend", "validate", "version"]

MAX_NODES: int
"""The most nodes a scenario may name (node ids are 16 bits)."""

class ScenarioError(ValueError):
    """A scenario the core cannot run; the message is one line: `<field path>: <what is wrong>`."""

class ScenarioWarning(UserWarning):
    """A scenario that runs but almost surely not as meant (a bare number in a unit field,
    read in base units); the message is one line: `<field path>: <what it is read as>`."""

@final
class RunProgress:
    """How far a run has got: pass one to run(..., progress=p), read it from another thread."""

    def __init__(self) -> None: ...
    @property
    def sim_time_s(self) -> float:
        """Simulated time reached so far, in seconds."""
    @property
    def end_s(self) -> float:
        """The run's stop time in seconds (0 until the run has started)."""
    @property
    def fit_packets_done(self) -> int:
        """Link packets the run's Markov fits have sent so far (before the run starts)."""
    @property
    def fit_packets_total(self) -> int:
        """Link packets the run's Markov fits send in all (0 when it fits nothing)."""

@final
class BchCode:
    """A narrow-sense binary BCH(n, k) code, n = 2^m - 1 for m = 3..10. Words are lists of
    bits (0 or 1) in sending order, bit 0 the coefficient of the highest power (as in
    galois); codewords are systematic, the message first."""

    def __new__(cls, n: int, k: int) -> BchCode:
        """The code of length n and dimension k (the largest t that gives k); ValueError
        naming what is allowed if there is none."""
    @staticmethod
    def from_t(n: int, t: int) -> BchCode:
        """The code of length n whose roots include alpha, ..., alpha^(2t)."""
    @property
    def n(self) -> int: ...
    @property
    def k(self) -> int: ...
    @property
    def t(self) -> int:
        """How many bit errors per codeword the decoder corrects."""
    @property
    def generator(self) -> list[int]:
        """g(x)'s coefficients, highest degree first (as galois's Poly.coeffs)."""
    def survives(self, errors: int) -> bool:
        """The fast path: whether a codeword with this many bit errors decodes to its message."""
    def encode(self, message: list[int]) -> list[int]:
        """The codeword of k message bits: the message, then n - k parity bits."""
    def decode(self, received: list[int]) -> tuple[list[int], int] | None:
        """(message, bits corrected), or None when the decoder detects that it cannot."""
    def decode_rate(self, weight: int, count: int, seed: int = 1) -> float:
        """Codewords decoded per wall second by the real decoder: count random codewords
        with weight random bit errors each (GIL released)."""

def run(scenario_json: str, seed: int = 1, replication: int = 0,
        progress: RunProgress | None = None, warn: bool = True, numpy: bool = True) -> dict[str, Any]:
    """Run one simulation (GIL released). Returns "summary" (a dict of scalars, with the
    goodput aggregates and "groups": {name: {key: value}}), "flows" and "links" (column
    name -> 1-D NumPy array, int64 or float64 with NaN for a missing value, or a list of
    str for text), "agents" (a list of dicts), "notes" (a list of str: one-line remarks
    on a valid run), "traces" (name -> column -> array) and
    "captures" (a list of {"link": str, "packets": int, "pcap": bytes}, one per link
    direction in the scenario's capture.links). With `warn`, a scenario that runs but
    almost surely not as meant issues ScenarioWarning first. With `numpy=False` the
    numeric columns and traces are `array.array`s of the same element types (q int64,
    Q uint64, d float64, I uint32, B uint8) and the run never imports NumPy."""

def capture_example() -> dict[str, Any]:
    """A capture of hand-made packets setting every field a capture shows, as
    {"link", "packets", "pcap"}: for tests of pcap readers."""

def validate(scenario_json: str) -> None:
    """Check a scenario without running it (nor its Markov fits, only their fields and
    cost); raises ScenarioError if it cannot run, and issues ScenarioWarning for one that
    runs but almost surely not as meant."""

def schema() -> str:
    """The scenario JSON Schema, as JSON text."""

def version() -> str:
    """The lossy-core crate version."""

def trace_legend() -> dict[str, dict[str, list[str]]]:
    """What coded trace columns mean: {trace: {column: [name of code 0, 1, ...]}}."""

def build_commit() -> str:
    """The git commit this module was built from; "unknown" when built outside a checkout."""

def build_info() -> dict[str, str]:
    """Versions of the core and of the crates that decide its random streams."""

def fit_markov(mean_snr_db: float, doppler_hz: float, payload_bytes: int = 32,
               code: tuple[int, int] | None = None, modulation: str = "bpsk",
               rate_bps: int = 1_500_000, packets: int | None = None, seed: int = 1,
               check_only: bool = False) -> dict[str, Any] | None:
    """Fit the two-state Markov chain (Chockalingam Eq. 1) to link packets sent back to
    back over the Rayleigh channel (GIL released): a dict of p_e, p_e_se, p, p_se, q,
    q_se, burst, burst_se, packet_time_s, packet_time_ns, coded_bits, packets, batches,
    doppler_periods (NaN where undefined). ValueError `<field>: <what is wrong>` for bad
    input; with check_only, validate only and return None. Use
    lossy.channel_fit.fit_markov instead."""

def fec_stream(config: str, seed: int = 1) -> dict[str, Any]:
    """Run Miyoshi's stream of fixed-size packets with fixed or adaptive FEC (GIL
    released): config is a FecStreamConfig as JSON (packets, packet_bits, rate, loss,
    codes, control); returns sent, lost, received, overhead, available, sent_per_code,
    code_changes. ValueError `<field>: <what is wrong>` for bad input."""

def parse_rate(text: str) -> int:
    """A bit rate as scenarios write it ("1.5 Mbps", a bare number of bit/s), in bit/s."""

def loss_sequence(loss_json: str, packets: int, packet_bytes: int, seed: int = 1,
                  rate_bps: int = 1_000_000) -> npt.NDArray[np.bool_]:
    """Whether each of `packets` packets of `packet_bytes` bytes, sent back to back at
    `rate_bps`, is lost under the loss table `loss_json` (GIL released). ValueError
    `loss.<field>: <what is wrong>` for a bad table, `<argument>: ...` for a bad argument.
    Use lossy.loss.loss_sequence instead."""

def loss_closed_form(loss_json: str, packet_bytes: int) -> dict[str, Any]:
    """model, loss (the table with what it implies written out), stationary_loss,
    mean_burst and next_lost (P(next lost | lost), neyman only) for packets of
    `packet_bytes` bytes; None where there is no closed form. Use
    lossy.loss.closed_form instead."""
def rateless_plan(code: str, file_bytes: int, symbol_size: int) -> list[int]:
    """The source symbols K of each source block of a file under code "raptorq" (RFC 6330
    §4.4.1.2, at most 56,403 a block) or "lt". ValueError `<field>: <what is wrong>`."""

def rateless_overhead(code: str, k: int, trials: int | None = None, seed: int = 1) -> list[int]:
    """Symbols beyond K the real decoder needed, one per trial, ascending: the table of the
    decode-success model (GIL released; measured once per process for the same inputs, and
    kept in the disk cache of docs/mechanisms/fectcp.md for later processes).
    trials defaults to the core's work budget (8 to 400)."""

def rateless_rate(code: str, file_bytes: int, symbol_size: int, seed: int = 1,
                  loss: float = 0.2) -> dict[str, Any]:
    """One verifying transfer, timed (GIL released): code, file_bytes, symbol_size, blocks,
    source_symbols, loss, symbols_sent, symbols_received, encode_s, decode_s,
    encode_mb_per_s, decode_mb_per_s, verified (the file came back byte for byte)."""
