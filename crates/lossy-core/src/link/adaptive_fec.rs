//! The adaptive FEC link (Miyoshi §4, Figs. 4 and 6): each packet is one frame, as on
//! the plain link, coded with one of a ladder of codes (weakest first, e.g. none,
//! BCH(127,92), (127,64), (127,36)). Which one is decided either
//!
//! - by the TCP sender, in band: its controller, fed by ELN-marked ACKs, writes the code
//!   it wants into each data segment's header (`Packet::request_code`), and the link
//!   uses the code the packet asks for (the paper's scheme; no side channel). A packet
//!   without a request (an ACK, a datagram) takes the code last asked for; or
//! - by the link's own controller, fed by its own frames' outcomes (what the base
//!   station's decoder would tell it without ELN): `control = { window, up, down }`.

use super::config::LinkLayerSpec;
use super::plain::{CodeChoice, FrameLink};
use super::AnyLinkLayer;
use crate::capacity::AnyCapacity;
use crate::coding::frame::{Coding, CodingConfig};
use crate::fec_control::{check_ladder, FecControlConfig, FecController};
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::SimDuration;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "adaptive_fec"`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdaptiveFecConfig {
    /// The codes to choose from, weakest first, e.g. `[{ code = "none" },
    /// { code = "bch", n = 127, k = 92 }, { code = "bch", n = 127, k = 64 }]`.
    pub codes: Vec<CodingConfig>,
    /// The link's own controller: `{ window = 10, up = [...], down = [...] }`, one
    /// threshold per step between neighbouring codes. Unset: the sender decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<FecControlConfig>,
}

impl LinkLayerSpec for AdaptiveFecConfig {
    fn validate(&self) -> Result<(), String> {
        if self.codes.len() < 2 {
            return Err(format!(
                "codes: {} code(s) leave nothing to adapt; give 2 or more, weakest first, e.g. [{{ code = \"none\" }}, {{ code = \"bch\", n = 127, k = 92 }}]",
                self.codes.len()
            ));
        }
        check_ladder(&self.codes, self.control.as_ref())
    }
    /// Each packet is one frame; the fitted one is in the weakest code.
    fn frame(&self, largest: u64) -> Result<(u64, Coding), String> {
        Ok((largest, self.codes[0].build()?))
    }
    fn is_adaptive(&self) -> bool {
        true
    }
    fn sender_chosen_codes(&self) -> Option<usize> {
        self.control.is_none().then_some(self.codes.len())
    }
    fn build(&self, capacity: AnyCapacity, _delay: SimDuration, _nak_stream: &mut dyn FnMut() -> RngStream) -> AnyLinkLayer {
        let codes = self.codes.iter().map(|c| c.build().expect("validated")).collect();
        AdaptiveFec::new(capacity, codes, self.control.as_ref()).into()
    }
}

/// Who chooses the code.
#[derive(Clone, Debug)]
enum Chooser {
    /// The packets' requests; the code last asked for.
    Sender { last: usize },
    /// The link's own controller.
    Link(FecController),
}

/// The codes, weakest first, and who picks among them.
#[derive(Clone, Debug)]
pub struct CodeLadder {
    codes: Vec<Coding>,
    chooser: Chooser,
    /// The code of the last frame, to count changes.
    current: usize,
    changes: u64,
}

/// The adaptive FEC link: a frame link over a ladder of codes.
pub type AdaptiveFec = FrameLink<CodeLadder>;

impl AdaptiveFec {
    /// `codes` weakest first; `control` = the link's own controller, or `None` for the
    /// sender's requests.
    pub fn new(capacity: impl Into<AnyCapacity>, codes: Vec<Coding>, control: Option<&FecControlConfig>) -> Self {
        debug_assert!(!codes.is_empty());
        let chooser = match control {
            Some(cfg) => Chooser::Link(FecController::new(cfg)),
            None => Chooser::Sender { last: 0 },
        };
        FrameLink::with_choice(capacity.into(), CodeLadder { codes, chooser, current: 0, changes: 0 })
    }
}

impl CodeChoice for CodeLadder {
    fn pick(&mut self, pkt: &Packet) -> &Coding {
        let top = self.codes.len() - 1;
        let code = match &mut self.chooser {
            Chooser::Sender { last } => {
                if let Some(asked) = pkt.requested_code() {
                    *last = asked.min(top);
                }
                *last
            }
            Chooser::Link(c) => c.level().min(top),
        };
        if code != self.current {
            self.current = code;
            self.changes += 1;
        }
        &self.codes[code]
    }

    fn learn(&mut self, lost: bool) {
        if let Chooser::Link(c) = &mut self.chooser {
            c.record(lost);
        }
    }

