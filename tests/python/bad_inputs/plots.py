"""`lossy plot` on a sweep's results (`{store}`: two loss rates, timeouts 0 at p = 0)."""

from bad_inputs.case import BadInput

CASES = [
    BadInput("plot-unknown-x", argv=("plot", "{store}", "--x", "loss", "--y", "goodput", "-o", "f.png"),
             says=("--x 'loss': no such axis in the results", "the sweep's axes: wireless.p"),
             source="weak: an unknown --x lists internal columns (run_id, point, and 157 more)"),
    BadInput("plot-unknown-hue", argv=("plot", "{store}", "--x", "wireless.p", "--hue", "scheme",
                                       "--y", "goodput", "-o", "f.png"),
             says=("--hue 'scheme': no such axis", "wireless.p"),
             source="weak: an unknown --hue lists internal columns"),
    BadInput("plot-unknown-y", argv=("plot", "{store}", "--x", "wireless.p", "--y", "goodptu", "-o", "f.png"),
             says=("--y 'goodptu': no such metric", "did you mean goodput?", "goodput, timeouts",
                   "flows.0.goodput_bps"),
             source="weak: an unknown --y lists internal columns instead of the metric aliases"),
    BadInput("plot-output-unwritable", argv=("plot", "{store}", "--x", "wireless.p", "--y", "goodput",
                                             "-o", "/proc/lossy-nowhere/f.png"),
             says=("--output /proc/lossy-nowhere/f.png: ", "No such file or directory"),
             source="weak: plot passes raw OS errors without naming the option"),
    BadInput("plot-logy-count-with-zeros", argv=("plot", "{store}", "--x", "wireless.p", "--y", "timeouts",
                                                 "--logy", "-o", "f.png"),
             says=("--logy: timeouts is 0 or below at 1 of 2 points, left out",), warning=True,
             source="silent: --logy on a count with zeros draws a band that fills the axes"),
    BadInput("plot-output-format", argv=("plot", "{store}", "--x", "wireless.p", "--y", "goodput", "-o", "f.jpg"),
             says=("--output f.jpg: cannot tell the figure format", ".png, .svg or .pdf"),
             source="weak: the message did not name --output"),
]
