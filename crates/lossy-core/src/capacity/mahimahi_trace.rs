//! A Mahimahi trace (`mm-link`), replayed with its rules exactly (ravinet/mahimahi
//! `src/frontend/link_queue.cc`, read at ae477d4; docs/mechanisms/capacity-trace.md):
//!
//! - each line is a delivery opportunity for `PACKET_SIZE` = 1504 bytes
//!   (`link_queue.hh`) at an integer millisecond from the trace's start; a repeated
//!   timestamp is several opportunities (`LinkQueue::LinkQueue` reads one per line);
//! - bytes are accounted across packets (`rationalize`: a packet in transit takes
//!   `min(bytes_left, its bytes left)` of each opportunity, and departs at the
//!   opportunity that takes its last byte; the next packet in the queue takes what is
//!   left of the same opportunity); what no queued packet takes is wasted;
//! - `read_packet` calls `rationalize(now)` before it enqueues, so a packet that
//!   arrives at time a uses only opportunities strictly after a (`first_service`);
//! - at the end of the trace its base advances by the last timestamp
//!   (`use_a_delivery_opportunity`), unless it is played once (`finished`: no capacity
//!   after its end).
//!
//! Opportunities at one millisecond are one pool of bytes: within `rationalize(t)` no
//! packet joins the queue, so a packet crossing from one to the next at the same t is
//! the same as one opportunity of their sum. The trace is kept as run-length pairs
//! (millisecond, count): memory grows with its distinct milliseconds, not with its
//! opportunities (a 1.9 Gbit/s trace has about 158 per millisecond).

use super::parsed::Parsed;
use super::{AnyCapacity, Capacity, CapacitySpec};
use crate::data_file::DataFile;
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Bytes one opportunity carries (`PACKET_SIZE` in `link_queue.hh`: 1500 + 4).
pub const OPPORTUNITY_BYTES: u64 = 1504;
const OPPORTUNITY_BITS: u64 = OPPORTUNITY_BYTES * 8;
const NS_PER_MS: u64 = 1_000_000;

/// `kind = "mahimahi"`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MahimahiTraceConfig {
    /// The trace: one delivery opportunity per line, an integer millisecond from the
    /// trace's start, never decreasing (Mahimahi's `traces/` format).
    pub file: DataFile,
    /// Play the trace once: no capacity after its last opportunity (a packet that
    /// cannot finish by then never leaves). By default it wraps, its clock advancing by
    /// its last timestamp each time round (mm-link's default).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub once: bool,
    #[serde(skip)]
    #[schemars(skip)]
    parsed: Parsed<Opportunities>,
}

impl MahimahiTraceConfig {
    pub fn new(file: DataFile, once: bool) -> Self {
        MahimahiTraceConfig { file, once, parsed: Parsed::default() }
    }

    fn opportunities(&self) -> Result<Arc<Opportunities>, String> {
        self.parsed.get(|| Opportunities::read(&self.file))
    }
}

impl CapacitySpec for MahimahiTraceConfig {
    fn validate(&self) -> Result<(), String> {
        self.opportunities().map(drop)
    }
    fn build(&self) -> AnyCapacity {
        MahimahiTrace::new(self.opportunities().expect("validated"), self.once).into()
    }
}

/// A trace's opportunities: (millisecond, opportunities at it), milliseconds rising.
#[derive(Clone, Debug, PartialEq)]
pub struct Opportunities {
    runs: Vec<(u32, u32)>,
    /// The last timestamp (> 0): what the base advances by at each wrap.
    period_ms: u64,
    /// Lines in all.
    total: u64,
}

impl Opportunities {
    /// From the lines of a trace (blank lines and `#` comments left out, `DataFile`).
    pub fn read(file: &DataFile) -> Result<Self, String> {
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for (n, line) in file.entries()? {
            let ms: u32 = line.parse().map_err(|_| {
                file.bad_line(n, format!("{line:?} is not a delivery opportunity; give a whole number of milliseconds from the trace's start (0 to {}), one per line", u32::MAX))
            })?;
            match runs.last_mut() {
                Some((last, count)) if *last == ms => *count += 1,
                Some((last, _)) if *last > ms => {
                    return Err(file.bad_line(n, format!("{ms} ms comes after {last} ms; timestamps must never decrease (Mahimahi's rule)")));
                }
                _ => runs.push((ms, 1)),
            }
        }
        Opportunities::from_runs(runs).map_err(|m| format!("file: {}: {m}", file.path()))
    }

    /// From (millisecond, count) pairs, milliseconds rising.
    pub fn from_runs(runs: Vec<(u32, u32)>) -> Result<Self, String> {
        let Some(&(last, _)) = runs.last() else {
            return Err("no delivery opportunities; give one whole number of milliseconds per line".into());
        };
        if last == 0 {
            // `LinkQueue::LinkQueue`: "trace must last for a nonzero amount of time".
            return Err("every opportunity is at 0 ms: a trace must last a nonzero time (mm-link refuses it too)".into());
        }
        let total = runs.iter().map(|&(_, c)| c as u64).sum();
        Ok(Opportunities { runs, period_ms: last as u64, total })
    }

