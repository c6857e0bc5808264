//! Neyman Type A clustered errors (Botoș et al. §II C, after D. R. Smith, *Digital
//! Transmission Systems*): a compound Poisson process. Error clusters start as a Poisson
//! process along the stream of units sent (bits, or packets: `unit`), λ =
//! `clusters_per_unit` per unit; a cluster holds N ~ Poisson(m2) errors, m2 =
//! `errors_per_cluster`, put on min(N, S) distinct units drawn uniformly from the S =
//! `span` units from its start. Over a block of n units, with clusters short beside it,
//! the count of errors is Neyman Type A with m1 = λn (Smith):
//!   P(k) = e^(−m1) (m2^k / k!) Σ_j (m1 e^(−m2))^j j^k / j!,  mean m1·m2,
//!   variance m1·m2·(1 + m2).
//!
//! A cluster may spill into the following packets: its errors wait in `pending` until
//! the stream reaches them. Bits: a packet is lost if any of its bits is in error, and
//! `codeword_errors` counts the wrong bits of each codeword (two clusters hitting one bit
//! make one error). Packets: an error loses the packet it lands on.
//!
//! Closed forms (exact, whatever the span): a block of L units is clean with probability
//! exp(−λ·A(L)), A(L) = Σ over cluster starts x of P(the cluster at x hits the block)
//! (independent marks of a Poisson process), computed in O(m2) by `hit_weight`. Hence the
//! loss, the λ that gives a packet loss (`packet_loss`), the mean loss run
//! p / (P(clean) − P(two clean)) and P(next packet lost | this one lost).

use super::{whole_packet_errors, Channel, ModelConfig, TxSpan, LossProcess};
use crate::rng::RngStream;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What the clusters arrive along.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NeymanUnit {
    /// Bit errors (the physical channel of Botoș §II C); a packet with one is lost.
    #[default]
    Bit,
    /// Packet losses: each error loses the packet it lands on.
    Packet,
}

impl NeymanUnit {
    fn plural(self) -> &'static str {
        match self {
            NeymanUnit::Bit => "bits",
            NeymanUnit::Packet => "packets",
        }
    }
}

/// `model = "neyman"`. Give the cluster rate either as `clusters_per_unit`, or as the
/// `packet_loss` of back-to-back packets of `packet_bytes` bytes (solved for it exactly).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NeymanConfig {
    /// What clusters arrive along and errors land on: "bit" (default) or "packet".
    #[serde(default)]
    pub unit: NeymanUnit,
    /// m2: mean number of errors in a cluster (Poisson), > 0.
    pub errors_per_cluster: f64,
    /// λ: mean number of clusters starting per unit (per bit or per packet), ≥ 0. Give
    /// this or `packet_loss`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clusters_per_unit: Option<f64>,
    /// The long-run loss of packets, in [0, 1); λ is the rate that gives it (for
    /// `packet_bytes`-byte packets with unit = "bit"). Give this or `clusters_per_unit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packet_loss: Option<f64>,
    /// With `packet_loss` and unit = "bit": the packet size the loss is for, in bytes
    /// (a whole number > 0, e.g. 1500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packet_bytes: Option<f64>,
    /// S: the units a cluster's errors are spread over (a whole number ≥ 1). Default
    /// ⌈2·errors_per_cluster⌉: inside a cluster about every other unit is wrong, as bits
    /// are while a receiver guesses through a deep fade or a noise burst (BER ≈ 1/2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<f64>,
}

/// The largest span and packet size: whole numbers up to 2^53 are exact in an f64.
const MAX_WHOLE: f64 = 9_007_199_254_740_992.0;

/// A whole number in [1, max] (false for NaN).
fn is_whole(v: f64, max: f64) -> bool {
    (1.0..=max).contains(&v) && v.fract() == 0.0
}

