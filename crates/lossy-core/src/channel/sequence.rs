//! A loss model on its own, outside a run: the fate of a stream of back-to-back packets
//! (Botoș Fig. 1, the distance between losses), and the closed forms of a loss table.
//! For the Python edge (`lossy.loss`); nothing here runs per packet of a simulation.

use super::fit::MAX_WORK;
use super::{LossConfig, LossProcess, TxSpan};
use crate::units::thousands;
use crate::rng::RngStream;
use crate::time::{serialization_delay, SimTime};
use serde::Serialize;
use serde_json::Value;

/// The most packets one sequence holds (one byte each in memory).
pub const MAX_PACKETS: u64 = 1_000_000_000;

/// A loss table from JSON text; errors are `loss.<field>: what is wrong`
/// (`loss.errors_per_cluster: -1 is not allowed; ...`), or `loss: ...` where serde
/// cannot say which field (inside a table chosen by `model`: `loss: unknown variant
/// \`bits\`, expected \`bit\` or \`packet\``).
pub fn parse_loss(text: &str) -> Result<LossConfig, String> {
    let cfg: LossConfig = crate::config::parse_table(text, "loss")?;
    cfg.validate().map_err(|m| format!("loss.{m}"))?;
    Ok(cfg)
}

fn check_packet_bytes(packet_bytes: u64) -> Result<u64, String> {
    match packet_bytes.checked_mul(8) {
        Some(bits) if bits > 0 => Ok(bits),
        _ => Err(format!("packet_bytes: {packet_bytes} is not allowed; use a whole number of bytes > 0, e.g. 1500")),
    }
}

/// Whether each of `packets` packets of `packet_bytes` bytes, sent back to back at
/// `rate_bps` (only models indexed by time look at it), is lost. Draws from `seed`'s
/// streams `loss-sequence:fading` and `loss-sequence:channel`.
pub fn loss_sequence(cfg: &LossConfig, packets: u64, packet_bytes: u64, rate_bps: u64, seed: u64) -> Result<Vec<bool>, String> {
    if packets > MAX_PACKETS {
        return Err(format!("packets: {} is too many; use at most {} (a byte of memory each)", thousands(packets), thousands(MAX_PACKETS)));
    }
    let bits = check_packet_bytes(packet_bytes)?;
    if rate_bps == 0 {
        return Err("rate_bps: 0 sends nothing; use a rate > 0 in bit/s, e.g. 1000000".into());
    }
    // A model whose cost grows with its parameters (the Rayleigh fading) is bounded as a
    // Markov fit is (`fit.rs`, MAX_WORK), before any draw.
    if let Some(per_packet) = cfg.frame_work(serialization_delay(bits, rate_bps).as_secs_f64(), bits) {
        let work = packets as f64 * per_packet;
        if work > MAX_WORK {
            return Err(format!(
                "packets: {} packets × {} terms each is {work:.1e} terms of work, more than the limit of {MAX_WORK:.0e} (a few CPU-minutes); use fewer packets",
                thousands(packets),
                thousands(per_packet as u64)
            ));
        }
    }
    let mut channel = cfg.build(RngStream::new(seed, 0, "loss-sequence:fading"));
    let mut rng = RngStream::new(seed, 0, "loss-sequence:channel");
    let airtime = serialization_delay(bits, rate_bps);
    let mut start = SimTime::ZERO;
    Ok((0..packets)
        .map(|_| {
            let end = start + airtime;
            let lost = channel.lost(TxSpan { start, end, bits }, &mut rng);
            start = end;
            lost
        })
        .collect())
}

/// What is known in closed form about a loss table for packets of a given size.
#[derive(Clone, Debug, Serialize)]
pub struct ClosedForm {
    pub model: &'static str,
    /// The table with what it implies written out (Neyman: `clusters_per_unit` solved
    /// from `packet_loss`, the default `span`); other models as given.
    pub loss: Value,
    /// Long-run packet loss, where a closed form exists.
    pub stationary_loss: Option<f64>,
    /// Mean run of consecutive losses of back-to-back packets, where one exists.
    pub mean_burst: Option<f64>,
    /// P(the next packet is lost | this one is), back to back: Neyman only (Fig. 1's
    /// distance 1); None for the other models.
    pub next_lost: Option<f64>,
}

