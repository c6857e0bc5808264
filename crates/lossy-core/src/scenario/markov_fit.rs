//! `loss = { model = "rayleigh", ..., markov_fit = true }`: the link is driven by the
//! two-state Markov chain fitted to its fading channel for its own link packets, as
//! Chockalingam, Zorzi and Tralli ran TCP (§III.A: the Markov parameters computed
//! off-line from the fading simulation, then fed to the TCP simulation), instead of by
//! the fading itself. Flipping the one flag runs any scenario either way, so the error
//! of the Markov approximation can be measured.
//!
//! Readings chosen:
//! - **The fitted packet** is the link layer's frame: an ARQ link's link packet (payload
//!   and header, in its coding), or for a plain link the largest TCP segment of the
//!   scenario's flows (header included, in the link's coding). Other frames (the last,
//!   shorter link packet; ACKs) step the same chain.
//! - **The chain** is `model = "gilbert"` with p_ge = 1 − p, p_eg = 1 − q and a `slot`
//!   of one fitted packet's air time, so it also moves while the link is idle, as the
//!   fading does. A fit that saw no failure never loses; one that saw no success always
//!   does.
//! - **One fit per parameter set**, seed 1 (`channel/fit.rs`): the paper computed one
//!   table. Every run with the same channel, frame and rate gets the same chain, whatever
//!   its own seed, and a process computes it once (the fits are cached).

use crate::channel::fit::{fit, FitConfig};
use crate::channel::{GilbertConfig, GilbertUnit, RayleighConfig};
use crate::coding::frame::Coding;
use crate::link::config::{LinkLayerConfig, LinkLayerSpec};
use crate::time::SimDuration;
use crate::units::{Duration, Rate};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The chain fitted to `cfg` for the frames of `link_layer` on a link of
/// `nominal_rate_bps` (its capacity's: the fitted frames go back to back at it);
/// `largest_segment` is the biggest TCP packet the flows send (the plain link's frame).
pub fn fitted_chain(cfg: &RayleighConfig, link_layer: &LinkLayerConfig, largest_segment: u64, nominal_rate_bps: u64) -> Result<GilbertConfig, String> {
    let (frame_bytes, coding) = link_layer.frame(largest_segment)?;
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
    static FITS: OnceLock<Mutex<HashMap<String, GilbertConfig>>> = OnceLock::new();
    let key = serde_json::to_string(&fit_cfg).expect("a fit config serializes");
    // Held while fitting: a second run needing the same chain waits instead of refitting.
    let mut fits = FITS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(chain) = fits.get(&key) {
        return Ok(chain.clone());
    }
    let f = fit(&fit_cfg)?;
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
