//! Adaptive FEC's controller (Miyoshi §4, Fig. 4): the packet error rate p_err is
//! measured over observation windows of N packets; after each window the code steps to
//! the next stronger one when p_err exceeds that step's upper threshold (one step per
//! window, as Eckhardt and Steenkiste's "two or more of ten" rule that §4 builds on), and
//! back to the next weaker one when p_err stays below its lower threshold.
//!
//! The step down has hysteresis (`step_down = "backoff"`, the default). §4 asks that the
//! algorithm be "robust in the sense that it is not influenced by the sensitive errors",
//! and Fig. 4 gives each step its own pair of thresholds. With loss-only feedback a
//! stronger code's windows carry next to no information on whether the channel got
//! better (BCH(127,92) loses ~10⁻¹⁰ of its frames at the BER where it overtakes no FEC),
//! so a step down is a probe: it is taken after `hold` windows in a row below the lower
//! threshold, `hold` starting at 1, and judged over the `hold` windows after it. A probe
//! reversed within them (a failed probe) doubles `hold`; one that outlasts them, or a
//! step up from a code that had held (the channel got worse), resets it to 1 — the rule
//! of AARF's rate probes, here between codes. On a steady channel the probes thin out
//! geometrically; after a real improvement the controller follows within `hold` windows. `step_down = "window"` is the rule without hysteresis (one window below the
//! lower threshold steps down), which oscillates at every clean window (889 code changes
//! per 100 s at BER 10⁻⁴ in Miyoshi's network).
//!
//! The same controller runs at a TCP sender fed by ELN-marked ACKs (the paper's scheme,
//! the code then travels in band in the data header) and inside an adaptive link layer
//! fed by its own frames' outcomes (no ELN). Codes are numbered from 0, the weakest
//! (usually no FEC), in the order the link's `codes` list gives them.

use crate::coding::frame::CodingConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most steps between codes: the data header's one-byte code field names up to 255
/// codes (0 = no request).
pub const MAX_STEPS: usize = 254;

/// The observation window of the paper (§4, after Eckhardt and Steenkiste): 10 segments.
pub const DEFAULT_WINDOW: u32 = 10;

/// The longest wait, in windows, between probes of the weaker code (`StepDown::Backoff`).
pub const MAX_HOLD: u32 = 1 << 16;

/// How the controller steps down to a weaker code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepDown {
    /// After `hold` windows in a row below the lower threshold; a step down reversed
    /// within the next `hold` windows doubles `hold`, one that outlasts them or a step up
    /// from a code that held resets it to 1 (hysteresis).
    #[default]
    Backoff,
    /// After one window below the lower threshold (no hysteresis).
    Window,
}

/// `adaptive_fec = { window = 10, up = [...], down = [...] }`: thresholds on p_err for
/// each step between neighbouring codes (Miyoshi's A–D). `lossy` derives them from the
/// crossing points of the fixed-code throughput curves (`lossy.papers.miyoshi`).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FecControlConfig {
    /// N: packets per observation window. Default 10 (Miyoshi §4).
    #[serde(default = "default_window")]
    pub window: u32,
    /// up[i]: step from code i to code i + 1 when a window's p_err exceeds it.
    pub up: Vec<f64>,
    /// down[i]: step from code i + 1 back to code i when a window's p_err is below it;
    /// at most up[i], so that the two steps cannot chase each other.
    pub down: Vec<f64>,
    /// The step down's rule: "backoff" (default, hysteresis) or "window".
    #[serde(default)]
    pub step_down: StepDown,
}

fn default_window() -> u32 {
    DEFAULT_WINDOW
}

impl FecControlConfig {
    /// The number of codes the thresholds step between.
    pub fn codes(&self) -> usize {
        self.up.len() + 1
    }

    /// `field: message` (unprefixed) for thresholds no controller can use.
    pub fn validate(&self) -> Result<(), String> {
        if self.window == 0 {
            return Err("window: 0 packets observes nothing; use 1 or more (Miyoshi: 10)".into());
        }
        if self.up.is_empty() {
            return Err("up: no thresholds; give one per step between neighbouring codes".into());
        }
        if self.up.len() > MAX_STEPS {
            return Err(format!("up: {} thresholds; at most {MAX_STEPS} (the data header's code field holds 255 codes)", self.up.len()));
        }
        if self.down.len() != self.up.len() {
            return Err(format!(
                "down: {} thresholds for {} in up; give one per step between neighbouring codes",
                self.down.len(),
                self.up.len()
            ));
        }
        for (name, list) in [("up", &self.up), ("down", &self.down)] {
            if let Some((i, v)) = list.iter().enumerate().find(|(_, v)| !(0.0..=1.0).contains(*v)) {
                return Err(format!("{name}.{i}: {v} is not a packet error rate; use 0 to 1"));
            }
        }
        if let Some(i) = (0..self.up.len()).find(|&i| self.down[i] > self.up[i]) {
            return Err(format!(
                "down.{i}: {} is above up.{i} = {}; the step down must need a lower p_err than the step up",
                self.down[i], self.up[i]
            ));
        }
        Ok(())
    }
}