impl ModelConfig for NeymanConfig {
    fn validate(&self) -> Result<(), String> {
        let units = self.unit.plural();
        let m2 = self.errors_per_cluster;
        if !(m2.is_finite() && m2 > 0.0) {
            return Err(format!(
                "errors_per_cluster: {m2} is not allowed; use a finite mean number of errors per cluster > 0, e.g. 3"
            ));
        }
        if let Some(s) = self.span {
            if !is_whole(s, MAX_WHOLE) {
                return Err(format!(
                    "span: {s} is not allowed; use a whole number of {units} ≥ 1, e.g. 8 (default: ⌈2·errors_per_cluster⌉)"
                ));
            }
        }
        match (self.clusters_per_unit, self.packet_loss) {
            (None, None) => Err(format!(
                "clusters_per_unit: missing; give clusters_per_unit (clusters per {}), or packet_loss{}",
                &units[..units.len() - 1],
                if self.unit == NeymanUnit::Bit { " with packet_bytes" } else { "" }
            )),
            (Some(_), Some(p)) => Err(format!(
                "packet_loss: {p} is given with clusters_per_unit; give one of them"
            )),
            (Some(rate), None) => {
                if !(rate.is_finite() && rate >= 0.0) {
                    return Err(format!(
                        "clusters_per_unit: {rate} is not allowed; use a finite number of clusters per {} ≥ 0, e.g. {}",
                        &units[..units.len() - 1],
                        if self.unit == NeymanUnit::Bit { "1e-5" } else { "0.02" }
                    ));
                }
                match self.packet_bytes {
                    Some(b) => Err(format!("packet_bytes: {b} is used only with packet_loss; leave it out")),
                    None => Ok(()),
                }
            }
            (None, Some(p)) => {
                if !(0.0..1.0).contains(&p) {
                    return Err(format!(
                        "packet_loss: {p} is not allowed; use a probability in [0, 1), e.g. 0.05"
                    ));
                }
                match (self.unit, self.packet_bytes) {
                    (NeymanUnit::Bit, None) => Err(
                        "packet_bytes: missing; packet_loss with unit = \"bit\" is for packets of a given size, e.g. packet_bytes = 1500".into(),
                    ),
                    (NeymanUnit::Bit, Some(b)) if !is_whole(b, MAX_WHOLE / 8.0) => Err(format!(
                        "packet_bytes: {b} is not allowed; use a whole number of bytes > 0, e.g. 1500"
                    )),
                    (NeymanUnit::Packet, Some(b)) => Err(format!(
                        "packet_bytes: {b} is not used with unit = \"packet\" (a packet is one unit whatever its size); leave it out"
                    )),
                    _ => Ok(()),
                }
            }
        }
    }
    /// Per bit, yes; per packet, each error loses a whole packet.
    fn makes_bit_errors(&self) -> bool {
        self.unit == NeymanUnit::Bit
    }
    fn model_name(&self) -> &'static str {
        "neyman"
    }
    fn build(&self, _fading: RngStream) -> Channel {
        Neyman::new(self).into()
    }
}

impl NeymanConfig {
    /// S, in units.
    pub fn span_units(&self) -> u64 {
        match self.span {
            Some(s) => s as u64,
            None => (2.0 * self.errors_per_cluster).ceil().max(1.0) as u64,
        }
    }

    /// Units in a packet of `bits` bits: its bits, or one packet.
    pub fn units_in(&self, bits: u64) -> u64 {
        match self.unit {
            NeymanUnit::Bit => bits,
            NeymanUnit::Packet => 1,
        }
    }

    /// λ, clusters per unit: as given, or the rate at which back-to-back packets of
    /// `packet_bytes` (one unit with unit = "packet") are lost with `packet_loss`:
    /// λ = −ln(1 − p) / A(L).
    pub fn clusters_per_unit(&self) -> f64 {
        match (self.clusters_per_unit, self.packet_loss) {
            (Some(rate), _) => rate,
            (None, Some(p)) => {
                let bits = self.packet_bytes.map_or(8, |b| b as u64 * 8);
                let a = self.hit_weight(self.units_in(bits));
                if p <= 0.0 { 0.0 } else { -(-p).ln_1p() / a }
            }
            (None, None) => 0.0,
        }
    }

