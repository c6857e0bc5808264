"""The two-state Markov fit of the fading channel: the Python API
(lossy.channel_fit.fit_markov), the fitted chain as a scenario's loss, and
`lossy channel fit` as a user meets it."""

import json
import math

import pytest
from test_cli import assert_one_line_error

import lossy
from lossy.channel_fit import MarkovFit, fit_markov
from lossy.threshold_model import threshold_chain_matching


def test_fit_fields_and_determinism():
    f = fit_markov(10, 100, code=(255, 87), packets=20_000, seed=3)
    assert isinstance(f, MarkovFit)
    assert f.packets == 20_000
    assert f.packet_time_s == pytest.approx(765 / 1.5e6, abs=1e-9)  # 3 codewords of 255 bits
    assert f.packet_time_ns == 510_000 and f.coded_bits == 765
    assert 0 < f.p_e < 1 and f.p_e_se > 0
    assert f.burst == pytest.approx(1 / (1 - f.q))
    assert f.one_minus_q == pytest.approx(1 - f.q)
    # Eq. 1's chain is stationary at P_E: P_E (1 - q) = (1 - P_E)(1 - p), up to the
    # pairs that cross a batch boundary (40 of 20,000).
    assert f.p_e * (1 - f.q) == pytest.approx((1 - f.p_e) * (1 - f.p), rel=0.05)
    closed = threshold_chain_matching(f.p_e, 100, f.packet_time_s)
    assert f.closed_form_burst == pytest.approx(closed.burst)
    assert fit_markov(10, 100, code=(255, 87), packets=20_000, seed=3) == f
    assert fit_markov(10, 100, code=(255, 87), packets=20_000, seed=4) != f
    with pytest.raises(dataclass_frozen_error()):
        f.p_e = 0.5  # type: ignore[misc]


def dataclass_frozen_error():
    import dataclasses

    return dataclasses.FrozenInstanceError


def test_loss_config_is_the_gilbert_chain():
    f = fit_markov(20, 10, packets=50_000)
    table = f.loss_config()
    assert table == {"model": "gilbert", "p_ge": pytest.approx(1 - f.p), "p_eg": pytest.approx(1 - f.q),
                     "slot": "170667 ns"}
    assert "slot" not in f.loss_config(slot=False)
    assert f.loss_toml().startswith('loss = { model = "gilbert", p_ge = ')
    assert f.loss_toml().endswith(', slot = "170667 ns" }')


def test_a_fit_with_no_failure_gives_a_chain_that_never_fails():
    f = fit_markov(100, 10, packets=1_000)
    assert f.p_e == 0 and math.isnan(f.q) and math.isnan(f.burst) and math.isnan(f.closed_form_burst)
    assert f.loss_config()["p_ge"] == 0.0 and f.loss_config()["p_eg"] == 1.0
    assert json.dumps(f.to_dict(), allow_nan=False)  # NaN leaves as null


@pytest.mark.parametrize("slot", [True, False])
def test_the_fitted_chain_runs_as_a_links_loss(slot):
    # 1000-byte CBR packets at 1 Mbit/s on a 1.5 Mbit/s link with the fitted chain as its
    # loss: with or without idle slots (about 16 between packets) the chain stays in its
    # stationary law, so the link loses P_E = p_ge/(p_ge + p_eg) of the packets
    # (7,500 packets; 5 binomial standard errors, the packets being nearly independent
    # with slots and positively correlated without, hence the wider bound then).
    f = fit_markov(10, 100, packets=50_000)
    loss = f.loss_config(slot=slot)
    r = lossy.run("scenarios/one-hop.toml", overrides={
        "duration": "60 s", "links.0.rate": "1.5 Mbps", "links.0.loss": loss,
        "flows.0": {"from": "A", "to": "B", "app": {"kind": "cbr", "rate": "1 Mbps", "packet_size": "1000 B"}},
    })
    link = next(k for k in r.links if k["name"] == "A->B")
    pi = loss["p_ge"] / (loss["p_ge"] + loss["p_eg"])
    assert pi == pytest.approx(f.p_e, rel=0.02)
    n = link["packets_offered"]
    se = math.sqrt(pi * (1 - pi) / n) * (1 if slot else 3)
    assert abs(link["channel_losses"] / n - pi) < 5 * se, (link, pi)


