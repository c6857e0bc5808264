//! `lossy._core`: the thin PyO3 edge of the Rust core (docs/architecture.md#bindings).
//! Scenarios come in as JSON text; results go out as Python objects built here, with no
//! JSON in between: the summary and agents as dicts, flows and links as columns (NumPy
//! arrays, lists of str), traces as NumPy arrays. Errors are converted here, in one
//! place; the GIL is released while a run executes and the core never calls back into
//! Python.

mod channel_fit;
mod coding;
mod fec_stream;
mod loss;
mod rateless;

use lossy_core::columns::{to_columns, ColumnData};
use lossy_core::result::{Column, Trace};
use lossy_core::{Error, Progress};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use numpy::PyArray1;
use pyo3::exceptions::{PyRuntimeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use serde::Serialize;
use serde_json::Value;

pyo3::create_exception!(_core, ScenarioError, PyValueError, "A scenario that cannot be run; the message names the field.");
pyo3::create_exception!(
    _core,
    ScenarioWarning,
    PyUserWarning,
    "A scenario that runs but almost surely not as meant (a bare number in a unit field); the message names the field."
);

fn to_py_err(e: Error) -> PyErr {
    match e {
        Error::Scenario { .. } => ScenarioError::new_err(e.to_string()),
        Error::Invariant(_) => PyRuntimeError::new_err(e.to_string()),
    }
}

/// A small JSON value (the summary, an agent) as Python objects. Whole numbers stay
/// int, floats float, a missing value None.
fn value_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(a) => PyList::new(py, a.iter().map(|x| value_to_py(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any(),
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, value_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

fn to_py<'py, T: Serialize>(py: Python<'py>, x: &T) -> PyResult<Bound<'py, PyAny>> {
    let v = serde_json::to_value(x).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    value_to_py(py, &v)
}

/// How a run's numeric columns go out: NumPy arrays, or the standard library's
/// `array.array` (the same bytes and element type; `lossy run` takes these so that it
/// never imports NumPy, ~100 ms of its start-up: issue 28, and `RunResult` turns them
/// into NumPy arrays when first asked).
#[derive(Clone, Copy)]
enum Arrays {
    NumPy,
    Std,
}

/// A 1-D column of `v` in the chosen form. `typecode` is `array.array`'s for T: q int64,
/// Q uint64, d float64, I uint32, B uint8 (native byte order, as NumPy's would be).
fn column_to_py<'py, T: numpy::Element + Copy>(py: Python<'py>, v: Vec<T>, typecode: &str, bytes: fn(&[T]) -> Vec<u8>, form: Arrays) -> PyResult<Bound<'py, PyAny>> {
    match form {
        Arrays::NumPy => Ok(PyArray1::from_vec(py, v).into_any()),
        Arrays::Std => py.import("array")?.getattr("array")?.call1((typecode, PyBytes::new(py, &bytes(&v)))),
    }
}

fn ne_bytes<T: Copy, const N: usize>(v: &[T], f: fn(T) -> [u8; N]) -> Vec<u8> {
    v.iter().flat_map(|&x| f(x)).collect()
}

fn i64_col<'py>(py: Python<'py>, v: Vec<i64>, form: Arrays) -> PyResult<Bound<'py, PyAny>> {
    column_to_py(py, v, "q", |v| ne_bytes(v, i64::to_ne_bytes), form)
}
fn u64_col<'py>(py: Python<'py>, v: Vec<u64>, form: Arrays) -> PyResult<Bound<'py, PyAny>> {
    column_to_py(py, v, "Q", |v| ne_bytes(v, u64::to_ne_bytes), form)
}
fn f64_col<'py>(py: Python<'py>, v: Vec<f64>, form: Arrays) -> PyResult<Bound<'py, PyAny>> {
    column_to_py(py, v, "d", |v| ne_bytes(v, f64::to_ne_bytes), form)
}
fn u32_col<'py>(py: Python<'py>, v: Vec<u32>, form: Arrays) -> PyResult<Bound<'py, PyAny>> {
    column_to_py(py, v, "I", |v| ne_bytes(v, u32::to_ne_bytes), form)
}
fn u8_col<'py>(py: Python<'py>, v: Vec<u8>, form: Arrays) -> PyResult<Bound<'py, PyAny>> {
    column_to_py(py, v, "B", |v| v.to_vec(), form)
}

