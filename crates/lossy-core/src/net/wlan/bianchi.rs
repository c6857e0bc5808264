//! Bianchi's model of DCF saturation throughput (G. Bianchi, "Performance analysis of
//! the IEEE 802.11 distributed coordination function", IEEE JSAC 18(3), 2000): the
//! oracle the segment is tested against.
//!
//! With n saturated stations, W = CWmin + 1 and m backoff stages (W·2^m = CWmax + 1), the
//! probability τ that a station transmits in a slot and the probability p that its
//! transmission collides solve (Eq. 7, 9)
//!
//!   τ = 2(1 − 2p) / ((1 − 2p)(W + 1) + pW(1 − (2p)^m)),   p = 1 − (1 − τ)^(n−1),
//!
//! (τ written here in the equivalent form 2 / (1 + W + pW Σ_{i<m} (2p)^i), defined at
//! p = ½ too), and the throughput is (Eq. 13)
//!
//!   S = P_s P_tr E[P] / ((1 − P_tr) σ + P_tr P_s T_s + P_tr (1 − P_s) T_c),
//!
//! with P_tr = 1 − (1 − τ)^n and P_s = nτ(1 − τ)^(n−1) / P_tr. T_s and T_c are the
//! times the medium is taken by a success and a collision, *with the segment's timing*:
//! a success ends DIFS after the ACK; a collision, EIFS after the frame (Bianchi's T_c
//! ends DIFS after it, his ACK timeout folded in; with EIFS, basic access has
//! T_c = T_s). The model has no retry limit; with 7 attempts and p ≤ 0.4 the
//! frames it would retry further are fewer than 2 in 1000.

use super::phy::{Phy, DIFS, SIFS, SLOT};
use crate::time::SimDuration;

/// The model's fixed point and throughput.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Saturation {
    pub tau: f64,
    pub p: f64,
    /// Bits of packets delivered per second, all stations together.
    pub throughput_bps: f64,
}

/// τ for conditional collision probability `p` (Bianchi Eq. 7).
pub fn tau(p: f64, w: f64, m: u32) -> f64 {
    let series: f64 = (0..m).map(|i| (2.0 * p).powi(i as i32)).sum();
    2.0 / (1.0 + w + p * w * series)
}

/// T_s and T_c of a `size`-byte packet (basic access, or RTS/CTS when `rts`).
pub fn times(phy: &Phy, size: u16, rts: bool) -> (SimDuration, SimDuration) {
    let data = phy.data(size);
    let tail = SIFS + phy.ack + DIFS;
    if rts {
        let handshake = phy.rts + SIFS + phy.cts + SIFS;
        (handshake + data + tail, phy.rts + phy.eifs())
    } else {
        (data + tail, data + phy.eifs())
    }
}

/// Saturation throughput of `n` stations sending `size`-byte packets.
pub fn saturation(n: u32, phy: &Phy, cw_min: u32, cw_max: u32, size: u16, rts: bool) -> Saturation {
    let w = cw_min as f64 + 1.0;
    let m = ((cw_max as f64 + 1.0) / w).log2().round().max(0.0) as u32;
    // p − (1 − (1 − τ(p))^(n−1)) rises from ≤ 0 at p = 0 to > 0 at p = 1: bisect.
    let gap = |p: f64| p - (1.0 - (1.0 - tau(p, w, m)).powi(n as i32 - 1));
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gap(mid) > 0.0 { hi = mid } else { lo = mid }
    }
    let p = 0.5 * (lo + hi);
    let t = tau(p, w, m);
    let p_tr = 1.0 - (1.0 - t).powi(n as i32);
    let p_s = n as f64 * t * (1.0 - t).powi(n as i32 - 1) / p_tr;
    let (ts, tc) = times(phy, size, rts);
    let slot = SLOT.as_secs_f64();
    let mean_slot = (1.0 - p_tr) * slot + p_tr * p_s * ts.as_secs_f64() + p_tr * (1.0 - p_s) * tc.as_secs_f64();
    Saturation { tau: t, p, throughput_bps: p_s * p_tr * 8.0 * size as f64 / mean_slot }
}

/// One saturated station alone: each packet takes DIFS + the mean backoff (CWmin/2
/// slots) + data + SIFS + ACK; its goodput in bit/s.
pub fn single_station_bps(phy: &Phy, cw_min: u32, size: u16) -> f64 {
    let per_frame = DIFS.as_secs_f64() + cw_min as f64 / 2.0 * SLOT.as_secs_f64() + (phy.data(size) + SIFS + phy.ack).as_secs_f64();
    8.0 * size as f64 / per_frame
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_station_never_collides_and_matches_the_overhead_formula() {
        let phy = Phy::new(2_000_000, 1_000_000, 28);
        let s = saturation(1, &phy, 31, 1023, 1000, false);
        assert!(s.p < 1e-12, "{s:?}");
        assert!((s.tau - 2.0 / 33.0).abs() < 1e-12);
        let want = single_station_bps(&phy, 31, 1000);
        assert!((s.throughput_bps / want - 1.0).abs() < 1e-9, "{} vs {want}", s.throughput_bps);
    }

    #[test]
    fn the_fixed_point_holds_and_collisions_grow_with_n() {
        let phy = Phy::new(1_000_000, 1_000_000, 28);
        let mut last = 0.0;
        for n in [2, 5, 10, 20, 50] {
            let s = saturation(n, &phy, 31, 1023, 1000, false);
            let p = 1.0 - (1.0 - s.tau).powi(n as i32 - 1);
            assert!((p - s.p).abs() < 1e-9 && s.p > last, "{n}: {s:?}");
            last = s.p;
        }
        // Bianchi's Table/Fig. 6 range: W = 32, m = 5, n = 10 gives p ≈ 0.28.
        let s = saturation(10, &phy, 31, 1023, 1000, false);
        assert!((0.25..0.32).contains(&s.p), "{s:?}");
    }

    #[test]
    fn the_series_form_of_tau_is_bianchis_eq7() {
        let (w, m) = (32.0, 5);
        for p in [0.05f64, 0.2, 0.3, 0.45] {
            let eq7 = 2.0 * (1.0 - 2.0 * p) / ((1.0 - 2.0 * p) * (w + 1.0) + p * w * (1.0 - (2.0 * p).powi(m as i32)));
            assert!((tau(p, w, m) - eq7).abs() < 1e-12);
        }
    }
}
