//! Recorders for the time series a scenario switches on. Nothing is recorded, and
//! nothing allocated, for a trace that is off.

use crate::result::{Column, Trace};
use crate::time::SimTime;
use crate::units::Duration;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Time series recorded during the run (off by default: they cost memory).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct TraceConfig {
    /// cwnd and ssthresh of every TCP sender at each change.
    pub cwnd: bool,
    /// Sequence numbers sent and cumulative ACKs received by every TCP sender.
    pub seq: bool,
    /// Goodput of every flow per interval.
    pub throughput: bool,
    /// Interval of the throughput trace.
    pub throughput_interval: Duration,
    /// The one-way delay of every data packet a flow delivers, at its arrival.
    pub owd: bool,
    /// The queueing delay (sojourn) of every packet a point-to-point link direction or
    /// a WLAN station starts to send, at its dequeue (a WLAN's on its pair's row).
    pub sojourn: bool,
    /// The pacing rate every TCP sender's congestion control asks for, at each change
    /// (senders whose control does not pace have no rows).
    pub pacing: bool,
}

impl Default for TraceConfig {
    fn default() -> Self {
        TraceConfig {
            cwnd: false,
            seq: false,
            throughput: false,
            throughput_interval: Duration::from_millis(100),
            owd: false,
            sojourn: false,
            pacing: false,
        }
    }
}

impl TraceConfig {
    pub const NAMES: [&'static str; 6] = ["cwnd", "seq", "throughput", "owd", "sojourn", "pacing"];

    /// Whether a trace fed by endpoints' events (`TraceEvent`) is on: the endpoints
    /// then report them.
    pub fn wants_events(&self) -> bool {
        self.cwnd || self.seq || self.pacing
    }
}

#[derive(Default)]
struct CwndTrace {
    time: Vec<f64>,
    flow: Vec<u32>,
    cwnd: Vec<f64>,
    ssthresh: Vec<f64>,
    /// Last recorded (cwnd, ssthresh) per flow, to record changes only.
    last: Vec<Option<(u64, Option<u64>)>>,
}

#[derive(Default)]
struct PacingTrace {
    time: Vec<f64>,
    flow: Vec<u32>,
    bps: Vec<f64>,
    /// Last recorded rate per flow (bytes/s), to record changes only.
    last: Vec<Option<f64>>,
}

#[derive(Default)]
struct SeqTrace {
    time: Vec<f64>,
    flow: Vec<u32>,
    /// 0 = segment sent, 1 = retransmission sent, 2 = cumulative ACK received.
    event: Vec<u8>,
    seq: Vec<f64>,
}

#[derive(Default)]
struct ThroughputTrace {
    time: Vec<f64>,
    flow: Vec<u32>,
    bps: Vec<f64>,
}

/// A per-packet delay series: when, whose (a flow, or a link direction's row), how long.
#[derive(Default)]
struct DelayTrace {
    time: Vec<f64>,
    who: Vec<u32>,
    delay: Vec<f64>,
}

impl DelayTrace {
    fn push(&mut self, now_ns: u64, who: u32, delay_ns: u64) {
        self.time.push(now_ns as f64 * 1e-9);
        self.who.push(who);
        self.delay.push(delay_ns as f64 * 1e-6);
    }

    fn finish(self, name: &'static str, who: &'static str) -> Trace {
        Trace {
            name,
            columns: vec![("time_s", Column::F64(self.time)), (who, Column::U32(self.who)), ("delay_ms", Column::F64(self.delay))],
        }
    }
}

pub const SEQ_SENT: u8 = 0;
pub const SEQ_RESENT: u8 = 1;
pub const SEQ_ACKED: u8 = 2;

/// What the codes of coded trace columns mean: (trace, column, name of code 0, 1, ...),
/// so that trace files can write names.
pub const LEGEND: &[(&str, &str, &[&str])] = &[("seq", "event", &["sent", "resent", "acked"])];

#[derive(Default)]
pub struct TraceRecorder {
    cwnd: Option<CwndTrace>,
    seq: Option<SeqTrace>,
    throughput: Option<ThroughputTrace>,
    owd: Option<DelayTrace>,
    sojourn: Option<DelayTrace>,
    pacing: Option<PacingTrace>,
}

impl TraceRecorder {
    pub fn new(cfg: &TraceConfig) -> Self {
        TraceRecorder {
            cwnd: cfg.cwnd.then(CwndTrace::default),
            seq: cfg.seq.then(SeqTrace::default),
            throughput: cfg.throughput.then(ThroughputTrace::default),
            owd: cfg.owd.then(DelayTrace::default),
            sojourn: cfg.sojourn.then(DelayTrace::default),
            pacing: cfg.pacing.then(PacingTrace::default),
        }
    }

    /// Whether a trace fed by endpoints' events (cwnd, seq, pacing) is on.
    pub fn wants_events(&self) -> bool {
        self.cwnd.is_some() || self.seq.is_some() || self.pacing.is_some()
    }

    pub fn wants_throughput(&self) -> bool {
        self.throughput.is_some()
    }

    pub fn cwnd(&mut self, now: SimTime, flow: u32, cwnd: u64, ssthresh: Option<u64>) {
        if let Some(t) = &mut self.cwnd {
            let f = flow as usize;
            if t.last.len() <= f {
                t.last.resize(f + 1, None);
            }
            if t.last[f] == Some((cwnd, ssthresh)) {
                return;
            }
            t.last[f] = Some((cwnd, ssthresh));
            t.time.push(now.as_secs_f64());
            t.flow.push(flow);
            t.cwnd.push(cwnd as f64);
            // Before the first loss the sender has no threshold: NaN, not 9.22e18.
            t.ssthresh.push(ssthresh.map_or(f64::NAN, |s| s as f64));
        }
    }