    /// The same process with `clusters_per_unit` and `span` written out (what
    /// `packet_loss` and the default span come to).
    pub fn resolved(&self) -> NeymanConfig {
        NeymanConfig {
            unit: self.unit,
            errors_per_cluster: self.errors_per_cluster,
            clusters_per_unit: Some(self.clusters_per_unit()),
            packet_loss: None,
            packet_bytes: None,
            span: Some(self.span_units() as f64),
        }
    }

    /// The config that loses back-to-back packets of `packet_bytes` bytes with
    /// probability `p` (`clusters_per_unit` solved; `span` None for the default).
    pub fn for_packet_loss(
        p: f64,
        packet_bytes: u64,
        errors_per_cluster: f64,
        span: Option<u64>,
        unit: NeymanUnit,
    ) -> Result<NeymanConfig, String> {
        let cfg = NeymanConfig {
            unit,
            errors_per_cluster,
            clusters_per_unit: None,
            packet_loss: Some(p),
            packet_bytes: (unit == NeymanUnit::Bit).then_some(packet_bytes as f64),
            span: span.map(|s| s as f64),
        };
        cfg.validate()?;
        Ok(cfg.resolved())
    }

    /// A(L) = Σ over cluster starts x of q(x), q(x) = P(a cluster starting at x puts an
    /// error in a block of L units). A cluster overlapping the block by k of its S units
    /// misses it with h(k, c) = C(S−k, c)/C(S, c) given c = min(N, S) errors. With a =
    /// min(L, S) and b = max(L, S), k = a for b − a + 1 starts and each k in 1..a−1 for
    /// two (the edges), so A = (b − a + 1)·q(a) + 2·Σ_{k<a} q(k), and by the hockey-stick
    /// identity Σ_{k=1}^{a−1} h(k, c) = (S − c)/(c + 1)·(1 − h(a − 1, c + 1)).
    pub fn hit_weight(&self, l: u64) -> f64 {
        let s = self.span_units();
        let m = self.errors_per_cluster;
        let (a, b) = (l.min(s), l.max(s));
        if a == 0 {
            return 0.0;
        }
        let sf = s as f64;
        // Poisson terms beyond m + 40√m + 40 are below e^−400 of the total.
        let last = (s - 1).min((m + 40.0 * m.sqrt() + 40.0).ceil() as u64);
        // ln h(k, c + 1) from ln h(k, c): one more error placed outside the block.
        let step = |ln_h: f64, k: u64, c: u64| {
            if ln_h == f64::NEG_INFINITY || k + c >= s {
                f64::NEG_INFINITY
            } else {
                ln_h + (-(k as f64) / (sf - c as f64)).ln_1p()
            }
        };
        let (mut ln_pois, mut below_s) = (-m, (-m).exp());
        let (mut q_a, mut edge) = (0.0, 0.0);
        let (mut ln_h_a, mut ln_h_edge) = (0.0, step(0.0, a - 1, 0)); // h(a, 0), h(a−1, 1)
        for c in 0..=last {
            if c > 0 {
                ln_pois += (m / c as f64).ln();
                below_s += ln_pois.exp();
                ln_h_a = step(ln_h_a, a, c - 1);
            }
            let pois = ln_pois.exp();
            q_a += pois * -ln_h_a.exp_m1();
            // Σ_{k=1}^{a−1} (1 − h(k, c)) = (a − 1) − (S − c)/(c + 1)·(1 − h(a − 1, c + 1)).
            let miss = (sf - c as f64) / (c as f64 + 1.0) * -ln_h_edge.exp_m1();
            edge += pois * ((a - 1) as f64 - miss);
            ln_h_edge = step(ln_h_edge, a - 1, c + 1);
        }
        if last == s - 1 {
            // N ≥ S: all S units are hit, so every overlapping cluster hits the block.
            let at_least_s = (1.0 - below_s).max(0.0);
            q_a += at_least_s;
            edge += at_least_s * (a - 1) as f64;
        }
        (b - a + 1) as f64 * q_a + 2.0 * edge
    }

    /// P(a block of `units` units is clean) = exp(−λ·A(units)).
    fn clean(&self, rate: f64, units: u64) -> f64 {
        (-rate * self.hit_weight(units)).exp()
    }
}

