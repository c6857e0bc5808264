"""Channels and links: the Markov fit (`lossy channel fit`, `markov_fit = true`), loss
sequences (`lossy.loss`) and data files a loss model reads (issue 27)."""

from bad_inputs.case import BadInput

# A one-link scenario whose Rayleigh channel runs on its fitted chain; `{loss}` adds fields.
_MARKOV = """\
duration = "1 s"
nodes = ["A", "B"]
[[links]]
between = ["A", "B"]
rate = "1.5 Mbps"
delay = "1 ms"
loss = {{ model = "rayleigh", mean_snr_db = 20, doppler_hz = 10, markov_fit = true{loss} }}
[[flows]]
from = "A"
to = "B"
"""

_TRACE_FILE = """\
duration = "1 s"
nodes = ["A", "B"]
[[links]]
between = ["A", "B"]
rate = "1 Mbps"
delay = "1 ms"
loss = {{ model = "trace", file = "{file}" }}
[[flows]]
from = "A"
to = "B"
"""

CASES = [
    BadInput("fit-cli-packets-take-forever", argv=("channel", "fit", "--snr", "10", "--doppler", "1", "--packets", "10000000000"),
             says=("--packets: 10,000,000,000 link packets", "more than the fit's limit of 2e10"),
             source="fuzz: a Markov fit configured to take forever shows \"simulated 0 s of 0 s\" every 10 s for minutes"),
    BadInput("fit-scenario-fit-packets-take-forever", argv=("run", "markov.toml"),
             files={"markov.toml": _MARKOV.format(loss=", fit_packets = 2000000000")},
             says=("links.0.loss.fit_packets: 2,000,000,000 link packets", "more than the fit's limit of 2e10"),
             source="fuzz: a Markov fit configured to take forever shows \"simulated 0 s of 0 s\" every 10 s for minutes"),
    BadInput("fit-scenario-sinusoids-take-forever", argv=("run", "markov.toml"),
             files={"markov.toml": _MARKOV.format(loss=", sinusoids = 1024, doppler_hz = 0.001").replace("doppler_hz = 10, ", "")},
             says=("links.0.loss.sinusoids: 100,000,000 link packets (the default)", "(1024 sinusoids + 16)", "limit of 2e10"),
             source="fuzz: markov_fit runs inside validation (60 s+ with 1,024 sinusoids)"),
    BadInput("fit-scenario-invalid-refused-before-the-fit", argv=("run", "markov.toml"),
             files={"markov.toml": _MARKOV.format(loss=", fit_packets = 150000000").replace('nodes = ["A", "B"]', 'nodes = ["A", "B", "C"]')
                    .replace('to = "B"', 'to = "C"')},
             says=("flows.0.to: no route from \"A\" to \"C\"",),
             source="fuzz: markov_fit runs inside validation: an invalid one is refused only after the fit"),
    BadInput("fit-loss-sequence-packets-too-many", python=(
        "import lossy.loss\n"
        "lossy.loss.loss_sequence({'model': 'bernoulli', 'p': 0.1}, packets=10**12, packet_bytes=1500)"),
             says=("packets: 1,000,000,000,000 is too many; use at most 1,000,000,000",),
             source="fuzz: lossy.loss_sequence(…, packets=10**12) raises a Python traceback"),
    BadInput("fit-loss-sequence-packets-overflow", python=(
        "import lossy.loss\n"
        "lossy.loss.loss_sequence({'model': 'bernoulli', 'p': 0.1}, packets=10**20, packet_bytes=1500)"),
             says=("packets: 100,000,000,000,000,000,000 is too many; use at most 1,000,000,000",),
             source="fuzz: lossy.loss_sequence(…, packets=10**12) raises a Python traceback"),
    BadInput("fit-loss-sequence-rayleigh-takes-forever", python=(
        "import lossy.loss\n"
        "lossy.loss.loss_sequence({'model': 'rayleigh', 'mean_snr_db': 20, 'doppler_hz': 10, 'sinusoids': 1024},\n"
        "                         packets=10**9, packet_bytes=1500, rate_bps=10**9)"),
             says=("packets: 1,000,000,000 packets × 1,040 terms each", "limit of 2e10"),
             source="fuzz: tiny inputs that exhaust the machine"),
    BadInput("fit-trace-file-dev-zero", argv=("run", "zero.toml"), files={"zero.toml": _TRACE_FILE.format(file="/dev/zero")},
             says=("links.0.loss.file: /dev/zero: is not a regular file",),
             source="fuzz: only regular files are read as scenarios or traces"),
    BadInput("fit-trace-file-fifo", python=(
        "import os\n"
        "os.mkfifo('{tmp}/fifo')\n"
        "lossy.run({'duration': '1 s', 'nodes': ['A', 'B'],\n"
        "           'links': [{'between': ['A', 'B'], 'rate': '1 Mbps', 'delay': '1 ms', 'loss': {'model': 'trace', 'file': '{tmp}/fifo'}}],\n"
        "           'flows': [{'from': 'A', 'to': 'B'}]})"),
             # The temporary path is longer than a message echoes (60 characters and "…").
             says=("links.0.loss.file: ", "is not a regular file (a device, FIFO or socket)"),
             source="fuzz: only regular files are read as scenarios or traces"),
]
