//! A delivery-rate sample, as draft-cheng-iccrg-delivery-rate-estimation-02 §3 defines
//! it: on each ACK, how much was delivered over what interval, taken from the delivery
//! state stamped on the most recently sent of the segments it acknowledged. The sender
//! makes one per ACK that acknowledges or SACKs new data and hands it to its congestion
//! control (`CongestionControl::on_rate_sample`); rate-based controls (BBR) build their
//! model from it, window rules ignore it.

use crate::time::SimDuration;

/// One ACK's delivery-rate sample (the draft's `rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RateSample {
    /// Bytes delivered over `interval` (`rs.delivered`), newly acknowledged or SACKed
    /// data since the sampled segment was sent.
    pub delivered: u64,
    /// `C.delivered` when the sampled segment was sent (`rs.prior_delivered`).
    pub prior_delivered: u64,
    /// The longer of the send and the ACK intervals (§3.3, `rs.interval`); zero when no
    /// segment was sampled.
    pub interval: SimDuration,
    /// `delivered / interval` in bytes per second (`rs.delivery_rate`); 0 without a
    /// valid interval.
    pub delivery_rate: f64,
    /// Whether the sampled segment was sent while the application had nothing more to
    /// send (§3.4, `rs.is_app_limited`): the rate is then a lower bound on the path's.
    pub is_app_limited: bool,
    /// The RTT of the most recently sent segment this ACK acknowledged, if it was not a
    /// retransmission (Karn); BBR's min_rtt filter reads it.
    pub rtt: Option<SimDuration>,
    /// Bytes newly acknowledged or SACKed by this ACK.
    pub newly_acked: u64,
    /// Bytes newly marked lost by this ACK (the recovery's loss marking).
    pub newly_lost: u64,
    /// Bytes in flight when the sampled segment was sent (BBRv3's `tx_in_flight`).
    pub tx_in_flight: u64,
    /// Bytes lost between the sampled segment's send and this ACK (BBRv3's `rs.lost`).
    pub lost: u64,
    /// Bytes in the network before this ACK (Linux `rs->prior_in_flight`, taken by
    /// tcp_ack as `tcp_packets_in_flight`): sent, neither SACKed nor marked lost, or
    /// resent since.
    pub prior_in_flight: u64,
    /// The same once this ACK is processed (Linux BBR reads `tcp_packets_in_flight`).
    pub in_flight: u64,
}
