//! Replay of a loss trace, either by packet index (`packets`: 0-based indices of the
//! packets offered to this channel that are lost) or by time (`times`: the first packet
//! whose transmission ends at or after each listed time is lost; several times before
//! one packet lose only that packet). Lists may be given in any order; they are sorted
//! (and indices deduplicated) when the process is built. Draws no random numbers.
//!
//! A long trace need not be pasted: `file = "losses.txt"` names a data file
//! (`data_file.rs`) holding one entry per line, as the list would: packet indices
//! (`17`) when its first entry is a whole number, else times (`1.25 s`).

use super::{Channel, LossProcess, ModelConfig, TxSpan};
use crate::data_file::DataFile;
use crate::rng::RngStream;
use crate::time::SimTime;
use crate::units::Duration;
use schemars::JsonSchema;
use serde::de::IntoDeserializer;
use serde::{Deserialize, Serialize};

/// `model = "trace"`; give exactly one of `packets`, `times` or `file`.
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
    /// A data file of packet indices or times, one per line (`#` starts a comment):
    /// whole numbers are packet indices, e.g. `17`; otherwise times, e.g. `1.25 s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<DataFile>,
}

/// The entries of a trace: packet indices or loss times.
type Entries = (Vec<u64>, Vec<Duration>);

impl LossTraceConfig {
    /// The lists to replay: as given, or read from `file` (`file: ...` on bad contents).
    fn entries(&self) -> Result<Entries, String> {
        let Some(file) = &self.file else {
            return Ok((self.packets.clone(), self.times.clone()));
        };
        let mut lines = file.entries()?.peekable();
        let Some(&(_, first)) = lines.peek() else {
            return Err(format!("file: {}: no entries; give one packet index (e.g. 17) or time (e.g. 1.25 s) per line", file.path()));
        };
        let (mut packets, mut times) = (Vec::new(), Vec::new());
        if first.parse::<u64>().is_ok() {
            for (n, entry) in lines {
                let index = entry.parse::<u64>().map_err(|_| {
                    file.bad_line(n, format!("{entry:?} is not a packet index; the first entry made this a file of packet indices, so use whole numbers >= 0"))
                })?;
                packets.push(index);
            }
        } else {
            for (n, entry) in lines {
                let time = Duration::deserialize(entry.into_deserializer()).map_err(|e: serde::de::value::Error| file.bad_line(n, e))?;
                times.push(time);
            }
        }
        Ok((packets, times))
    }
}

impl ModelConfig for LossTraceConfig {
    fn validate(&self) -> Result<(), String> {
        if self.file.is_some() {
            if !self.packets.is_empty() || !self.times.is_empty() {
                return Err("trace: give exactly one of `packets`, `times` or `file` (a file and a list are given)".into());
            }
            return self.entries().map(drop);
        }
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
        // A file's text is read once per parsed scenario (`DataFile`): `validate` read it.
        let (packets, times) = self.entries().expect("validated");
        LossTrace::from_entries(packets, times).into()
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
    /// The trace of `cfg`'s lists (not its file: `ModelConfig::build` reads that).
    pub fn new(cfg: &LossTraceConfig) -> Self {
        LossTrace::from_entries(cfg.packets.clone(), cfg.times.clone())
    }

    fn from_entries(mut packets: Vec<u64>, times: Vec<Duration>) -> Self {
        packets.sort_unstable();
        packets.dedup();
        let mut times: Vec<SimTime> = times.iter().map(|d| SimTime(d.0.as_nanos())).collect();
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
            ..LossTraceConfig::default()
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
            times: vec![ms(25), ms(10), ms(21), ms(31), ms(100)],
            ..LossTraceConfig::default()
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
            ..LossTraceConfig::default()
        }
        .validate()
        .is_ok());
        assert!(LossTraceConfig {
            times: vec![Duration::from_millis(1)],
            ..LossTraceConfig::default()
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
            ..LossTraceConfig::default()
        };
        assert!(both.validate().unwrap_err().contains("both are given"));
    }

    fn from_file(name: &str, text: &str) -> LossTraceConfig {
        let dir = std::env::temp_dir().join(format!("lossy-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        LossTraceConfig { file: Some(DataFile::new(path.to_string_lossy())), ..LossTraceConfig::default() }
    }

    fn replay_built(cfg: &LossTraceConfig, times_ms: &[u64]) -> Vec<bool> {
        let mut ch = cfg.build(RngStream::new(0, 0, "fading"));
        let mut rng = RngStream::new(0, 0, "trace");
        times_ms.iter().map(|&t| ch.lost(TxSpan::at(SimTime::ZERO + SimDuration::from_millis(t), 8000), &mut rng)).collect()
    }

    #[test]
    fn a_file_replays_as_its_list_would() {
        let by_index = from_file("packets.txt", "# lost packets\n4\n0\n\n2\n2\n");
        assert!(by_index.validate().is_ok());
        assert_eq!(replay_built(&by_index, &[0, 1, 2, 3, 4, 5, 6]), replay(&LossTraceConfig { packets: vec![4, 0, 2, 2], ..LossTraceConfig::default() }, &[0, 1, 2, 3, 4, 5, 6]));
        let by_time = from_file("times.txt", "25 ms\n10 ms\n0.021\n31 ms\n100 ms\n");
        assert_eq!(replay_built(&by_time, &[0, 10, 20, 30, 40, 50]), [false, true, false, true, true, false]);
    }

    #[test]
    fn a_bad_file_is_one_line_naming_the_file_and_the_line() {
        let cfg = from_file("bad-index.txt", "3\n\nx7\n");
        let path = cfg.file.as_ref().unwrap().path().to_string();
        assert_eq!(
            cfg.validate().unwrap_err(),
            format!("file: {path} line 3: \"x7\" is not a packet index; the first entry made this a file of packet indices, so use whole numbers >= 0")
        );
        let cfg = from_file("bad-time.txt", "1 s\n2 parsecs\n");
        assert!(cfg.validate().unwrap_err().starts_with(&format!("file: {} line 2: ", cfg.file.as_ref().unwrap().path())), "{:?}", cfg.validate());
        let cfg = from_file("empty.txt", "# nothing\n");
        assert!(cfg.validate().unwrap_err().ends_with(": no entries; give one packet index (e.g. 17) or time (e.g. 1.25 s) per line"));
        let both = LossTraceConfig { packets: vec![1], ..from_file("both.txt", "1\n") };
        assert!(both.validate().unwrap_err().contains("a file and a list are given"));
        let missing = LossTraceConfig { file: Some(DataFile::new("/nonexistent/losses.txt")), ..LossTraceConfig::default() };
        assert_eq!(missing.validate().unwrap_err(), "file: /nonexistent/losses.txt: no such file");
    }
}