/// The Neyman Type A pmf P(0..=k_max) of the errors in a block holding m1 clusters on
/// average, by the compound-Poisson recursion (Panjer): P(0) = exp(−m1(1 − e^(−m2))),
/// P(k) = (m1/k) Σ_{t=1}^{k} t·f(t)·P(k − t), f the Poisson(m2) pmf. Equal to Smith's
/// series e^(−m1) (m2^k / k!) Σ_j (m1 e^(−m2))^j j^k / j! (tested).
pub fn neyman_type_a_pmf(m1: f64, m2: f64, k_max: usize) -> Vec<f64> {
    let f: Vec<f64> = (0..=k_max)
        .scan((-m2).exp(), |p, t| {
            let v = *p;
            *p *= m2 / (t + 1) as f64;
            Some(v)
        })
        .collect();
    let mut pmf = vec![(-m1 * -(-m2).exp_m1()).exp()];
    for k in 1..=k_max {
        let s: f64 = (1..=k).map(|t| t as f64 * f[t] * pmf[k - t]).sum();
        pmf.push(m1 / k as f64 * s);
    }
    pmf
}

/// The clustered-error process.
#[derive(Clone, Debug)]
pub struct Neyman {
    cfg: NeymanConfig,
    /// λ, clusters per unit, and S, the span in units.
    rate: f64,
    span: u64,
    started: bool,
    /// Units sent so far: the stream position of the next unit.
    pos: u64,
    /// From `pos` to the next cluster's start, in units (a Poisson process: exponential
    /// gaps; the unit it starts in is the floor).
    to_next: f64,
    /// Errors of clusters already started, by stream position (≥ `pos`), smallest first.
    pending: BinaryHeap<Reverse<u64>>,
    /// One cluster's offsets (reused: no allocation per packet once warm).
    offsets: Vec<u64>,
}

impl Neyman {
    pub fn new(cfg: &NeymanConfig) -> Self {
        Neyman {
            cfg: cfg.clone(),
            rate: cfg.clusters_per_unit(),
            span: cfg.span_units(),
            started: false,
            pos: 0,
            to_next: 0.0,
            pending: BinaryHeap::new(),
            offsets: Vec::new(),
        }
    }

    /// P(the next packet is lost | this one is), back to back, `bits` bits each:
    /// P(both lost)/p = 1 − (P(clean) − P(two clean))/p. Fig. 1's distance-1 point.
    pub fn next_lost(&self, bits: u64) -> Option<f64> {
        let l = self.cfg.units_in(bits);
        let (c1, c2) = (self.cfg.clean(self.rate, l), self.cfg.clean(self.rate, 2 * l));
        let p = 1.0 - c1;
        (p > 0.0).then(|| 1.0 - (c1 - c2) / p)
    }

    fn gap(&self, rng: &mut RngStream) -> f64 {
        if self.rate > 0.0 {
            rng.exponential(1.0 / self.rate)
        } else {
            f64::INFINITY
        }
    }

    /// The stream starts stationary: clusters that started up to S − 1 units before the
    /// first unit sent already hold errors in it. We run the process over S − 1 units
    /// first and drop what falls there.
    fn start(&mut self, rng: &mut RngStream) {
        if !self.started {
            self.started = true;
            self.to_next = self.gap(rng);
            self.take(self.span - 1, rng, |_| {});
        }
    }

    /// Moves the stream over the next `n` units, starting the clusters that begin there,
    /// and hands each unit in error (once, however many errors it holds) to `hit`, as
    /// its offset from the first of the `n`.
    #[inline]
    fn take(&mut self, n: u64, rng: &mut RngStream, mut hit: impl FnMut(u64)) {
        let nf = n as f64;
        while self.to_next < nf {
            let start = self.pos + self.to_next as u64;
            self.add_cluster(start, rng);
            self.to_next += self.gap(rng);
        }
        self.to_next -= nf;
        let end = self.pos + n;
        let mut last = None;
        while let Some(&Reverse(x)) = self.pending.peek() {
            if x >= end {
                break;
            }
            self.pending.pop();
            if last != Some(x) {
                last = Some(x);
                hit(x - self.pos);
            }
        }
        self.pos = end;
    }

