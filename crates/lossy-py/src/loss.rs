//! A loss model on its own at the Python edge (`lossy.loss`): the fate of a stream of
//! back-to-back packets (Botoș Fig. 1), and a loss table's closed forms. The table is
//! given as JSON; errors are a ScenarioError (a ValueError) whose message is one line,
//! `<field>: <what is wrong>` (`loss.<field>` for the table's own fields).

use super::{to_py, ScenarioError};
use lossy_core::channel::sequence;
use numpy::PyArray1;
use pyo3::prelude::*;

/// Whether each of `packets` packets of `packet_bytes` bytes, sent back to back at
/// `rate_bps`, is lost: a NumPy bool array (GIL released while it draws).
#[pyfunction]
#[pyo3(signature = (loss_json, packets, packet_bytes, seed = 1, rate_bps = 1_000_000))]
pub fn loss_sequence<'py>(
    py: Python<'py>,
    loss_json: &str,
    packets: u64,
    packet_bytes: u64,
    seed: u64,
    rate_bps: u64,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let cfg = sequence::parse_loss(loss_json).map_err(ScenarioError::new_err)?;
    let lost = py
        .detach(|| sequence::loss_sequence(&cfg, packets, packet_bytes, rate_bps, seed))
        .map_err(ScenarioError::new_err)?;
    Ok(PyArray1::from_vec(py, lost))
}

/// The closed forms of a loss table for packets of `packet_bytes` bytes: a dict of
/// model, loss (the table with what it implies written out), stationary_loss,
/// mean_burst and next_lost (None where there is no closed form).
#[pyfunction]
pub fn loss_closed_form<'py>(py: Python<'py>, loss_json: &str, packet_bytes: u64) -> PyResult<Bound<'py, PyAny>> {
    let cfg = sequence::parse_loss(loss_json).map_err(ScenarioError::new_err)?;
    let out = sequence::closed_form(&cfg, packet_bytes).map_err(ScenarioError::new_err)?;
    to_py(py, &out)
}