    /// The pacing rate (bytes/s) `flow`'s sender was asked for at `now`: a row when it
    /// differs from the flow's last one. Written in bit/s.
    pub fn pacing(&mut self, now: SimTime, flow: u32, bytes_per_s: f64) {
        if let Some(t) = &mut self.pacing {
            let f = flow as usize;
            if t.last.len() <= f {
                t.last.resize(f + 1, None);
            }
            if t.last[f] == Some(bytes_per_s) {
                return;
            }
            t.last[f] = Some(bytes_per_s);
            t.time.push(now.as_secs_f64());
            t.flow.push(flow);
            t.bps.push(bytes_per_s * 8.0);
        }
    }

    pub fn seq(&mut self, now: SimTime, flow: u32, event: u8, seq: u64) {
        if let Some(t) = &mut self.seq {
            t.time.push(now.as_secs_f64());
            t.flow.push(flow);
            t.event.push(event);
            t.seq.push(seq as f64);
        }
    }

    pub fn throughput(&mut self, now: SimTime, flow: u32, bps: f64) {
        if let Some(t) = &mut self.throughput {
            t.time.push(now.as_secs_f64());
            t.flow.push(flow);
            t.bps.push(bps);
        }
    }

    /// Whether the sojourn trace is on (the link directions then keep their samples).
    pub fn wants_sojourn(&self) -> bool {
        self.sojourn.is_some()
    }

    /// A data packet of `flow` delivered at `now` after `delay_ns` on the way.
    #[inline]
    pub fn owd(&mut self, now: SimTime, flow: u32, delay_ns: u64) {
        if let Some(t) = &mut self.owd {
            t.push(now.0, flow, delay_ns);
        }
    }

    /// The sojourns link direction `link` (its row's index in the result) kept: pairs of
    /// (dequeue time, sojourn) in nanoseconds, in time order.
    pub fn sojourns(&mut self, link: u32, samples: &[(u64, u64)]) {
        if let Some(t) = &mut self.sojourn {
            samples.iter().for_each(|&(at, d)| t.push(at, link, d));
        }
    }

    pub fn finish(self) -> Vec<Trace> {
        let mut out = Vec::new();
        if let Some(t) = self.cwnd {
            out.push(Trace {
                name: "cwnd",
                columns: vec![
                    ("time_s", Column::F64(t.time)),
                    ("flow", Column::U32(t.flow)),
                    ("cwnd_bytes", Column::F64(t.cwnd)),
                    ("ssthresh_bytes", Column::F64(t.ssthresh)),
                ],
            });
        }
        if let Some(t) = self.seq {
            out.push(Trace {
                name: "seq",
                columns: vec![
                    ("time_s", Column::F64(t.time)),
                    ("flow", Column::U32(t.flow)),
                    ("event", Column::U8(t.event)),
                    ("seq", Column::F64(t.seq)),
                ],
            });
        }
        if let Some(t) = self.throughput {
            out.push(Trace {
                name: "throughput",
                columns: vec![("time_s", Column::F64(t.time)), ("flow", Column::U32(t.flow)), ("bps", Column::F64(t.bps))],
            });
        }
        if let Some(t) = self.owd {
            out.push(t.finish("owd", "flow"));
        }
        if let Some(t) = self.sojourn {
            out.push(t.finish("sojourn", "link"));
        }
        if let Some(t) = self.pacing {
            out.push(Trace {
                name: "pacing",
                columns: vec![("time_s", Column::F64(t.time)), ("flow", Column::U32(t.flow)), ("pacing_bps", Column::F64(t.bps))],
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_names_every_seq_event_code() {
        let (_, _, names) = LEGEND.iter().find(|(t, c, _)| (*t, *c) == ("seq", "event")).unwrap();
        assert_eq!(names[SEQ_SENT as usize], "sent");
        assert_eq!(names[SEQ_RESENT as usize], "resent");
        assert_eq!(names[SEQ_ACKED as usize], "acked");
    }

    #[test]
    fn an_unset_ssthresh_is_nan_in_the_cwnd_trace() {
        let cfg = TraceConfig { cwnd: true, ..Default::default() };
        let mut r = TraceRecorder::new(&cfg);
        r.cwnd(SimTime::ZERO, 0, 4000, None);
        r.cwnd(SimTime::ZERO, 0, 2000, Some(2000));
        let t = r.finish();
        let Column::F64(ss) = &t[0].columns[3].1 else { panic!() };
        assert!(ss[0].is_nan());
        assert_eq!(ss[1], 2000.0);
    }

    #[test]
    fn the_pacing_trace_records_changes_per_flow_in_bits_per_second() {
        let cfg = TraceConfig { pacing: true, ..Default::default() };
        let mut r = TraceRecorder::new(&cfg);
        let at = |ms| SimTime::ZERO + crate::time::SimDuration::from_millis(ms);
        r.pacing(at(0), 0, 1000.0);
        r.pacing(at(1), 0, 1000.0); // unchanged: no row
        r.pacing(at(2), 1, 1000.0); // another flow's first
        r.pacing(at(3), 0, 1250.0);
        let t = r.finish();
        assert_eq!(t[0].name, "pacing");
        let (Column::F64(time), Column::U32(flow), Column::F64(bps)) = (&t[0].columns[0].1, &t[0].columns[1].1, &t[0].columns[2].1) else { panic!() };
        assert_eq!(time, &[0.0, 0.002, 0.003]);
        assert_eq!(flow, &[0, 1, 0]);
        assert_eq!(bps, &[8000.0, 8000.0, 10000.0]);
    }
}
