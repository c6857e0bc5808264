//! The rateless codes of FECTCP at the Python edge: the block plan, the decode-success
//! model's measured table (for the reproduction's success curves) and the verifying
//! mode's speed (for `lossy bench`). Errors are a ValueError whose message is one line,
//! `<field>: <what is wrong>`.

use super::to_py;
use lossy_core::coding::rateless::overhead::default_trials;
use lossy_core::coding::rateless::rate::rateless_rate as rate;
use lossy_core::coding::rateless::{BlockPlan, OverheadModel, RatelessCode};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn code_of(name: &str) -> PyResult<RatelessCode> {
    RatelessCode::from_name(name).map_err(PyValueError::new_err)
}

/// The source symbols K of each block of a `file_bytes` file in `symbol_size` symbols.
#[pyfunction]
pub fn rateless_plan(code: &str, file_bytes: u64, symbol_size: u32) -> PyResult<Vec<u32>> {
    let plan = BlockPlan::new(code_of(code)?, file_bytes, symbol_size).map_err(PyValueError::new_err)?;
    Ok(plan.blocks().to_vec())
}

/// Symbols beyond K the real decoder of `code` needed in each of `trials` trials at K =
/// `k` (default: the core's work budget), ascending; measured once per process for the
/// same inputs, and kept in the disk cache for later processes (GIL released).
#[pyfunction]
#[pyo3(signature = (code, k, trials = None, seed = 1))]
pub fn rateless_overhead(py: Python<'_>, code: &str, k: u32, trials: Option<u32>, seed: u64) -> PyResult<Vec<u32>> {
    let code = code_of(code)?;
    let trials = trials.unwrap_or_else(|| default_trials(code, k));
    let model = py.detach(|| OverheadModel::measure(code, k, trials, seed)).map_err(PyValueError::new_err)?;
    Ok(model.excess().to_vec())
}

/// One verifying transfer of a `file_bytes` file, timed: encode and decode seconds and
/// MB/s, symbols sent and received, and whether the file came back byte for byte (GIL
/// released).
#[pyfunction]
#[pyo3(signature = (code, file_bytes, symbol_size, seed = 1, loss = 0.2))]
pub fn rateless_rate<'py>(py: Python<'py>, code: &str, file_bytes: u64, symbol_size: u32, seed: u64, loss: f64) -> PyResult<Bound<'py, PyAny>> {
    let code = code_of(code)?;
    let report = py.detach(|| rate(code, file_bytes, symbol_size, loss, seed)).map_err(PyValueError::new_err)?;
    to_py(py, &report)
}
