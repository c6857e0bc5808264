//! Bounds on what a few bytes of scenario can make the simulator hold: each derived from
//! the memory one unit costs, checked before anything is built, and refused in one line
//! naming the field, the value and the limit (issue 27: five flow groups of 10^6 flows
//! passed 6 GiB, `throughput_interval = "1 ns"` 4 GiB in 9 s, FECTCP verifying a 1 GB
//! file 4 GiB). docs/guide/scenarios.md#limits lists them for users.

use super::flows::FlowSpec;
use super::{secs, Scenario};
use crate::apps::App;
use crate::error::{Error, Result};
use crate::transport::fectcp::config::Decoding;
use crate::transport::Transport;
use crate::units::{duration_text, thousands};

/// The most flows a scenario may have, `[[flows]]` and every group's flows together. A
/// flow costs about 1.2 KiB before it sends a byte (its record, two endpoints, their
/// timers and counters: 5·10^6 flows passed 6 GiB), so 10^6 flows stay near 1.2 GiB.
pub const MAX_FLOWS: u64 = 1_000_000;

/// The most rows the throughput trace may hold: one row per flow per interval, 20 bytes
/// each in the core (time f64, flow u32, bps f64) and as many again once handed to
/// Python as arrays, so 25·10^6 rows cost about 1 GB in all.
pub const MAX_THROUGHPUT_ROWS: u64 = 25_000_000;

/// The most file bytes FECTCP may verify, over all flows with `decoding = "verify"`:
/// the real decoder holds the file about four times (the source, the encoder's
/// intermediate symbols, the decoder's received symbols and its result; a 1 GB file
/// passed 4 GiB), so 100 MB stays near 400 MB. `decoding = "model"` holds no bytes.
pub const MAX_VERIFIED_BYTES: u64 = 100_000_000;

/// The flows in all (plain ones first, then each group's) against [`MAX_FLOWS`], naming
/// the group whose count goes past it.
pub(super) fn check_flow_count(s: &Scenario) -> Result<()> {
    let mut total = s.flows.len() as u64;
    if total > MAX_FLOWS {
        return Err(Error::scenario("flows", format!("{} flows given; use at most {} flows in all", thousands(total), thousands(MAX_FLOWS))));
    }
    for (g, grp) in s.flow_groups.iter().enumerate() {
        total = total.saturating_add(grp.count);
        if total > MAX_FLOWS {
            return Err(Error::scenario(
                format!("flow_groups.{g}.count"),
                format!(
                    "{} brings the scenario to {} flows; use at most {} flows in all (flows and every group together; each costs about 1.2 KiB)",
                    thousands(grp.count),
                    thousands(total),
                    thousands(MAX_FLOWS)
                ),
            ));
        }
    }
    Ok(())
}

/// Rows of the throughput trace (intervals in the run × flows) against
/// [`MAX_THROUGHPUT_ROWS`]; the message gives the shortest interval that fits.
pub(super) fn check_throughput_rows(s: &Scenario, n_flows: usize) -> Result<()> {
    let interval = s.traces.throughput_interval.0.as_nanos();
    if interval == 0 {
        return Err(Error::scenario("traces.throughput_interval", "0 s is not an interval; use e.g. \"100 ms\""));
    }
    let duration = s.duration.0.as_nanos();
    let flows = n_flows.max(1) as u128;
    let rows = (duration / interval) as u128 * flows;
    if rows <= MAX_THROUGHPUT_ROWS as u128 {
        return Ok(());
    }
    // The shortest interval whose rows fit, rounded up to a whole microsecond.
    let shortest_ns = (duration as u128 * flows).div_ceil(MAX_THROUGHPUT_ROWS as u128).div_ceil(1000) * 1000;
    Err(Error::scenario(
        "traces.throughput_interval",
        format!(
            "{} gives {} rows ({} intervals in {} s × {}); use at least {} ({} rows at most, 20 B each)",
            duration_text(interval),
            thousands(rows.min(u64::MAX as u128) as u64),
            thousands(duration / interval),
            secs(duration),
            if flows == 1 { "1 flow".to_string() } else { format!("{} flows", thousands(flows as u64)) },
            duration_text(shortest_ns.min(u64::MAX as u128) as u64),
            thousands(MAX_THROUGHPUT_ROWS)
        ),
    ))
}