/// `field: message` (unprefixed) for a ladder of codes and its controller, wherever one
/// is configured (an adaptive link, Miyoshi's packet stream): every code buildable
/// (`codes.<j>.…`), at most the header's 255 codes, the thresholds valid (`control.…`)
/// and one per step between neighbouring codes.
pub fn check_ladder(codes: &[CodingConfig], control: Option<&FecControlConfig>) -> Result<(), String> {
    if codes.len() > MAX_STEPS + 1 {
        return Err(format!("codes: {} codes; at most {} (the data header's code field)", codes.len(), MAX_STEPS + 1));
    }
    for (j, c) in codes.iter().enumerate() {
        c.build().map_err(|m| format!("codes.{j}.{m}"))?;
    }
    check_control(codes.len(), control)
}

/// `field: message` for a controller over `codes` codes (the thresholds valid, one per
/// step between neighbouring codes, at most the header's 255 codes).
pub fn check_control(codes: usize, control: Option<&FecControlConfig>) -> Result<(), String> {
    if codes > MAX_STEPS + 1 {
        return Err(format!("codes: {codes} codes; at most {} (the data header's code field)", MAX_STEPS + 1));
    }
    if let Some(cfg) = control {
        cfg.validate().map_err(|m| format!("control.{m}"))?;
        if cfg.codes() != codes {
            return Err(format!(
                "control.up: {} thresholds for {codes} codes; give {}, one per step between neighbouring codes",
                cfg.up.len(),
                codes.saturating_sub(1)
            ));
        }
    }
    Ok(())
}

/// The controller's state: the code in use and the window being observed.
#[derive(Clone, Debug)]
pub struct FecController {
    cfg: FecControlConfig,
    level: usize,
    seen: u32,
    lost: u32,
    changes: u64,
    /// Windows in a row below the lower threshold of the code in use.
    calm: u32,
    /// Windows below the lower threshold needed to step down (`StepDown::Backoff`).
    hold: u32,
    /// Windows left to judge the last step down by (0: not probing).
    probing: u32,
}

impl FecController {
    /// Starts with code 0, the weakest.
    pub fn new(cfg: &FecControlConfig) -> Self {
        FecController { cfg: cfg.clone(), level: 0, seen: 0, lost: 0, changes: 0, calm: 0, hold: 1, probing: 0 }
    }

    /// The code in use, 0 the weakest.
    pub fn level(&self) -> usize {
        self.level
    }

    /// Times the code changed.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// Ends the current window with every packet it still lacks lost (a period in which
    /// nothing was delivered, such as a sender's retransmission timeout).
    pub fn fail_window(&mut self) {
        let left = self.cfg.window - self.seen;
        for _ in 0..left {
            self.record(true);
        }
    }

