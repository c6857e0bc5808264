//! Every loss recovery a scenario can name, through the sender: the list comes from the
//! schema (`tcp.variant`'s values), so a new recovery cannot be left out.

use super::*;
use crate::packet::{Flags, Packet, SackBlock, SACK_BLOCKS};
use crate::tcp::{TcpConfig, TcpSender};
use crate::time::SimTime;
use crate::endpoint::Endpoint;
use crate::units::Bytes;

/// `tcp.variant`'s values, as the schema lists them.
fn every_config() -> Vec<LossRecoveryConfig> {
    let schema = serde_json::to_value(schemars::schema_for!(LossRecoveryConfig)).unwrap();
    let values = schema["oneOf"].as_array().expect("a list of values");
    values.iter().map(|v| serde_json::from_value(v["const"].clone()).unwrap()).collect()
}

fn variant_name(r: &AnyLossRecovery) -> String {
    format!("{r:?}").split('(').next().unwrap_or_default().to_string()
}

const K: u64 = 1000;

fn sender(variant: LossRecoveryConfig) -> TcpSender {
    let cfg = TcpConfig { variant, initial_window: Some(10), max_window: Bytes(1 << 20), ..Default::default() };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
    s.start(SimTime::ZERO);
    s
}

/// An ACK of segment 0 SACKing segments 1..=last (blocks a SACK receiver sends; the
/// duplicate-ACK recoveries do not read them), ELN-marked or not.
fn duplicate(last: u64, eln: bool) -> Packet {
    let mut b = [SackBlock::default(); SACK_BLOCKS];
    b[0] = SackBlock { start: K as u32, end: ((last + 1) * K) as u32 };
    let mut p = Packet::tcp_ack(0, 1, 0, 0, 1 << 20, 40).with_sack(b);
    if eln {
        p.flags.set(Flags::ELN);
    }
    p
}

/// (segment number, retransmission?) of everything the sender may send now.
fn drain(s: &mut TcpSender, now: SimTime) -> Vec<(u64, bool)> {
    std::iter::from_fn(|| s.poll_transmit(now)).map(|p| (p.tcp_data_header().unwrap().seq / K, p.flags.has(Flags::RETX))).collect()
}

/// Ten segments out, segment 0 lost, the ACKs of segments 1-3 back.
fn after_three_duplicates(variant: LossRecoveryConfig, eln: bool) -> (TcpSender, Vec<(u64, bool)>) {
    let mut s = sender(variant);
    assert_eq!(drain(&mut s, SimTime::ZERO).len(), 10);
    let mut out = vec![];
    for k in 1..=3 {
        s.handle_ack(SimTime(k), &duplicate(k, eln));
        out.extend(drain(&mut s, SimTime(k)));
    }
    (s, out)
}

#[test]
fn every_recovery_in_the_list_is_a_value_of_tcp_variant() {
    let configs = every_config();
    assert!(configs.len() >= AnyLossRecovery::VARIANTS.len(), "{configs:?}");
    let built: std::collections::BTreeSet<String> = configs.iter().map(|c| variant_name(&c.build(&RecoveryContext { mss: K, dupack_threshold: 3, sack_after_timeout: SackAfterTimeout::Clear }))).collect();
    for name in AnyLossRecovery::VARIANTS {
        assert!(built.contains(*name), "no value of tcp.variant builds {name}");
    }
    for c in configs {
        assert_eq!(serde_json::to_value(c).unwrap(), c.name(), "{c:?}");
        assert_eq!(TcpConfig { variant: c, ..Default::default() }.sack_on(), c.uses_sack());
    }
}

#[test]
fn every_recovery_resends_the_lost_segment_first_and_halves_once() {
    for variant in every_config() {
        let (s, out) = after_three_duplicates(variant, false);
        // RFC 5681 §3.2 / RFC 6675 §5: the first retransmission is HighACK's segment.
        assert_eq!(out.iter().find(|(_, retx)| *retx), Some(&(0, true)), "{variant:?}: {out:?}");
        // eq. 4 on the 10 segments, limited transmit's left out (§3.2 step 2).
        assert_eq!((s.st.ssthresh, s.st.counters.fast_recoveries, s.st.counters.window_reductions), (5 * K, 1, 1), "{variant:?}");
        assert_eq!(s.check_recovery(), Ok(()), "{variant:?}");
    }
}

#[test]
fn every_recovery_answers_an_eln_with_a_resend_and_no_reduction() {
    for variant in every_config() {
        let (s, out) = after_three_duplicates(variant, true);
        assert!(out.contains(&(0, true)), "{variant:?}: {out:?}");
        assert_eq!((s.st.counters.eln_recoveries, s.st.counters.window_reductions), (1, 0), "{variant:?}");
        assert_eq!(s.st.counters.retransmits_eln, 1, "{variant:?}");
    }
}

#[test]
fn every_recovery_ends_at_a_timeout_which_goes_back_to_snd_una() {
    for variant in every_config() {
        let (mut s, _) = after_three_duplicates(variant, false);
        let at = s.timer().expect("timer running");
        s.handle_timeout(at);
        assert!(!s.st.in_recovery, "{variant:?}");
        assert_eq!(drain(&mut s, at), vec![(0, true)], "{variant:?}: one segment, the loss window");
        assert_eq!(s.st.counters.retransmits_timeout, 1, "{variant:?}");
    }
}
