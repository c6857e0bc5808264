"""A loss model on its own (lossy.loss, lossy.models.neyman_for_packet_loss): the
sequence the core draws has the closed forms' loss and distance-1 probability, is
reproducible, and bad input is one line naming the field (issue 14, item 4)."""

import json

import numpy as np
import pytest

from lossy.loss import closed_form, loss_distances, loss_sequence
from lossy.models import neyman_for_packet_loss


def test_neyman_for_packet_loss_writes_the_rate_out():
    table = neyman_for_packet_loss(0.05, 1500, 3)
    assert table["model"] == "neyman" and table["unit"] == "bit" and table["span"] == 6
    assert "packet_loss" not in table and table["clusters_per_unit"] > 0
    assert closed_form(table, 1500)["stationary_loss"] == pytest.approx(0.05, rel=1e-12)
    # The config form gives the same process.
    form = {"model": "neyman", "errors_per_cluster": 3, "packet_loss": 0.05, "packet_bytes": 1500}
    assert closed_form(form, 1500)["loss"] == table
    packets = neyman_for_packet_loss(0.1, 1500, 2, span=4, unit="packet")
    assert packets["unit"] == "packet" and packets["span"] == 4
    # A packet is one unit: the loss does not depend on the size.
    assert closed_form(packets, 40)["stationary_loss"] == pytest.approx(0.1, rel=1e-12)


@pytest.mark.parametrize("p", [0.01, 0.25])
def test_a_sequence_has_the_closed_forms_loss_and_fig1_point(p):
    # 400,000 packets; tolerances 5 binomial standard errors (losses of 1500-byte
    # packets under short clusters are nearly independent; the Rust tests hold the
    # model to its closed forms more tightly).
    table = neyman_for_packet_loss(p, 1500, 3)
    lost = loss_sequence(table, 400_000, 1500, seed=2)
    assert lost.dtype == np.bool_ and lost.shape == (400_000,)
    assert abs(lost.mean() - p) <= 5 * (p * (1 - p) / lost.size) ** 0.5
    d = loss_distances(lost)
    assert d.size == lost.sum() - 1 and d.min() >= 1
    q = closed_form(table, 1500)["next_lost"]
    assert abs((d == 1).mean() - q) <= 5 * (q * (1 - q) / d.size) ** 0.5
    np.testing.assert_array_equal(lost, loss_sequence(json.dumps(table), 400_000, 1500, seed=2))
    assert not np.array_equal(lost, loss_sequence(table, 400_000, 1500, seed=3))


def test_loss_distances_by_hand():
    np.testing.assert_array_equal(loss_distances([0, 1, 1, 0, 0, 1, 0, 1]), [1, 3, 2])
    assert loss_distances([False, True]).size == 0


def test_other_models_work_too():
    assert closed_form({"model": "bernoulli", "p": 0.2}, 100)["next_lost"] is None
    lost = loss_sequence({"model": "markov", "mean_a": "75 ms", "mean_b": "3.75 ms", "loss_a": 0, "loss_b": 1},
                         10_000, 100, rate_bps=1_000_000)
    assert 0 < lost.mean() < 0.2


@pytest.mark.parametrize("call, message", [
    (lambda: neyman_for_packet_loss(1.5, 1500, 3),
     "loss.packet_loss: 1.5 is not allowed; use a probability in [0, 1), e.g. 0.05"),
    (lambda: neyman_for_packet_loss(0.1, 1500, -1),
     "loss.errors_per_cluster: -1 is not allowed; use a finite mean number of errors per cluster > 0, e.g. 3"),
    (lambda: neyman_for_packet_loss(0.1, 1500, 3, span=0),
     "loss.span: 0 is not allowed; use a whole number of bits ≥ 1, e.g. 8"),
    (lambda: neyman_for_packet_loss(0.1, 1500, 3, unit="byte"),
     "loss: unknown variant `byte`, expected `bit` or `packet`"),
    (lambda: neyman_for_packet_loss(float("nan"), 1500, 3),
     "loss.packet_loss: nan is not a finite number"),
    (lambda: loss_sequence({"model": "bernoulli", "p": 0.1}, 10, -1),
     "packet_bytes: -1 is not allowed; use a whole number ≥ 1, e.g. 1500"),
    (lambda: loss_sequence({"model": "bernoulli", "p": 0.1}, 10, 1500, rate_bps=0),
     "rate_bps: 0 is not allowed"),
])
def test_bad_input_is_one_line_naming_the_field(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value).startswith(message) and "\n" not in str(e.value)
