//! The two-state Markov fit of the fading channel at the Python edge
//! (`lossy.channel_fit.fit_markov`, `lossy channel fit`). Errors are a ValueError whose
//! message is one line, `<field>: <value> <what is allowed>`, the field named as in
//! `FitConfig` (the CLI puts its option's name there instead).

use lossy_core::channel::fit::{fit, out_of_range, FitConfig, MarkovFit};
use lossy_core::channel::Modulation;
use lossy_core::units::Rate;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `v` as u64, or the field's out-of-range message for a negative number.
fn unsigned(field: &str, v: i64) -> PyResult<u64> {
    u64::try_from(v).map_err(|_| PyValueError::new_err(out_of_range(field, v)))
}

fn modulation(name: &str) -> PyResult<Modulation> {
    serde_json::from_value(serde_json::Value::String(name.to_owned())).map_err(|_| {
        PyValueError::new_err(format!("modulation: \"{name}\" is not allowed; use one of: bpsk, dpsk"))
    })
}

#[allow(clippy::too_many_arguments)]
fn config(
    mean_snr_db: f64,
    doppler_hz: f64,
    payload_bytes: i64,
    code: Option<(i64, i64)>,
    modulation_name: &str,
    rate_bps: i64,
    packets: Option<i64>,
    seed: i64,
) -> PyResult<FitConfig> {
    let code = match code {
        None => None,
        Some((n, k)) => match (usize::try_from(n), usize::try_from(k)) {
            (Ok(n), Ok(k)) => Some((n, k)),
            _ => return Err(PyValueError::new_err(format!("code: BCH({n}, {k}) does not exist: n and k are whole numbers ≥ 0"))),
        },
    };
    let cfg = FitConfig {
        mean_snr_db,
        doppler_hz,
        payload_bytes: unsigned("payload_bytes", payload_bytes)?,
        code,
        modulation: modulation(modulation_name)?,
        rate: Rate(unsigned("rate", rate_bps)?),
        packets: packets.map(|n| unsigned("packets", n)).transpose()?,
        seed: unsigned("seed", seed)?,
        ..FitConfig::new(mean_snr_db, doppler_hz)
    };
    cfg.validate().map_err(PyValueError::new_err)?;
    Ok(cfg)
}

fn to_dict<'py>(py: Python<'py>, f: &MarkovFit) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in [
        ("p_e", f.p_e),
        ("p_e_se", f.p_e_se),
        ("p", f.p),
        ("p_se", f.p_se),
        ("q", f.q),
        ("q_se", f.q_se),
        ("burst", f.burst),
        ("burst_se", f.burst_se),
        ("packet_time_s", f.packet_time_s),
        ("doppler_periods", f.doppler_periods),
    ] {
        d.set_item(k, v)?;
    }
    for (k, v) in [
        ("packet_time_ns", f.packet_time_ns),
        ("coded_bits", f.coded_bits),
        ("packets", f.packets),
        ("batches", f.batches),
    ] {
        d.set_item(k, v)?;
    }
    Ok(d)
}

/// Fits the two-state Markov chain (Chockalingam Eq. 1) to link packets sent back to
/// back over the Rayleigh channel; returns its numbers as a dict (NaN where undefined,
/// e.g. q when no packet failed). With `check_only`, validates and returns None.
#[pyfunction]
#[pyo3(signature = (mean_snr_db, doppler_hz, payload_bytes = 32, code = None, modulation = "bpsk",
                    rate_bps = 1_500_000, packets = None, seed = 1, check_only = false))]
#[allow(clippy::too_many_arguments)]
pub fn fit_markov<'py>(
    py: Python<'py>,
    mean_snr_db: f64,
    doppler_hz: f64,
    payload_bytes: i64,
    code: Option<(i64, i64)>,
    modulation: &str,
    rate_bps: i64,
    packets: Option<i64>,
    seed: i64,
    check_only: bool,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let cfg = config(mean_snr_db, doppler_hz, payload_bytes, code, modulation, rate_bps, packets, seed)?;
    if check_only {
        return Ok(None);
    }
    let result = py.detach(|| fit(&cfg)).map_err(PyValueError::new_err)?;
    to_dict(py, &result).map(Some)
}

/// A bit rate as scenarios write it ("1.5 Mbps", "384 kbps", a bare number of bit/s),
/// in bit/s; ValueError naming what is allowed.
#[pyfunction]
pub fn parse_rate(text: &str) -> PyResult<u64> {
    serde_json::from_value::<Rate>(serde_json::Value::String(text.to_owned()))
        .map(|r| r.0)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}
