//! Recorders for the time series a scenario switches on. Nothing is recorded, and
//! nothing allocated, for a trace that is off.

use crate::result::{Column, Trace};
use crate::scenario::TraceConfig;
use crate::time::SimTime;

#[derive(Default)]
struct CwndTrace {
    time: Vec<f64>,
    flow: Vec<u32>,
    cwnd: Vec<f64>,
    ssthresh: Vec<f64>,
    /// Last recorded (cwnd, ssthresh) per flow, to record changes only.
    last: Vec<Option<(u64, u64)>>,
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

pub const SEQ_SENT: u8 = 0;
pub const SEQ_RESENT: u8 = 1;
pub const SEQ_ACKED: u8 = 2;

#[derive(Default)]
pub struct TraceRecorder {
    cwnd: Option<CwndTrace>,
    seq: Option<SeqTrace>,
    throughput: Option<ThroughputTrace>,
}

impl TraceRecorder {
    pub fn new(cfg: &TraceConfig) -> Self {
        TraceRecorder {
            cwnd: cfg.cwnd.then(CwndTrace::default),
            seq: cfg.seq.then(SeqTrace::default),
            throughput: cfg.throughput.then(ThroughputTrace::default),
        }
    }

    /// Whether a trace fed by endpoints' events (cwnd, seq) is on.
    pub fn wants_events(&self) -> bool {
        self.cwnd.is_some() || self.seq.is_some()
    }

    pub fn wants_throughput(&self) -> bool {
        self.throughput.is_some()
    }

    pub fn cwnd(&mut self, now: SimTime, flow: u32, cwnd: u64, ssthresh: u64) {
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
            t.ssthresh.push(ssthresh as f64);
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
        out
    }
}
