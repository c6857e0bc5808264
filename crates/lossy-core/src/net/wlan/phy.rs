//! 802.11b DSSS timing (IEEE 802.11-1999 §15.3.3 and 802.11b-1999 §18.3.3, Table 58/
//! Table 105 "DS PHY characteristics"): the slot, the interframe spaces and the air
//! time of every frame of a DCF exchange, in integer nanoseconds.
//!
//! - aSlotTime 20 µs, aSIFSTime 10 µs, DIFS = SIFS + 2·slot = 50 µs (§9.2.10).
//! - Long PLCP preamble (144 bits) and PLCP header (48 bits) at 1 Mbit/s: 192 µs before
//!   every frame, whatever its rate (§18.2.2.1).
//! - The MPDU (MAC header + body + FCS) at the frame's rate: data at `rate`, control
//!   frames (ACK 14 B, RTS 20 B, CTS 14 B, §7.2.1) at the basic rate, as ns-2's
//!   `Mac802_11::txtime` does (`basicRate_` for control frames, `dataRate_` for data).
//! - EIFS = SIFS + ACK air time + DIFS (§9.2.10: the ACK at the lowest rate, 1 Mbit/s;
//!   we use the basic rate, equal to it by default).

use crate::time::{serialization_delay, SimDuration};

/// The PLCP preamble and header of the long format, at 1 Mbit/s (§18.2.2.1).
pub const PLCP: SimDuration = SimDuration::from_micros(192);
pub const SLOT: SimDuration = SimDuration::from_micros(20);
pub const SIFS: SimDuration = SimDuration::from_micros(10);
pub const DIFS: SimDuration = SimDuration(SIFS.0 + 2 * SLOT.0);
/// ACK and CTS frames: frame control, duration, RA, FCS (§7.2.1.2–3).
pub const ACK_BYTES: u64 = 14;
pub const CTS_BYTES: u64 = 14;
/// RTS: frame control, duration, RA, TA, FCS (§7.2.1.1).
pub const RTS_BYTES: u64 = 20;

/// The air times of one WLAN's frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phy {
    /// Data frames' rate and the basic rate (control frames), bit/s.
    pub rate_bps: u64,
    pub basic_bps: u64,
    /// MAC header + FCS bytes added to each packet in a data frame.
    pub mac_header: u64,
    pub ack: SimDuration,
    pub cts: SimDuration,
    pub rts: SimDuration,
}

impl Phy {
    pub fn new(rate_bps: u64, basic_bps: u64, mac_header: u64) -> Self {
        let control = |bytes: u64| PLCP + serialization_delay(8 * bytes, basic_bps);
        Phy { rate_bps, basic_bps, mac_header, ack: control(ACK_BYTES), cts: control(CTS_BYTES), rts: control(RTS_BYTES) }
    }

    /// Bytes of the data frame (MPDU) carrying a packet of `size` bytes.
    #[inline]
    pub fn mpdu_bytes(&self, size: u16) -> u64 {
        self.mac_header + size as u64
    }

    /// Air time of the data frame carrying a packet of `size` bytes.
    #[inline]
    pub fn data(&self, size: u16) -> SimDuration {
        PLCP + serialization_delay(8 * self.mpdu_bytes(size), self.rate_bps)
    }

    /// After a failed frame: the medium must stay idle this long before backoffs count
    /// down again. Stations that heard the bad frame wait EIFS (§9.2.3.4); its sender
    /// waits for the ACK (or CTS) that does not come, then DIFS — the same span, since
    /// ACK and CTS have the same length.
    pub fn eifs(&self) -> SimDuration {
        SIFS + self.ack + DIFS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dsss_numbers() {
        assert_eq!(DIFS, SimDuration::from_micros(50));
        let p = Phy::new(2_000_000, 1_000_000, 28);
        // ACK: 192 µs + 112 bits at 1 Mbit/s; RTS 192 + 160.
        assert_eq!(p.ack, SimDuration::from_micros(304));
        assert_eq!(p.cts, SimDuration::from_micros(304));
        assert_eq!(p.rts, SimDuration::from_micros(352));
        // A 1040-byte TCP segment at 2 Mbit/s: 192 µs + (28 + 1040)·8 / 2 = 4464 µs.
        assert_eq!(p.data(1040), SimDuration::from_micros(192 + 4272));
        assert_eq!(p.eifs(), SimDuration::from_micros(364));
        // 11 Mbit/s rounds each frame up to a whole nanosecond.
        let f = Phy::new(11_000_000, 1_000_000, 28);
        assert_eq!(f.data(1000), PLCP + SimDuration((1028u64 * 8 * 1_000_000_000).div_ceil(11_000_000)));
    }
}