    /// One more packet's outcome; at the end of a window, the step it calls for.
    pub fn record(&mut self, lost: bool) {
        self.seen += 1;
        self.lost += lost as u32;
        if self.seen < self.cfg.window {
            return;
        }
        let p_err = self.lost as f64 / self.seen as f64;
        self.seen = 0;
        self.lost = 0;
        let top = self.cfg.up.len();
        let probing = std::mem::take(&mut self.probing);
        if self.level < top && p_err > self.cfg.up[self.level] {
            self.level += 1;
            self.changes += 1;
            self.calm = 0;
            // A probe that fails within its judgement doubles the wait; a step up from a
            // code that had held (the channel got worse) resets it.
            self.hold = if probing > 0 { (self.hold * 2).min(MAX_HOLD) } else { 1 };
            return;
        }
        match probing {
            0 => {}
            1 => self.hold = 1, // the probe held as long as the wait before it
            n => self.probing = n - 1,
        }
        if self.level > 0 && p_err < self.cfg.down[self.level - 1] {
            self.calm += 1;
            let needed = match self.cfg.step_down {
                StepDown::Window => 1,
                StepDown::Backoff => self.hold,
            };
            if self.calm >= needed {
                self.level -= 1;
                self.changes += 1;
                self.calm = 0;
                self.probing = self.hold;
            }
        } else {
            self.calm = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(window: u32, up: &[f64], down: &[f64]) -> FecControlConfig {
        FecControlConfig { window, up: up.to_vec(), down: down.to_vec(), step_down: StepDown::Window }
    }

    fn window(c: &mut FecController, n: u32, lost: u32) {
        for i in 0..n {
            c.record(i < lost);
        }
    }

    #[test]
    fn steps_one_code_per_window_and_holds_between_thresholds() {
        // Eckhardt and Steenkiste's rule: two or more errors of ten step up.
        let mut c = FecController::new(&cfg(10, &[0.15, 0.25], &[0.05, 0.1]));
        window(&mut c, 10, 1);
        assert_eq!(c.level(), 0, "0.1 is not above 0.15");
        window(&mut c, 9, 9);
        assert_eq!(c.level(), 0, "no decision before the window is full");
        c.record(false);
        assert_eq!(c.level(), 1, "0.9 steps up once, not twice");
        window(&mut c, 10, 10);
        assert_eq!(c.level(), 2);
        window(&mut c, 10, 10);
        assert_eq!(c.level(), 2, "no code above the strongest");
        window(&mut c, 10, 1);
        assert_eq!(c.level(), 2, "0.1 is not below down.1 = 0.1");
        window(&mut c, 10, 0);
        assert_eq!(c.level(), 1);
        window(&mut c, 10, 0);
        window(&mut c, 10, 0);
        assert_eq!((c.level(), c.changes()), (0, 4));
    }

    #[test]
    fn a_failed_probe_doubles_the_wait_and_one_that_holds_resets_it() {
        let mut c = FecController::new(&FecControlConfig { step_down: StepDown::Backoff, ..cfg(10, &[0.15], &[0.05]) });
        window(&mut c, 10, 5);
        assert_eq!(c.level(), 1);
        // Clean windows with the stronger code; the weaker code loses 3 of 10 each time.
        let mut waits = Vec::new();
        for _ in 0..4 {
            let mut n = 0;
            while c.level() == 1 {
                window(&mut c, 10, 0);
                n += 1;
            }
            waits.push(n);
            window(&mut c, 10, 3);
            assert_eq!(c.level(), 1, "the probe fails");
        }
        assert_eq!(waits, vec![1, 2, 4, 8], "each failed probe doubles the wait");
        // A probe that outlasts its judgement (16 windows) resets the wait.
        for _ in 0..16 {
            window(&mut c, 10, 0);
        }
        assert_eq!(c.level(), 0);
        for _ in 0..15 {
            window(&mut c, 10, 0);
        }
        window(&mut c, 10, 5);
        assert_eq!(c.level(), 1, "within the judgement: the probe failed");
        let mut n = 0;
        while c.level() == 1 {
            window(&mut c, 10, 0);
            n += 1;
        }
        assert_eq!(n, 32);
        for _ in 0..32 {
            window(&mut c, 10, 0);
        }
        window(&mut c, 10, 5);
        window(&mut c, 10, 0);
        assert_eq!((c.level(), c.changes()), (0, 14), "the probe held 32 windows: the wait is 1 again");
    }

    #[test]
    fn the_window_rule_steps_down_after_every_clean_window() {
        let mut c = FecController::new(&cfg(10, &[0.15], &[0.05]));
        for _ in 0..5 {
            window(&mut c, 10, 3);
            window(&mut c, 10, 0);
        }
        assert_eq!((c.level(), c.changes()), (0, 10));
    }

    #[test]
    fn bad_thresholds_name_their_field() {
        let field = |c: FecControlConfig| c.validate().unwrap_err().split(':').next().unwrap().to_string();
        assert!(cfg(10, &[0.2, 0.3], &[0.01, 0.1]).validate().is_ok());
        assert_eq!(field(cfg(0, &[0.2], &[0.1])), "window");
        assert_eq!(field(cfg(10, &[], &[])), "up");
        assert_eq!(field(cfg(10, &[0.2, 0.3], &[0.1])), "down");
        assert_eq!(field(cfg(10, &[0.2, 1.5], &[0.1, 0.1])), "up.1");
        assert_eq!(field(cfg(10, &[0.2], &[f64::NAN])), "down.0");
        assert_eq!(field(cfg(10, &[0.2], &[-0.1])), "down.0");
        assert_eq!(field(cfg(10, &[0.2, 0.3], &[0.1, 0.4])), "down.1");
    }
}
