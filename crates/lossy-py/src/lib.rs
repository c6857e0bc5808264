//! `lossy._core`: the thin PyO3 edge of the Rust core (DESIGN.md "PyO3 stays at the
//! edge"). Scenarios come in as JSON text; summaries go out as Python objects via JSON,
//! traces as NumPy arrays. Errors are converted here, in one place; the GIL is released
//! while a run executes and the core never calls back into Python.

use lossy_core::result::{Column, Trace};
use lossy_core::Error;
use numpy::PyArray1;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pyo3::create_exception!(_core, ScenarioError, PyValueError, "A scenario that cannot be run; the message names the field.");

fn to_py_err(e: Error) -> PyErr {
    match e {
        Error::Scenario { .. } => ScenarioError::new_err(e.to_string()),
        Error::Invariant(_) => PyRuntimeError::new_err(e.to_string()),
    }
}

fn json_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

fn trace_to_py<'py>(py: Python<'py>, t: Trace) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, col) in t.columns {
        match col {
            Column::F64(v) => d.set_item(name, PyArray1::from_vec(py, v))?,
            Column::U32(v) => d.set_item(name, PyArray1::from_vec(py, v))?,
            Column::U8(v) => d.set_item(name, PyArray1::from_vec(py, v))?,
        }
    }
    Ok(d)
}

/// Runs one simulation of a scenario given as JSON text. Returns a dict with
/// "summary", "flows", "links", "agents" and "traces".
#[pyfunction]
#[pyo3(signature = (scenario_json, seed = 1, replication = 0))]
fn run<'py>(py: Python<'py>, scenario_json: &str, seed: u64, replication: u64) -> PyResult<Bound<'py, PyDict>> {
    let text = scenario_json.to_owned();
    let result = py.detach(move || lossy_core::run_json(&text, seed, replication)).map_err(to_py_err)?;
    let out = json_to_py(py, &result.to_json())?.cast_into::<PyDict>()?;
    let traces = PyDict::new(py);
    for t in result.traces {
        traces.set_item(t.name, trace_to_py(py, t)?)?;
    }
    out.set_item("traces", traces)?;
    Ok(out)
}

/// Checks a scenario without running it; raises ScenarioError if it cannot run.
#[pyfunction]
fn validate(scenario_json: &str) -> PyResult<()> {
    let s = lossy_core::parse_json(scenario_json).map_err(to_py_err)?;
    lossy_core::scenario::build_world(&s, 0, 0).map(|_| ()).map_err(to_py_err)
}

/// The scenario JSON Schema, as JSON text.
#[pyfunction]
fn schema() -> String {
    lossy_core::schema_json()
}

/// The core crate's version.
#[pyfunction]
fn version() -> &'static str {
    lossy_core::VERSION
}

/// Versions of the pieces that decide a result's bits (recorded as provenance).
#[pyfunction]
fn build_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("lossy_core", lossy_core::VERSION)?;
    d.set_item("rand_xoshiro", lossy_core::rng::RAND_XOSHIRO_VERSION)?;
    d.set_item("rng", "xoshiro256++ seeded by splitmix64(fnv1a)")?;
    Ok(d)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(build_info, m)?)?;
    Ok(())
}