    /// The mean capacity: 1504 bytes per line over the trace's duration.
    pub fn mean_bps(&self) -> u64 {
        ((self.total as u128 * OPPORTUNITY_BITS as u128 * 1000) / self.period_ms as u128).max(1) as u64
    }

    /// Bytes held (the runs): for the memory bound of a long trace.
    pub fn bytes(&self) -> usize {
        self.runs.capacity() * std::mem::size_of::<(u32, u32)>()
    }
}

/// Where the next byte comes from: the run of lap `lap` (base = lap × period) and the
/// bits of it already taken (less than the run holds: a full run is left at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Position {
    lap: u64,
    run: usize,
    used: u64,
}

/// The runtime trace: the shared opportunities and how far the direction has used them.
#[derive(Clone, Debug, PartialEq)]
pub struct MahimahiTrace {
    trace: Arc<Opportunities>,
    once: bool,
    /// `None` once a trace played once has run out (`finished` in `link_queue.cc`).
    at: Option<Position>,
}

impl MahimahiTrace {
    pub fn new(trace: Arc<Opportunities>, once: bool) -> Self {
        MahimahiTrace { trace, once, at: Some(Position { lap: 0, run: 0, used: 0 }) }
    }

    fn time_ms(&self, p: Position) -> u64 {
        p.lap * self.trace.period_ms + self.trace.runs[p.run].0 as u64
    }

    fn run_bits(&self, run: usize) -> u64 {
        self.trace.runs[run].1 as u64 * OPPORTUNITY_BITS
    }

    /// The run after `p`'s: the next lap's first at the end of the trace, or none when
    /// it is played once (`use_a_delivery_opportunity`).
    fn next(&self, p: Position) -> Option<Position> {
        if p.run + 1 < self.trace.runs.len() {
            Some(Position { run: p.run + 1, used: 0, ..p })
        } else if self.once {
            None
        } else {
            Some(Position { lap: p.lap + 1, run: 0, used: 0 })
        }
    }

    /// The first position, from the current one on, whose opportunity is at or after
    /// `t`: the opportunities before `t` no packet took are wasted. Binary search within
    /// a lap, so a long idle time costs no walk through the trace.
    fn seek(&self, t: SimTime) -> Option<Position> {
        let cur = self.at?;
        if self.time_ms(cur).saturating_mul(NS_PER_MS) >= t.0 {
            return Some(cur);
        }
        let target_ms = t.0.div_ceil(NS_PER_MS);
        let runs = &self.trace.runs;
        let period = self.trace.period_ms;
        // Lap c ends at (c + 1) × period; the target lies in lap target/period - 1 at
        // the earliest.
        let mut lap = cur.lap.max((target_ms / period).saturating_sub(1));
        loop {
            if self.once && lap > 0 {
                return None;
            }
            let from = if lap == cur.lap { cur.run + 1 } else { 0 };
            let base = lap * period;
            let run = from + runs[from..].partition_point(|&(ms, _)| base + (ms as u64) < target_ms);
            if run < runs.len() {
                return Some(Position { lap, run, used: 0 });
            }
            lap += 1;
        }
    }
}

impl Capacity for MahimahiTrace {
    /// The frame takes bytes from its first opportunity at or after `start` on, across
    /// as many as it needs; it leaves at the one that takes its last byte.
    fn frame_end(&mut self, start: SimTime, bits: u64) -> SimTime {
        let Some(mut p) = self.seek(start) else {
            self.at = None;
            return SimTime::MAX;
        };
        let mut left = bits;
        loop {
            let free = self.run_bits(p.run) - p.used;
            if left < free {
                p.used += left;
                self.at = Some(p);
                return SimTime(self.time_ms(p) * NS_PER_MS);
            }
            left -= free;
            let end = SimTime(self.time_ms(p) * NS_PER_MS);
            // The run is used up: the next byte comes from the next one.
            self.at = self.next(p);
            if left == 0 {
                return end;
            }
            match self.at {
                Some(n) => p = n,
                None => return SimTime::MAX,
            }
        }
    }

    fn nominal_rate_bps(&self) -> u64 {
        self.trace.mean_bps()
    }

    /// Its first opportunity after the packet's arrival (`read_packet`: `rationalize`
    /// before the enqueue) and not before `now`, with bytes left.
    fn first_service(&self, now: SimTime, arrived: SimTime) -> SimTime {
        let earliest = SimTime(now.0.max(arrived.0 + 1));
        match self.seek(earliest) {
            Some(p) => SimTime(self.time_ms(p) * NS_PER_MS),
            None => SimTime::MAX,
        }
    }
}

#[cfg(test)]
#[path = "mahimahi_trace_tests.rs"]
mod tests;