/// Rows as {column: 1-D array} (whole numbers int64, floats float64 with NaN for a
/// missing value) and {column: list of str} for text. Whole numbers go out signed, as
/// the run rows' integers do (Python ints -> int64), so a flow's counter has one type in
/// every table; a column with a value beyond 2^63 (none of today's counters) stays uint64.
fn columns_to_py<'py, T: Serialize>(py: Python<'py>, rows: &[T], form: Arrays) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, col) in to_columns(rows).columns {
        match col {
            ColumnData::U64(v) => match v.iter().map(|&x| i64::try_from(x)).collect::<Result<Vec<i64>, _>>() {
                Ok(signed) => d.set_item(name, i64_col(py, signed, form)?)?,
                Err(_) => d.set_item(name, u64_col(py, v, form)?)?,
            },
            ColumnData::F64(v) => d.set_item(name, f64_col(py, v, form)?)?,
            ColumnData::Str(v) => d.set_item(name, PyList::new(py, v)?)?,
            ColumnData::Missing(n) => d.set_item(name, f64_col(py, vec![f64::NAN; n], form)?)?,
        }
    }
    Ok(d)
}

fn trace_to_py<'py>(py: Python<'py>, t: Trace, form: Arrays) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, col) in t.columns {
        match col {
            Column::F64(v) => d.set_item(name, f64_col(py, v, form)?)?,
            Column::U32(v) => d.set_item(name, u32_col(py, v, form)?)?,
            Column::U8(v) => d.set_item(name, u8_col(py, v, form)?)?,
        }
    }
    Ok(d)
}

/// Runs one simulation of a scenario given as JSON text. Returns a dict with
/// "summary" (scalars; per-group aggregates under "groups"), "flows" and "links"
/// (columns), "agents" (a list of dicts), "notes" (a list of str, one line each),
/// "traces" and "captures" (a list of {"link", "packets", "pcap": bytes}, one per
/// direction in `capture.links`).
/// With `progress`, the run stores how far it has got there while it runs (read it
/// from another thread: the GIL is released for the whole run).
/// With `warn` (the default), the warnings on a scenario that runs (a bare number in a
/// unit field) are issued as `ScenarioWarning` before the run; a sweep's workers pass
/// False, the sweep having warned once per point when it checked them (`validate`).
/// With `numpy=False`, the numeric columns and traces are `array.array`s (same element
/// types) instead of NumPy arrays, and the run never imports NumPy.
#[pyfunction]
#[pyo3(signature = (scenario_json, seed = 1, replication = 0, progress = None, warn = true, numpy = true))]
fn run<'py>(
    py: Python<'py>,
    scenario_json: &str,
    seed: u64,
    replication: u64,
    progress: Option<PyRef<'py, RunProgress>>,
    warn: bool,
    numpy: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let form = if numpy { Arrays::NumPy } else { Arrays::Std };
    let text = scenario_json.to_owned();
    let cell = progress.map(|p| Arc::clone(&p.cell));
    // Built first, so the warnings on a scenario that runs come before its run (and a
    // refused one gets its error alone); Python shows each as a ScenarioWarning.
    let mut prepared = py.detach(move || lossy_core::prepare_json(&text, seed, replication)).map_err(to_py_err)?;
    let warnings = std::mem::take(&mut prepared.warnings);
    if warn {
        issue_warnings(py, warnings)?;
    }
    let result = py.detach(move || lossy_core::run_prepared(prepared, cell.as_deref())).map_err(to_py_err)?;
    let out = PyDict::new(py);
    out.set_item("summary", to_py(py, &result.summary)?)?;
    out.set_item("flows", columns_to_py(py, &result.flows, form)?)?;
    out.set_item("links", columns_to_py(py, &result.links, form)?)?;
    out.set_item("agents", to_py(py, &result.agents)?)?;
    out.set_item("notes", PyList::new(py, &result.notes)?)?;
    let traces = PyDict::new(py);
    for t in result.traces {
        traces.set_item(t.name, trace_to_py(py, t, form)?)?;
    }
    out.set_item("traces", traces)?;
    let captures = PyList::empty(py);
    for c in &result.captures {
        captures.append(capture_to_py(py, c)?)?;
    }
    out.set_item("captures", captures)?;
    Ok(out)
}

fn capture_to_py<'py>(py: Python<'py>, c: &lossy_core::capture::Capture) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("link", &c.link)?;
    d.set_item("packets", c.packets)?;
    d.set_item("pcap", PyBytes::new(py, &c.pcap))?;
    Ok(d)
}

/// A capture of hand-made packets setting every header field a capture can show (ECN,
/// ECE/CWR, SACK blocks, the notes option, UDP), as {"link", "packets", "pcap"}: for
/// tests of pcap readers.
#[pyfunction]
fn capture_example(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    capture_to_py(py, &lossy_core::capture::example())
}

/// How far a run has got: pass one to `run(..., progress=p)` and read `p.sim_time_s`
/// and `p.end_s` from another thread while it runs.
#[pyclass(frozen)]
struct RunProgress {
    cell: Arc<Progress>,
}

