//! Congestion control: how the window grows and how it answers each signal. Separate
//! from loss recovery (ns-3's TcpCongestionOps / TcpRecoveryOps split), so any window
//! rule combines with any recovery.
//!
//! The family: the [`CongestionControl`] trait, one file per scheme named after it
//! ([`aimd`]: RFC 5681's rules, [`byte_counting`]: RFC 3465), and the closed list
//! [`AnyCongestionControl`] the sender holds. The scenario picks one with `tcp.cc`
//! ([`CcChoice`]: a name or a table), whose closed list [`CongestionControlConfig`] has
//! one table per scheme implementing [`CcSpec`] in the scheme's file (`reno.rs` builds
//! [`Aimd`] or [`ByteCounting`] by `tcp.abc`). A new control is its file (the rule and
//! its table) and one line in the `family!` list below, which makes its variants of
//! [`AnyCongestionControl`] and [`CongestionControlConfig`].

pub mod abc;
pub mod choice;
// Parts a rule may use that are not schemes of the family: the slow starts (CUBIC's
// today) and the per-ACK RTT from a rule's own send history (Vegas's).
pub mod ack_rtt;
pub mod hystart;
pub mod hystart_pp;
pub mod slow_start;

pub use choice::CcChoice;

pub use abc::Abc;
use super::rate_sample::RateSample;
use super::state::{SenderState, Signal};
use crate::closed::family;
use crate::time::{SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub trait CongestionControl {
    /// At `now`, an ACK of `acked` new bytes outside recovery; `rtt` is the round trip
    /// it measured, if it acknowledged the timed segment (Karn: never a resent one). As
    /// smoltcp's `on_ack(now, len, rtt)` and ns-3's `PktsAcked(tcb, segments, rtt)`, so
    /// a rule that grows by time or by delay needs no other input.
    fn on_ack(&mut self, st: &mut SenderState, now: SimTime, acked: u64, rtt: Option<SimDuration>);
    /// One of the four signals reached the window (`Signal`). Sets ssthresh if it is
    /// congestion; returns the window it calls for: recovery holds it once it ends (a
    /// loss), the sender takes it at once where no recovery follows (ECN, EWLN).
    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64;
    /// The retransmission timer expired; `repeated` if it already expired for this segment.
    fn on_timeout(&mut self, st: &mut SenderState, repeated: bool);
    /// The pacing seam: the rate in bytes per second at which this control asks the
    /// sender to space its segments, from the state and the smoothed RTT; `None` (the
    /// default, every window rule here) sends as the window allows, clocked by ACKs.
    /// Asked at every segment the sender decides: it leaves no earlier than the previous
    /// departure + its length / rate (`tcp/pacing.rs`).
    fn pacing_rate(&self, _st: &SenderState, _srtt: Option<SimDuration>) -> Option<f64> {
        None
    }
    /// Every ACK that acknowledged or SACKed new data, in recovery or not, with its
    /// delivery-rate sample (`tcp/rate_sample.rs`); after `on_ack`/the recovery's own
    /// handling of the same ACK. Window rules ignore it (the default); a model-based
    /// control (BBR) sets its window and pacing rate here.
    fn on_rate_sample(&mut self, _st: &mut SenderState, _now: SimTime, _rs: &RateSample) {}
    /// Whether `on_rate_sample` reads its samples. The sender stamps every segment and
    /// builds a sample per ACK (`tcp/delivery_rate.rs`) only for a control that says so:
    /// a window rule (the default) would pay that on every packet for nothing (issue 29's
    /// speed: +6 % of Reno's cost per delivered packet). Asked per packet: a constant.
    fn reads_rate_samples(&self) -> bool {
        false
    }
    /// A segment [seq, seq + len) leaves at `now`, `retransmission` if it was sent
    /// before. Window rules ignore it (the default); a delay-based rule that needs an RTT
    /// on every ACK, as Linux's `pkts_acked` hook gives one, keeps its own send times
    /// (`vegas.rs`, through `ack_rtt.rs`).
    fn on_send(&mut self, _now: SimTime, _seq: u64, _len: u64, _retransmission: bool) {}
}

/// What a congestion control's table may read from the rest of `tcp` when it builds.
#[derive(Clone, Copy, Debug)]
pub struct CcContext {
    /// SMSS in bytes (`tcp.mss`).
    pub mss: u64,
    /// The initial window in bytes (RFC 5681 §3.1, or `tcp.initial_window`).
    pub initial_window: u64,
    /// `tcp.abc`, read by the rules that count bytes acked (`reno`).
    pub abc: Abc,
    /// The seed of the flow's own random stream for its congestion control (BBR's
    /// gain-cycle phase), from (seed, replication, flow name) as every stream here.
    pub seed: u64,
    /// Whether the sender reads SACK blocks (`tcp.variant` with SACK): BBRv3's
    /// C.has_selective_acks, since without SACK one loss a round is all it can see.
    pub selective_acks: bool,
    /// Whether the sender paces a control that asks for no rate (`tcp.pacing = "linux"`):
    /// Linux's `sk_pacing_status` is then not SK_PACING_NONE (fq sets SK_PACING_FQ,
    /// net/sched/sch_fq.c `fq_classify`), which CUBIC's HyStart reads (`hystart.rs`).
    pub paced: bool,
}

/// What every congestion control's table does; [`CongestionControlConfig`] delegates
/// to it, so a new control implements it in its own file and adds its line to the list.
pub trait CcSpec {
    /// Checks the fields; the message starts with the field's name (relative to `tcp.cc`).
    fn validate(&self) -> Result<(), String>;
    /// The sender's window rule.
    fn build(&self, ctx: &CcContext) -> AnyCongestionControl;
    /// Whether it reads `tcp.abc` (a rule that does not refuses an `abc` it would ignore).
    fn uses_abc(&self) -> bool {
        false
    }
}

// One line per congestion control (`closed::family!`): its module, its window rule
// (none for a table that builds others', as `reno` builds `Aimd` or `ByteCounting`) and
// its table (none for a rule only another's table builds). The doc comments are the
// schema's descriptions of the tables (`lossy schema`).
family! {
    runtime {
        /// The window rules a sender can hold (a closed enum: dispatch without boxing).
        #[derive(Clone, Debug)]
        pub enum AnyCongestionControl via each_congestion_control;
        impl CongestionControl {
            fn on_ack(&mut self, st: &mut SenderState, now: SimTime, acked: u64, rtt: Option<SimDuration>);
            fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64;
            fn on_timeout(&mut self, st: &mut SenderState, repeated: bool);
            fn pacing_rate(&self, st: &SenderState, srtt: Option<SimDuration>) -> Option<f64>;
            fn on_rate_sample(&mut self, st: &mut SenderState, now: SimTime, rs: &RateSample);
            fn reads_rate_samples(&self) -> bool;
            fn on_send(&mut self, now: SimTime, seq: u64, len: u64, retransmission: bool);
        }
    }
    config {
        /// A congestion control chosen by `kind`.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
        pub enum CongestionControlConfig via each_cc_config;
        impl CcSpec {
            fn validate(&self) -> Result<(), String>;
            fn build(&self, ctx: &CcContext) -> AnyCongestionControl;
            fn uses_abc(&self) -> bool;
        }
    }
    schemes {
        aimd::Aimd(Aimd),
        byte_counting::ByteCounting(ByteCounting),
        /// RFC 5681's window rule (Linux's `reno`, ns-3's `TcpNewReno`), with RFC 3465
        /// byte counting when `tcp.abc` is set. The default.
        reno::Reno(_, RenoConfig),
        /// BBR version 1 (Cardwell et al. 2016, draft-cardwell-iccrg-bbr-congestion-control-00,
        /// Linux's `bbr`, ns-3's `TcpBbr`): paced at gain·BtlBw, window gain·BDP. Boxed:
        /// its model (~250 B) would pad every sender's window rule to its size.
        bbr::Bbr(Box<Bbr>, BbrConfig),
        /// BBR version 3 (draft-ietf-ccwg-bbr-06): BBRv1's model with long- and
        /// short-term bounds from loss (2 % per round while probing, β = 0.7 otherwise),
        /// ProbeBW's DOWN/CRUISE/REFILL/UP cycle and ProbeRTT every 5 s. Boxed, as BBR.
        bbr3::Bbr3(Box<Bbr3>, Bbr3Config),
        /// CUBIC, RFC 9438 (Linux's default `cubic`, ns-3's `TcpCubic`), with HyStart
        /// (Linux's), HyStart++ (RFC 9406) or standard slow start. Boxed, as BBR.
        cubic::Cubic(Box<Cubic>, CubicConfig),
        /// TCP Vegas (Brakmo & Peterson, IEEE JSAC 1995) as ns-3's `TcpVegas` and Linux's
        /// `vegas` run it: once per RTT, the window grows, shrinks or holds by one segment
        /// to keep between `alpha` and `beta` segments queued; loss and timeout as `reno`.
        vegas::Vegas(Box<Vegas>, VegasConfig),
        /// TCP Westwood+ (Grieco & Mascolo, CCR 2004) as ns-3's `TcpWestwoodPlus` and
        /// Linux's `westwood` run it: Reno's growth, and after a loss ssthresh (and cwnd)
        /// from the bandwidth estimate times the minimum RTT instead of a halving.
        westwood::Westwood(Box<Westwood>, WestwoodConfig),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value `tcp.abc` accepts.
    const ABC: [Abc; 3] = [Abc::Off, Abc::Limit(1), Abc::Limit(2)];

    fn variant_name(cc: &AnyCongestionControl) -> String {
        format!("{cc:?}").split('(').next().unwrap_or_default().to_string()
    }

    /// Every kind of `tcp.cc` at its defaults, by name as a scenario writes it.
    fn every_config() -> Vec<CcChoice> {
        CcChoice::kinds().iter().map(|k| serde_json::from_value(serde_json::json!(k)).expect(k)).collect()
    }

    /// Each window rule in the list, built from a scenario's config: every kind with
    /// every `abc` its rule reads.
    fn every_control() -> Vec<(String, AnyCongestionControl)> {
        let mut out = Vec::new();
        for choice in every_config() {
            let abcs: &[Abc] = if choice.0.uses_abc() { &ABC } else { &ABC[..1] };
            for &abc in abcs {
                let cc = choice.0.build(&CcContext { mss: 1000, initial_window: 4000, abc, seed: 1, selective_acks: true, paced: false });
                out.push((variant_name(&cc), cc));
            }
        }
        out
    }

    #[test]
    fn every_kind_is_written_back_as_its_name_and_read_again() {
        for choice in every_config() {
            let text = serde_json::to_string(&choice).unwrap();
            assert_eq!(text, format!("\"{}\"", choice.kind()));
            assert_eq!(serde_json::from_str::<CcChoice>(&text).unwrap(), choice);
            let table: CcChoice = serde_json::from_value(serde_json::json!({ "kind": choice.kind() })).unwrap();
            assert_eq!(table, choice);
        }
    }

    #[test]
    fn an_unknown_kind_is_refused_listing_the_kinds() {
        let err = serde_json::from_value::<CcChoice>(serde_json::json!("cubik")).unwrap_err().to_string();
        assert!(err.contains("cubik") && err.contains("reno"), "{err}");
    }

    /// Ten segments in flight at cwnd 10 segments, in congestion avoidance.
    fn flight_of_ten() -> SenderState {
        let mut st = SenderState::new(1000, 10_000, 1 << 30, 3);
        st.ssthresh = 10_000;
        st.snd_max = 10_000;
        st
    }

    #[test]
    fn every_control_in_the_list_is_reachable_from_the_scenario() {
        let built: std::collections::BTreeSet<String> = every_control().into_iter().map(|(n, _)| n).collect();
        for name in AnyCongestionControl::VARIANTS {
            assert!(built.contains(*name), "no value of tcp.cc and tcp.abc builds {name}");
        }
    }

    #[test]
    fn every_control_answers_congestion_within_the_flight_and_keeps_the_window_on_a_wireless_loss() {
        for (name, mut cc) in every_control() {
            for signal in [Signal::Loss, Signal::Ecn] {
                let mut st = flight_of_ten();
                // RFC 5681 eq. 4 halves (aimd.rs's tests); a model-based rule (BBR) keeps
                // the flight and answers ECN as its model does: never more than the
                // window it had; a rule that cut ssthresh counts the reduction.
                let window = cc.on_congestion(&mut st, signal);
                assert!(window <= 10_000, "{name} {signal:?}: {window}");
                let cut = st.ssthresh < 10_000;
                assert_eq!(st.counters.window_reductions, cut as u64, "{name} {signal:?}");
            }
            for signal in [Signal::Eln, Signal::Ewln] {
                // Chen Fig. 1 lines 19-20, Shagdar Fig. 3: no window reduction.
                let mut st = flight_of_ten();
                assert_eq!(cc.on_congestion(&mut st, signal), 10_000, "{name} {signal:?}");
                assert_eq!((st.cwnd, st.ssthresh, st.counters.window_reductions), (10_000, 10_000, 0), "{name} {signal:?}");
            }
        }
    }

    #[test]
    fn every_control_grows_within_the_maximum_and_restarts_from_one_segment_after_a_timeout() {
        for (name, mut cc) in every_control() {
            let mut st = SenderState::new(1000, 4000, 4500, 3);
            for k in 1..=3 {
                st.snd_una = k * 1000;
                st.snd_max = st.snd_una + 3000;
                let before = st.cwnd;
                // As the sender calls them on an ACK of new data: the window rule, then
                // the rate sample (`TcpSender::on_cumulative_ack`).
                cc.on_ack(&mut st, SimTime(k), 1000, Some(SimDuration::from_millis(10)));
                let rs = RateSample { newly_acked: 1000, rtt: Some(SimDuration::from_millis(10)), ..RateSample::default() };
                cc.on_rate_sample(&mut st, SimTime(k), &rs);
                assert!(st.cwnd >= before && st.cwnd <= 4500, "{name}: {before} -> {}", st.cwnd);
            }
            assert_eq!(st.cwnd, 4500, "{name}: slow start reaches W_max");
            cc.on_timeout(&mut st, false);
            // RFC 5681 §3.1: the loss window is one SMSS.
            assert_eq!(st.cwnd, 1000, "{name}");
        }
    }

    #[test]
    fn a_control_that_reads_no_rate_samples_is_unchanged_by_one() {
        // The sender builds no samples for it (`reads_rate_samples`): one handed over must
        // change nothing, or skipping them would change its results. CUBIC with RFC
        // 5681's slow start besides the kinds' defaults.
        let standard: CcChoice = serde_json::from_value(serde_json::json!({ "kind": "cubic", "slow_start": "standard" })).unwrap();
        let ctx = CcContext { mss: 1000, initial_window: 4000, abc: Abc::Off, seed: 1, selective_acks: true, paced: false };
        let mut controls = every_control();
        controls.push(("Cubic standard".into(), standard.0.build(&ctx)));
        let mut readers = Vec::new();
        for (name, mut cc) in controls {
            if cc.reads_rate_samples() {
                readers.push(name);
                continue;
            }
            let mut st = flight_of_ten();
            let (cc_before, st_before) = (format!("{cc:?}"), format!("{st:?}"));
            let rs = RateSample { delivered: 5000, newly_acked: 1000, interval: SimDuration::from_millis(10), delivery_rate: 5e5, rtt: Some(SimDuration::from_millis(10)), ..RateSample::default() };
            cc.on_rate_sample(&mut st, SimTime(1), &rs);
            assert_eq!((format!("{cc:?}"), format!("{st:?}")), (cc_before, st_before), "{name}");
        }
        assert_eq!(readers, ["Bbr", "Bbr3", "Cubic"], "BBRv1, BBRv3, and CUBIC's default HyStart");
    }

    #[test]
    fn every_pacing_rate_asked_for_is_a_positive_rate() {
        for (name, cc) in every_control() {
            let st = flight_of_ten();
            let rate = cc.pacing_rate(&st, Some(SimDuration::from_millis(100)));
            assert!(rate.is_none_or(|r| r.is_finite() && r > 0.0), "{name}: {rate:?}");
        }
    }
}