    fn changes(&self) -> u64 {
        self.changes
    }
}

/// Boxed into the link-layer list (only the plain link is held inline there).

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{Ber, BerConfig, Channel};
    use crate::capacity::ConstantRate;
    use crate::fate::LinkOutcome;
    use crate::fec_control::StepDown;
    use crate::link::{LinkCtx, LinkLayer};
    use crate::time::SimTime;
    use crate::coding::BchCode;
    use crate::engine::Tickets;
    use crate::rng::RngStream;
    use crate::time::SimDuration;

    fn ladder() -> Vec<Coding> {
        vec![Coding::None, Coding::from(BchCode::new(127, 92).unwrap()), Coding::from(BchCode::new(127, 36).unwrap())]
    }

    struct Harness {
        link: AdaptiveFec,
        rng: RngStream,
        tickets: Tickets,
        now: SimTime,
    }

    impl Harness {
        fn new(control: Option<&FecControlConfig>) -> Self {
            let link = AdaptiveFec::new(ConstantRate::new(1_000_000), ladder(), control);
            Harness { link, rng: RngStream::new(1, 0, "t"), tickets: Tickets::default(), now: SimTime::ZERO }
        }

        /// Sends `n` 100-byte segments asking for `ask`, 10 ms apart, at bit error ratio
        /// `ber`; the delivered frames' air times and the number lost.
        fn send(&mut self, ask: Option<usize>, n: usize, ber: f64) -> (Vec<SimDuration>, usize) {
            let mut ch = Channel::Ber(Ber::new(&BerConfig { ber }));
            let mut ctx = LinkCtx { channel: &mut ch, rng: &mut self.rng, tickets: &mut self.tickets };
            let (mut airtimes, mut lost) = (Vec::new(), 0);
            for i in 0..n {
                let mut p = Packet::tcp_data(0, 0, 1, i as u64 * 100, 60, 100);
                if let Some(a) = ask {
                    p.request_code(a);
                }
                match self.link.begin(self.now, p, &mut ctx) {
                    Some(LinkOutcome::Delivered(_, end)) => airtimes.push(end.since(self.now)),
                    _ => lost += 1,
                }
                self.now += SimDuration(10_000_000);
            }
            (airtimes, lost)
        }
    }

    #[test]
    fn the_sender_request_picks_the_code_and_holds_for_packets_without_one() {
        let mut h = Harness::new(None);
        // 800 bits: uncoded 0.8 ms; BCH(127,92): 9 codewords, 1.143 ms; (127,36): 23, 2.921 ms.
        assert_eq!(h.send(None, 1, 0.0).0, vec![SimDuration(800_000)]);
        assert_eq!(h.send(Some(1), 1, 0.0).0, vec![SimDuration(1_143_000)]);
        assert_eq!(h.send(None, 1, 0.0).0, vec![SimDuration(1_143_000)], "the last request holds");
        assert_eq!(h.send(Some(7), 1, 0.0).0, vec![SimDuration(2_921_000)], "clamped to the strongest");
        assert_eq!(h.link.counters().code_changes, 2);
        assert_eq!(h.link.counters().overhead_bytes, (1143 - 800) / 8 * 2 + (2921 - 800) / 8);
    }

    #[test]
    fn the_link_controller_steps_up_on_its_own_losses_and_back_down() {
        // BER 3e-3 loses ~91 % of uncoded 800-bit frames, ~0.02 % under BCH(127,92).
        let sticky = FecControlConfig { window: 10, up: vec![0.15, 0.15], down: vec![0.0, 0.0], step_down: StepDown::Window };
        let mut h = Harness::new(Some(&sticky));
        let (_, lost) = h.send(Some(0), 200, 3e-3);
        assert!((5..15).contains(&lost), "{lost}: the link ignores requests and steps up after the first window");
        assert_eq!(h.link.choice.current, 1, "(127,92) holds: its loss is far below up.1");
        // A down threshold above 0 steps back after every clean window: the code then
        // alternates window by window and half the windows lose ~91 % of their frames.
        let eager = FecControlConfig { window: 10, up: vec![0.15, 0.15], down: vec![0.05, 0.05], step_down: StepDown::Window };
        let mut h = Harness::new(Some(&eager));
        let (_, lost) = h.send(None, 200, 3e-3);
        assert!((75..105).contains(&lost), "{lost}");
        assert_eq!(h.link.counters().code_changes, 19);
        h.send(None, 10, 0.0);
        assert_eq!(h.send(None, 1, 0.0).0, vec![SimDuration(800_000)], "a clean window steps back down");
    }
}
