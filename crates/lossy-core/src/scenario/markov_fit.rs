//! `loss = { model = "rayleigh", ..., markov_fit = true }`: the link is driven by the
//! two-state Markov chain fitted to its fading channel for its own link packets, as
//! Chockalingam, Zorzi and Tralli ran TCP (§III.A: the Markov parameters computed
//! off-line from the fading simulation, then fed to the TCP simulation), instead of by
//! the fading itself. Flipping the one flag runs any scenario either way, so the error
//! of the Markov approximation can be measured.
//!
//! Readings chosen:
//! - **The fitted packet** is the link layer's frame: an ARQ link's link packet (payload
//!   and header, in its coding), or for a plain link the largest data packet of the
//!   scenario's flows (header included, in the link's coding): its largest TCP segment,
//!   or with no TCP flow its largest UDP datagram (`packet_size` + `header`). Other
//!   frames (the last, shorter link packet; ACKs) step the same chain.
//! - **The chain** is `model = "gilbert"` with p_ge = 1 − p, p_eg = 1 − q and a `slot`
//!   of one fitted packet's air time, so it also moves while the link is idle, as the
//!   fading does. A fit that saw no failure never loses; one that saw no success always
//!   does.
//! - **One fit per parameter set**, seed 1 (`channel/fit.rs`): the paper computed one
//!   table. Every run with the same channel, frame and rate gets the same chain, whatever
//!   its own seed, and a process computes it once (the fits are cached).
//! - **Checked first, fitted last** (issue 27): building a world only plans each fit
//!   ([`plan`]: the frame, the fit's fields and its cost bound); the fits run after every
//!   other check has passed ([`fitted_chain`]), and `validate` never runs them, so a
//!   scenario is accepted or refused at once and a sweep's parent does not fit what its
//!   workers will.

use super::flows::FlowSpec;
use crate::apps::App;
use crate::channel::fit::{fit_counting, FitConfig};
use crate::channel::gilbert::GilbertUnit;
use crate::channel::{GilbertConfig, RayleighConfig};
use crate::coding::frame::Coding;
use crate::link::config::{LinkLayerConfig, LinkLayerSpec};
use crate::time::SimDuration;
use crate::units::{Duration, Rate};
use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Mutex, OnceLock};

/// The largest data packet the flows send, header included: a TCP segment if any flow
/// reads the `tcp` table, else a UDP datagram; 0 with neither.
pub(super) fn largest_data_packet(specs: &[FlowSpec]) -> u64 {
    super::checks::largest_tcp_packet(specs).unwrap_or_else(|| {
        specs.iter().filter_map(|f| f.app.datagrams()).map(|d| d.packet_size + d.header).max().unwrap_or(0)
    })
}

/// The fit that `cfg` asks for on a direction with `link_layer` at `nominal_rate_bps`
/// (its capacity's: the fitted frames go back to back at it); `largest_packet` is the
/// biggest data packet the flows send (the plain link's frame). Checked (fields and the
/// fit's cost) but not run: the error names the scenario's field under the loss table
/// (`fit_packets`, `sinusoids`, or `markov_fit` when no flow sends a packet to fit for).
pub fn plan(cfg: &RayleighConfig, link_layer: &LinkLayerConfig, largest_packet: u64, nominal_rate_bps: u64) -> Result<FitConfig, String> {
    let (frame_bytes, coding) = link_layer.frame(largest_packet)?;
    if frame_bytes == 0 {
        return Err("markov_fit: true fits the chain to the largest packet the flows send, but no flow sends any; add a flow or drop markov_fit".into());
    }
    let fit_cfg = FitConfig {
        payload_bytes: frame_bytes,
        code: match coding {
            Coding::None => None,
            Coding::Bch(code) => Some((code.n(), code.k())),
        },
        modulation: cfg.modulation,
        rate: Rate(nominal_rate_bps),
        packets: cfg.fit_packets,
        sinusoids: cfg.sinusoids,
        ..FitConfig::new(cfg.mean_snr_db, cfg.doppler())
    };
    // The fit's own field is `packets`; the scenario's is `fit_packets`.
    fit_cfg.validate().map_err(|m| match m.strip_prefix("packets: ") {
        Some(rest) => format!("fit_packets: {rest}"),
        None => m,
    })?;
    Ok(fit_cfg)
}

/// The chain fitted for `fit_cfg` (from [`plan`]), adding the link packets sent to
/// `done` as it goes.
pub fn fitted_chain(fit_cfg: &FitConfig, done: Option<&AtomicU64>) -> Result<GilbertConfig, String> {
    static FITS: OnceLock<Mutex<HashMap<String, GilbertConfig>>> = OnceLock::new();
    let key = serde_json::to_string(fit_cfg).expect("a fit config serializes");
    // Held while fitting: a second run needing the same chain waits instead of refitting.
    let mut fits = FITS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(chain) = fits.get(&key) {
        return Ok(chain.clone());
    }
    let f = fit_counting(fit_cfg, done)?;
    let chain = GilbertConfig {
        p_ge: if f.p.is_nan() { 1.0 } else { 1.0 - f.p },
        p_eg: if f.q.is_nan() { 1.0 } else { 1.0 - f.q },
        unit: GilbertUnit::Packet,
        ber_good: 0.0,
        ber_bad: 1.0,
        slot: Some(Duration(SimDuration(f.packet_time_ns))),
    };
    fits.insert(key, chain.clone());
    Ok(chain)
}