@pytest.mark.parametrize("kwargs, message", [
    ({"doppler_hz": float("nan")}, "doppler_hz: NaN is not allowed"),
    ({"mean_snr_db": 101}, "mean_snr_db: 101 is out of range"),
    ({"code": (100, 50)}, "code: BCH(100, 50) does not exist"),
    ({"payload_bytes": 0}, "payload_bytes: 0 is out of range"),
    ({"packets": 10}, "packets: 10 is out of range"),
    ({"modulation": "qpsk"}, 'modulation: "qpsk" is not allowed; use one of: bpsk, dpsk'),
    ({"rate_bps": -1}, "rate: -1 is out of range"),
])
def test_api_errors_name_the_field(kwargs, message):
    args = {"mean_snr_db": 10, "doppler_hz": 10, **kwargs}
    with pytest.raises(ValueError) as e:
        fit_markov(**args)
    assert str(e.value).startswith(message), str(e.value)


# --- the command --------------------------------------------------------------------


def test_cli_prints_the_table_and_the_loss_line(cli):
    proc = cli("channel", "fit", "--snr", "10", "--doppler", "100", "--code", "bch:255,87",
               "--packets", "20000", "--rate", "1.5Mbps")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for needle in ["P_E", "1−q", "(1−q)⁻¹", "ZRM", "510.0 µs", "bch:255,87",
                   'loss = { model = "gilbert", p_ge = ', 'slot = "510000 ns" }']:
        assert needle in out, (needle, out)
    assert len(out.splitlines()) < 15


def test_cli_rows_in_table_1_order_and_json(cli):
    proc = cli("channel", "fit", "--snr", "10", "--snr", "20", "--doppler", "100", "--code", "none",
               "--code", "bch:255,87", "--packets", "2000", "--modulation", "dpsk", "--json")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1
    rows = json.loads(lines[0])
    assert [(r["code"], r["mean_snr_db"]) for r in rows] == [(None, 10), (None, 20), ([255, 87], 10), ([255, 87], 20)]
    assert all(r["modulation"] == "dpsk" and r["packets"] == 2000 for r in rows)
    assert rows[0]["loss"]["slot"] == "170667 ns"
    api = fit_markov(20, 100, code=(255, 87), modulation="dpsk", packets=2000)
    assert rows[3]["p_e"] == api.p_e and rows[3]["burst"] == api.burst


@pytest.mark.parametrize("args, fragments", [
    (["--doppler", "nan"], ["--doppler: NaN is not allowed", "Hz > 0"]),
    (["--doppler", "-1"], ["--doppler: -1 is not allowed"]),
    (["--snr", "300"], ["--snr: 300 is out of range", "-100 to 100"]),
    (["--code", "bch:100,50"], ["--code: BCH(100, 50) does not exist", "not 2^m − 1", "255"]),
    (["--code", "bch:255,200"], ["--code: BCH(255, 200) does not exist", "87 (t = 26)"]),
    (["--code", "rs:255,223"], ["--code: 'rs:255,223' is not a code", "bch:N,K"]),
    (["--payload", "0"], ["--payload: 0 is out of range", "1 to 65,535"]),
    (["--packets", "0"], ["--packets: 0 is out of range", "1,000"]),
    (["--modulation", "qpsk"], ['--modulation: "qpsk" is not allowed', "bpsk, dpsk"]),
    (["--rate", "fast"], ['--rate: "fast" is not a bit rate', "2 Mbps"]),
    (["--seed", "-1"], ["--seed: -1 is out of range"]),
])
def test_cli_bad_arguments_are_one_line(cli, args, fragments):
    base = {"--snr": "10", "--doppler": "10"}
    for option, value in zip(args[::2], args[1::2]):
        base[option] = value
    argv = [x for kv in base.items() for x in kv]
    assert_one_line_error(cli("channel", "fit", *argv), *fragments)


def test_cli_checks_every_row_before_running_any(cli):
    # The bad Doppler is last: the error comes at once, not after the good rows ran.
    proc = cli("channel", "fit", "--snr", "10", "--doppler", "1", "--doppler", "0", timeout=20)
    assert_one_line_error(proc, "--doppler: 0 is not allowed")


def test_cli_missing_option_is_one_line(cli):
    assert_one_line_error(cli("channel", "fit", "--snr", "10"), "--doppler")
