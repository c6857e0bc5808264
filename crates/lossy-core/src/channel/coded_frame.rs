//! How a coded frame fares on a channel (the model of `coding/frame.rs`): the channel
//! judges an uncoded frame whole, and spreads a coded frame's bit errors over its
//! codewords, each of which must decode. Used by the link layers and by the channel fit
//! (`fit.rs`), so a fitted frame fails exactly as the link's would.

use super::{Channel, LossProcess, TxSpan};
use crate::coding::frame::Coding;
use crate::rng::RngStream;

/// Whether the frame of `data_bits` sent over `tx` (its span already holds the coded
/// bits) reaches the far end intact. `scratch` holds the per-codeword error counts.
#[inline]
pub fn frame_survives(coding: &Coding, tx: TxSpan, data_bits: u64, channel: &mut Channel, rng: &mut RngStream, scratch: &mut Vec<u32>) -> bool {
    match coding {
        Coding::None => !channel.lost(tx, rng),
        Coding::Bch(code) => {
            scratch.clear();
            scratch.resize(coding.codewords(data_bits) as usize, 0);
            channel.codeword_errors(tx, code.n() as u32, scratch, rng);
            scratch.iter().all(|&e| coding.corrects(e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{Ber, BerConfig, NoLoss};
    use crate::coding::BchCode;
    use crate::time::SimTime;

    fn rate_half() -> Coding {
        Coding::from(BchCode::new(255, 131).unwrap())
    }

    #[test]
    #[ignore = "release tier: Monte-Carlo statistics, slow unoptimised (make test runs it with --release)"]
    fn the_code_corrects_what_plain_framing_loses() {
        // BER 1e-2 on 510 bits: about 2.6 errors per codeword, far below t = 18, so the
        // coded frame survives nearly always while an uncoded 256-bit frame nearly never does.
        let mut ch = Channel::Ber(Ber::new(&BerConfig { ber: 1e-2 }));
        let mut rng = RngStream::new(1, 0, "coding");
        let mut scratch = Vec::new();
        let (mut coded, mut plain) = (0, 0);
        for i in 0..1000 {
            let at = SimTime(i);
            coded += frame_survives(&rate_half(), TxSpan::at(at, 510), 256, &mut ch, &mut rng, &mut scratch) as u32;
            plain += frame_survives(&Coding::None, TxSpan::at(at, 256), 256, &mut ch, &mut rng, &mut scratch) as u32;
        }
        assert!(coded >= 999, "{coded}");
        assert!(plain <= 200, "{plain}"); // (1 − 1e-2)^256 ≈ 0.076
        let mut none = Channel::None(NoLoss);
        assert!(frame_survives(&rate_half(), TxSpan::at(SimTime::ZERO, 510), 256, &mut none, &mut rng, &mut scratch));
        assert_eq!(scratch, vec![0, 0]);
    }
}