    /// A cluster starting at unit `start`: min(N, S) distinct units of its span, N ~
    /// Poisson(m2).
    fn add_cluster(&mut self, start: u64, rng: &mut RngStream) {
        let c = poisson(rng, self.cfg.errors_per_cluster).min(self.span);
        distinct_offsets(c, self.span, rng, &mut self.offsets);
        for &o in &self.offsets {
            self.pending.push(Reverse(start + o));
        }
    }
}

/// Poisson(mean) by inversion with sequential search (Devroye 1986 §X.3), in pieces of
/// mean ≤ 500 (so e^−mean never underflows; a sum of Poissons is Poisson): O(mean) work,
/// as placing the errors is.
fn poisson(rng: &mut RngStream, mean: f64) -> u64 {
    let (mut left, mut total) = (mean, 0);
    while left > 0.0 {
        let m = left.min(500.0);
        left -= m;
        let u = rng.uniform();
        let (mut k, mut p) = (0u64, (-m).exp());
        let mut cdf = p;
        while u >= cdf {
            k += 1;
            p *= m / k as f64;
            if cdf + p == cdf {
                break; // the tail is below rounding
            }
            cdf += p;
        }
        total += k;
    }
    total
}

/// `c` distinct offsets in [0, s), uniformly (sorted). Few of many: draw with
/// replacement until `c` are distinct (the first c distinct values of i.i.d. draws are a
/// uniform subset); more than half: selection sampling (Knuth 3.4.2, Algorithm S).
fn distinct_offsets(c: u64, s: u64, rng: &mut RngStream, out: &mut Vec<u64>) {
    out.clear();
    if 2 * c > s {
        let mut need = c;
        for t in 0..s {
            if need == 0 {
                break;
            }
            if ((s - t) as f64) * rng.uniform() < need as f64 {
                out.push(t);
                need -= 1;
            }
        }
        return;
    }
    while (out.len() as u64) < c {
        for _ in out.len() as u64..c {
            out.push(((rng.uniform() * s as f64) as u64).min(s - 1));
        }
        out.sort_unstable();
        out.dedup();
    }
}

impl LossProcess for Neyman {
    fn lost(&mut self, tx: TxSpan, rng: &mut RngStream) -> bool {
        self.start(rng);
        let mut any = false;
        self.take(self.cfg.units_in(tx.bits), rng, |_| any = true);
        any
    }

    /// Bits: the wrong bits of each codeword (a cluster may straddle codewords and
    /// packets). Packets: every codeword of a lost packet is uncorrectable.
    fn codeword_errors(
        &mut self,
        tx: TxSpan,
        codeword_bits: u32,
        errors: &mut [u32],
        rng: &mut RngStream,
    ) {
        if self.cfg.unit == NeymanUnit::Packet {
            return whole_packet_errors(self, tx, codeword_bits, errors, rng);
        }
        let n = codeword_bits as u64;
        let bits = n * errors.len() as u64;
        self.start(rng);
        errors.fill(0);
        self.take(bits, rng, |off| errors[(off / n) as usize] += 1);
    }

    /// 1 − exp(−λ·A(L)), L the packet's units (exact; see `hit_weight`).
    fn stationary_loss(&self, bits: u64) -> Option<f64> {
        Some(-(-self.rate * self.cfg.hit_weight(self.cfg.units_in(bits))).exp_m1())
    }

    /// Losses per run start in a stationary sequence: p / P(lost, previous clean) =
    /// p / (P(clean) − P(two clean)), exact for back-to-back packets.
    fn mean_burst(&self, bits: u64) -> Option<f64> {
        let l = self.cfg.units_in(bits);
        let (c1, c2) = (self.cfg.clean(self.rate, l), self.cfg.clean(self.rate, 2 * l));
        let p = 1.0 - c1;
        (p > 0.0).then(|| if c1 > c2 { p / (c1 - c2) } else { f64::INFINITY })
    }
}

#[cfg(test)]
#[path = "neyman_tests.rs"]
mod tests;