pub fn closed_form(cfg: &LossConfig, packet_bytes: u64) -> Result<ClosedForm, String> {
    let bits = check_packet_bytes(packet_bytes)?;
    let channel = cfg.build(RngStream::new(1, 0, "loss-sequence:fading"));
    let (loss, next_lost) = match cfg {
        LossConfig::Neyman(c) => {
            let resolved = LossConfig::Neyman(c.resolved());
            (resolved, super::Neyman::new(c).next_lost(bits))
        }
        other => (other.clone(), None),
    };
    Ok(ClosedForm {
        model: cfg.model_name(),
        loss: serde_json::to_value(&loss).map_err(|e| e.to_string())?,
        stationary_loss: channel.stationary_loss(bits),
        mean_burst: channel.mean_burst(bits),
        next_lost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sequence_is_reproducible_and_has_the_model_loss() {
        let cfg = parse_loss(r#"{"model":"neyman","errors_per_cluster":3,"packet_loss":0.1,"packet_bytes":1500}"#).unwrap();
        let a = loss_sequence(&cfg, 200_000, 1500, 1_000_000, 5).unwrap();
        assert_eq!(a, loss_sequence(&cfg, 200_000, 1500, 1_000_000, 5).unwrap());
        assert_ne!(a, loss_sequence(&cfg, 200_000, 1500, 1_000_000, 6).unwrap());
        // 5 binomial standard errors (≈ 0.0034; the losses are nearly independent).
        let rate = a.iter().filter(|&&x| x).count() as f64 / a.len() as f64;
        assert!((rate - 0.1).abs() < 5.0 * (0.09f64 / 200_000.0).sqrt(), "{rate}");
    }

    #[test]
    fn closed_forms_and_bad_input() {
        let cfg = parse_loss(r#"{"model":"neyman","errors_per_cluster":3,"packet_loss":0.1,"packet_bytes":1500}"#).unwrap();
        let c = closed_form(&cfg, 1500).unwrap();
        assert_eq!(c.model, "neyman");
        assert!((c.stationary_loss.unwrap() - 0.1).abs() < 1e-12);
        assert_eq!(c.loss["span"], 6.0);
        assert!(c.loss["clusters_per_unit"].as_f64().unwrap() > 0.0 && c.loss.get("packet_loss").is_none());
        assert!(c.next_lost.unwrap() > 0.1 && c.mean_burst.unwrap() > 1.0);
        let b = closed_form(&parse_loss(r#"{"model":"bernoulli","p":0.2}"#).unwrap(), 100).unwrap();
        assert_eq!((b.stationary_loss, b.next_lost), (Some(0.2), None));
        assert_eq!(
            parse_loss(r#"{"model":"neyman","unit":"bits","errors_per_cluster":3,"clusters_per_unit":1e-5}"#).unwrap_err(),
            "loss: unknown variant `bits`, expected `bit` or `packet`"
        );
        assert_eq!(
            parse_loss(r#"{"model":"neyman","errors_per_cluster":-1,"clusters_per_unit":1e-5}"#).unwrap_err(),
            "loss.errors_per_cluster: -1 is not allowed; use a finite mean number of errors per cluster > 0, e.g. 3"
        );
        assert!(loss_sequence(&cfg, 10, 0, 1, 1).unwrap_err().starts_with("packet_bytes: 0 is not allowed"));
        assert!(loss_sequence(&cfg, 10, 1500, 0, 1).unwrap_err().starts_with("rate_bps: 0 sends nothing"));
        assert_eq!(
            loss_sequence(&cfg, 1_000_000_000_000, 1500, 1, 1).unwrap_err(),
            "packets: 1,000,000,000,000 is too many; use at most 1,000,000,000 (a byte of memory each)"
        );
        // Issue 27: a Rayleigh sequence's cost is bounded up front, as a Markov fit's.
        let fading = parse_loss(r#"{"model":"rayleigh","mean_snr_db":20,"doppler_hz":10,"sinusoids":1024}"#).unwrap();
        assert_eq!(
            loss_sequence(&fading, 100_000_000, 1500, 1_000_000_000, 1).unwrap_err(),
            "packets: 100,000,000 packets × 1,040 terms each is 1.0e11 terms of work, more than the limit of 2e10 (a few CPU-minutes); use fewer packets"
        );
    }
}
