//! Miyoshi's packet stream with fixed or adaptive FEC at the Python edge
//! (`lossy.papers.miyoshi`'s Tables 3 and 4 and the observation-window study). The
//! stream is given as JSON (`FecStreamConfig`); errors are a ValueError whose message is
//! one line, `<field>: <what is wrong>`.

use super::to_py;
use lossy_core::link::fec_stream::{parse_fec_stream, run_fec_stream};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Runs one stream of `config` (JSON text) from `seed`; its counts as a dict (GIL
/// released while it runs).
#[pyfunction]
#[pyo3(signature = (config, seed = 1))]
pub fn fec_stream<'py>(py: Python<'py>, config: &str, seed: u64) -> PyResult<Bound<'py, PyAny>> {
    let cfg = parse_fec_stream(config).map_err(PyValueError::new_err)?;
    let result = py.detach(|| run_fec_stream(&cfg, seed)).map_err(PyValueError::new_err)?;
    to_py(py, &result)
}