/// The file bytes of every FECTCP flow that verifies, against [`MAX_VERIFIED_BYTES`];
/// the flow that goes past it is named.
pub(super) fn check_verified_files(specs: &[FlowSpec]) -> Result<()> {
    let mut total: u64 = 0;
    for f in specs {
        let verifies = f.transport == Transport::Fectcp && f.fectcp.is_some_and(|c| c.decoding == Decoding::Verify);
        let Some(size) = f.app.total_bytes().filter(|_| verifies) else { continue };
        total = total.saturating_add(size);
        if total > MAX_VERIFIED_BYTES {
            let in_all = if total == size { String::new() } else { format!(" ({} B with the flows before it)", thousands(total)) };
            return Err(Error::scenario(
                f.origin.path("app.size"),
                format!(
                    "{} B{in_all} is more than FECTCP verifies: decoding = \"verify\" holds the file about four times in memory; use at most {} B in all, or decoding = \"model\"",
                    thousands(size),
                    thousands(MAX_VERIFIED_BYTES)
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::scenario::{build_world, parse_json};

    fn error(json: &str) -> String {
        let s = parse_json(json).unwrap();
        build_world(&s, 1, 0).err().map(|e| e.to_string()).unwrap_or_else(|| "accepted".into())
    }

    const NET: &str = r#""nodes": ["a", "b"], "links": [{"between": ["a", "b"], "rate": "2 Mbps", "delay": "5 ms"}]"#;

    #[test]
    fn the_flow_cap_counts_every_group_together() {
        let groups = (0..5).map(|g| format!(r#"{{"name": "g{g}", "count": 1000000, "from": "a", "to": "b"}}"#)).collect::<Vec<_>>().join(", ");
        let e = error(&format!(r#"{{{NET}, "flow_groups": [{groups}]}}"#));
        assert_eq!(e, "flow_groups.1.count: 1,000,000 brings the scenario to 2,000,000 flows; use at most 1,000,000 flows in all (flows and every group together; each costs about 1.2 KiB)");
    }

    #[test]
    fn a_throughput_interval_too_short_for_the_run_names_the_shortest_that_fits() {
        let e = error(&format!(r#"{{{NET}, "flows": [{{"from": "a", "to": "b"}}], "traces": {{"throughput": true, "throughput_interval": "1 ns"}}}}"#));
        assert_eq!(e, "traces.throughput_interval: 1 ns gives 100,000,000,000 rows (100,000,000,000 intervals in 100 s × 1 flow); use at least 4 us (25,000,000 rows at most, 20 B each)");
        let ok = error(&format!(r#"{{{NET}, "flows": [{{"from": "a", "to": "b"}}], "duration": "1 s", "traces": {{"throughput": true, "throughput_interval": "1 ms"}}}}"#));
        assert_eq!(ok, "accepted");
    }

    #[test]
    fn fectcp_verifies_at_most_a_bounded_file() {
        let flow = |size: &str| format!(r#"{{"from": "a", "to": "b", "transport": "fectcp", "app": {{"kind": "file", "size": "{size}"}}, "fectcp": {{"decoding": "verify"}}}}"#);
        let e = error(&format!(r#"{{{NET}, "flows": [{}]}}"#, flow("1 GB")));
        assert!(e.starts_with("flows.0.app.size: 1,000,000,000 B is more than FECTCP verifies"), "{e}");
        let e = error(&format!(r#"{{{NET}, "flows": [{}, {}]}}"#, flow("60 MB"), flow("60 MB")));
        assert!(e.starts_with("flows.1.app.size: 60,000,000 B (120,000,000 B with the flows before it) is more"), "{e}");
    }
}
