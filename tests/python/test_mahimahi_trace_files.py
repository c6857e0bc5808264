"""lossy reads a trace file as mm-link's LinkQueue constructor does (link_queue.cc): it
refuses every file the reference refuses, and reads the same opportunities from the others
(checked by departures: one 1500-byte IP packet per opportunity)."""

import pytest

import lossy
from lossy._core import ScenarioError

from mahimahi_compare import F1, MM_LINK, Cbr, compare, judge
from mahimahi_reference import NS_PER_MS, TraceError, parse_trace, parse_trace_text


def _scenario(path):
    return {
        "duration": "50 ms", "nodes": ["A", "B"],
        "links": [{"between": ["A", "B"], "delay": "1 ms", "rate": "10 Mbps",
                   "capacity": {"kind": "mahimahi", "file": str(path)}}],
        "flows": [{"from": "A", "to": "B", "app": {"kind": "cbr", "rate": "1 Mbps", "packet_size": "100 B"}}],
    }


@pytest.mark.parametrize("text", [
    "",  # no valid timestamps found
    "1\n\n2\n",  # invalid empty line
    "3\n2\n",  # timestamps must be monotonically nondecreasing
    "0\n0\n",  # trace must last for a nonzero amount of time
    "1.5\n", "abc\n",  # myatoi: the whole line must be an integer
    "12 \n",  # myatoi: a trailing blank is not part of an integer
    "1\r\n",  # myatoi: getline keeps the CR
    "99999999999999999999\n",  # strtol: out of range
], ids=["empty", "empty-line", "decreasing", "zero-length", "fraction", "word", "trailing-blank", "carriage-return", "overflow"])
def test_lossy_refuses_what_mm_link_refuses(tmp_path, text):
    path = tmp_path / "bad.trace"
    path.write_text(text)
    with pytest.raises(TraceError):
        parse_trace_text(text)
    with pytest.raises(ScenarioError) as e:
        lossy.run(_scenario(path))
    assert "bad.trace" in str(e.value) or "capacity" in str(e.value), str(e.value)


@pytest.mark.parametrize("text", ["2\n2\n5\n7", "0\n3\n3\n3\n8\n"], ids=["no-final-newline", "repeats"])
def test_lossy_reads_the_opportunities_mm_link_reads(tmp_path, text):
    path = tmp_path / "good.trace"
    path.write_text(text)
    schedule = parse_trace(path)
    # 750-byte datagrams, 4 per ms: the queue never empties, and one opportunity carries
    # one (754 + 754 > 1504).
    flows = [Cbr(750, 0, NS_PER_MS // 4, 60)]
    judge(compare(path, schedule, flows, end_ms=40, readings=(MM_LINK, F1)), text.replace("\n", " "))
