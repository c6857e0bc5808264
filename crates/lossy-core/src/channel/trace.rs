//! Replay of a loss trace, either by packet index (`packets`: 0-based indices of the
//! packets offered to this channel that are lost) or by time (`times`: the first packet
//! whose transmission ends at or after each listed time is lost; several times before
//! one packet lose only that packet). Lists may be given in any order; they are sorted
//! (and indices deduplicated) when the process is built. Draws no random numbers.

use super::{Channel, LossProcess, ModelConfig, TxSpan};
use crate::rng::RngStream;
use crate::time::SimTime;
use crate::units::Duration;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `model = "trace"`; give exactly one of `packets` or `times`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LossTraceConfig {
    /// 0-based indices, among the packets offered to this channel, of the packets to
    /// lose, e.g. [3, 17, 18].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub packets: Vec<u64>,
    /// Times from the start of the run: the first packet at or after each is lost,
    /// e.g. ["1.2 s", "1.25 s"].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub times: Vec<Duration>,
}

impl ModelConfig for LossTraceConfig {
    fn validate(&self) -> Result<(), String> {
        match (self.packets.is_empty(), self.times.is_empty()) {
            (false, true) | (true, false) => Ok(()),
            (true, true) => Err(
                "trace: give exactly one of `packets` or `times` (neither is given); \
                 use e.g. packets = [3, 17]"
                    .into(),
            ),
            (false, false) => Err(format!(
                "trace: give exactly one of `packets` or `times` (both are given: {} indices \
                 and {} times)",
                self.packets.len(),
                self.times.len()
            )),
        }
    }
    fn makes_bit_errors(&self) -> bool {
        false
    }
    fn model_name(&self) -> &'static str {
        "trace"
    }
    fn build(&self, _fading: RngStream) -> Channel {
        LossTrace::new(self).into()
    }
}

/// The replaying process.
#[derive(Clone, Debug)]
pub struct LossTrace {
    /// Sorted, distinct packet indices to lose.
    packets: Vec<u64>,
    /// Sorted loss times.
    times: Vec<SimTime>,
    /// Position of the next unused entry.
    cursor: usize,
    /// Packets offered so far.
    offered: u64,
}

impl LossTrace {
    pub fn new(cfg: &LossTraceConfig) -> Self {
        let mut packets = cfg.packets.clone();
        packets.sort_unstable();
        packets.dedup();
        let mut times: Vec<SimTime> = cfg.times.iter().map(|d| SimTime(d.0.as_nanos())).collect();
        times.sort_unstable();
        LossTrace {
            packets,
            times,
            cursor: 0,
            offered: 0,
        }
    }
}

impl LossProcess for LossTrace {
    fn lost(&mut self, tx: TxSpan, _rng: &mut RngStream) -> bool {
        let now = tx.end;
        let index = self.offered;
        self.offered += 1;
        if !self.packets.is_empty() {
            let hit = self.packets.get(self.cursor) == Some(&index);
            self.cursor += hit as usize;
            hit
        } else {
            // Every listed time up to `now` is consumed by this one packet.
            let start = self.cursor;
            while self.times.get(self.cursor).is_some_and(|&t| t <= now) {
                self.cursor += 1;
            }
            self.cursor > start
        }
    }

    fn stationary_loss(&self, _bits: u64) -> Option<f64> {
        None
    }

    fn mean_burst(&self, _bits: u64) -> Option<f64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn replay(cfg: &LossTraceConfig, times_ms: &[u64]) -> Vec<bool> {
        let mut ch = LossTrace::new(cfg);
        let mut rng = RngStream::new(0, 0, "trace");
        times_ms
            .iter()
            .map(|&t| ch.lost(TxSpan::at(SimTime::ZERO + SimDuration::from_millis(t), 8000), &mut rng))
            .collect()
    }

    #[test]
    fn by_index_unsorted_with_duplicates() {
        let cfg = LossTraceConfig {
            packets: vec![4, 0, 2, 2],
            times: vec![],
        };
        assert_eq!(
            replay(&cfg, &[0, 1, 2, 3, 4, 5, 6]),
            [true, false, true, false, true, false, false]
        );
    }

    #[test]
    fn by_time_first_packet_at_or_after() {
        let ms = |v: u64| Duration::from_millis(v);
        // 10 ms → the packet at 10 ms; 21 and 25 ms → only the packet at 30 ms; 31 ms →
        // the packet at 40 ms; 100 ms → after the last packet, never used.
        let cfg = LossTraceConfig {
            packets: vec![],
            times: vec![ms(25), ms(10), ms(21), ms(31), ms(100)],
        };
        assert_eq!(
            replay(&cfg, &[0, 10, 20, 30, 40, 50]),
            [false, true, false, true, true, false]
        );
    }

    #[test]
    fn validate_exactly_one_list() {
        assert!(LossTraceConfig {
            packets: vec![1],
            times: vec![]
        }
        .validate()
        .is_ok());
        assert!(LossTraceConfig {
            packets: vec![],
            times: vec![Duration::from_millis(1)]
        }
        .validate()
        .is_ok());
        assert!(LossTraceConfig::default()
            .validate()
            .unwrap_err()
            .contains("neither is given"));
        let both = LossTraceConfig {
            packets: vec![1],
            times: vec![Duration::from_millis(1)],
        };
        assert!(both.validate().unwrap_err().contains("both are given"));
    }
}