#[pymethods]
impl RunProgress {
    #[new]
    fn new() -> Self {
        RunProgress { cell: Arc::new(Progress::default()) }
    }

    /// Simulated time reached so far, in seconds.
    #[getter]
    fn sim_time_s(&self) -> f64 {
        self.cell.now_ns.load(Ordering::Relaxed) as f64 / 1e9
    }

    /// The run's stop time in seconds (0 until the run has started).
    #[getter]
    fn end_s(&self) -> f64 {
        self.cell.end_ns.load(Ordering::Relaxed) as f64 / 1e9
    }

    /// Link packets the run's Markov fits have sent so far (before the run starts).
    #[getter]
    fn fit_packets_done(&self) -> u64 {
        self.cell.fit_done.load(Ordering::Relaxed)
    }

    /// Link packets the run's Markov fits send in all (0 when it fits nothing).
    #[getter]
    fn fit_packets_total(&self) -> u64 {
        self.cell.fit_total.load(Ordering::Relaxed)
    }
}

/// Checks a scenario without running it (nor its Markov fits, only their fields and
/// cost); raises ScenarioError if it cannot run, and issues the warnings on one that can
/// (as `run` does).
#[pyfunction]
fn validate(py: Python<'_>, scenario_json: &str) -> PyResult<()> {
    let s = lossy_core::parse_json(scenario_json).map_err(to_py_err)?;
    // The fits are left pending: accepting a scenario costs no fit.
    let mut warnings = lossy_core::scenario::build_world_unfitted(&s, 0, 0).map_err(to_py_err)?.warnings;
    warnings.extend(lossy_core::scenario::bare_number_warnings(scenario_json));
    issue_warnings(py, warnings)
}

/// Each warning as a `ScenarioWarning` (Python's filters decide what is shown; the CLI
/// prints `lossy: warning: ...`), each distinct one once per process: a sweep checks its
/// points again after running them, and a loop of runs need not repeat it either.
fn issue_warnings(py: Python<'_>, warnings: Vec<String>) -> PyResult<()> {
    static ISSUED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    for w in warnings {
        {
            let mut issued = ISSUED.lock().unwrap_or_else(|e| e.into_inner());
            if issued.contains(&w) {
                continue;
            }
            issued.push(w.clone());
        }
        let message = std::ffi::CString::new(w).map_err(|e| PyValueError::new_err(e.to_string()))?;
        PyErr::warn(py, &py.get_type::<ScenarioWarning>(), &message, 1)?;
    }
    Ok(())
}

/// What the codes of coded trace columns mean: {trace: {column: [name of code 0, 1, ...]}},
/// e.g. {"seq": {"event": ["sent", "resent", "acked"]}}.
#[pyfunction]
fn trace_legend(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for (trace, column, names) in lossy_core::trace::LEGEND {
        let t = match d.get_item(trace)? {
            Some(t) => t.cast_into::<PyDict>()?,
            None => {
                let t = PyDict::new(py);
                d.set_item(trace, &t)?;
                t
            }
        };
        t.set_item(column, PyList::new(py, names.iter())?)?;
    }
    Ok(d)
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

/// The git commit this module was built from (build.rs): what an installed wheel
/// reports as its commit; "unknown" when it was built outside a checkout.
#[pyfunction]
fn build_commit() -> &'static str {
    env!("LOSSY_BUILD_COMMIT")
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
    // The most nodes a scenario may name (node ids are u16): `lossy generate` bounds its
    // input by it before any work (issue 27), read from here rather than copied.
    m.add("MAX_NODES", lossy_core::packet::NodeId::MAX)?;
    m.add("ScenarioWarning", m.py().get_type::<ScenarioWarning>())?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_class::<RunProgress>()?;
    m.add_class::<coding::BchCode>()?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(build_info, m)?)?;
    m.add_function(wrap_pyfunction!(build_commit, m)?)?;
    m.add_function(wrap_pyfunction!(trace_legend, m)?)?;
    m.add_function(wrap_pyfunction!(capture_example, m)?)?;
    m.add_function(wrap_pyfunction!(channel_fit::fit_markov, m)?)?;
    m.add_function(wrap_pyfunction!(channel_fit::parse_rate, m)?)?;
    m.add_function(wrap_pyfunction!(fec_stream::fec_stream, m)?)?;
    m.add_function(wrap_pyfunction!(loss::loss_sequence, m)?)?;
    m.add_function(wrap_pyfunction!(loss::loss_closed_form, m)?)?;
    m.add_function(wrap_pyfunction!(rateless::rateless_plan, m)?)?;
    m.add_function(wrap_pyfunction!(rateless::rateless_overhead, m)?)?;
    m.add_function(wrap_pyfunction!(rateless::rateless_rate, m)?)?;
    Ok(())
}
