"""The rateless codes at the Python edge (issue 14): the block plan, the overhead model's
table and one timed verifying transfer; errors are one-line ValueErrors naming the field.
The codes themselves are tested in crates/lossy-core/tests/rateless.rs."""

import pytest

from lossy import _core


def test_the_plan_follows_rfc6330_partitioning():
    assert _core.rateless_plan("raptorq", 10_000_000, 1460) == [6850]
    assert _core.rateless_plan("raptorq", 56_404, 1) == [28_202, 28_202]
    assert _core.rateless_plan("lt", 56_404, 1) == [56_404]


def test_the_overhead_table_is_sorted_deterministic_and_of_the_asked_size():
    table = _core.rateless_overhead("lt", 500, trials=50, seed=3)
    assert len(table) == 50 and table == sorted(table)
    assert table == _core.rateless_overhead("lt", 500, trials=50, seed=3)
    assert min(table) >= 0 and max(table) > 0  # LT always needs some overhead at K = 500
    assert len(_core.rateless_overhead("raptorq", 100)) == 400  # the default budget


def test_a_verifying_transfer_gets_the_file_back():
    r = _core.rateless_rate("lt", 200_000, 1000, seed=2, loss=0.1)
    assert r["verified"] and r["source_symbols"] == 200
    assert r["symbols_received"] >= 200 and r["encode_mb_per_s"] > 0


@pytest.mark.parametrize("call, message", [
    (lambda: _core.rateless_plan("raptor", 10, 1), "code: 'raptor' is not a rateless code; use raptorq or lt"),
    (lambda: _core.rateless_plan("lt", 0, 1), "file_bytes: 0 B; the file has at least 1 byte"),
    (lambda: _core.rateless_overhead("lt", 0, trials=5), "k: 0 source symbols; lt blocks have 1 to 1048576"),
    (lambda: _core.rateless_rate("raptorq", 10, 1, loss=0.95), "loss: 0.95; a loss rate is 0 to 0.9"),
])
def test_bad_input_is_a_one_line_value_error(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == message
