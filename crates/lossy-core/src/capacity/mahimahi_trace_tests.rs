//! Departures worked out by hand from `link_queue.cc`'s rules (module doc), one rule a test.

use super::*;

fn ms(n: f64) -> SimTime {
    SimTime((n * 1e6).round() as u64)
}

/// A trace from its lines (milliseconds).
fn trace(lines: &[u32], once: bool) -> MahimahiTrace {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &l in lines {
        match runs.last_mut() {
            Some((m, c)) if *m == l => *c += 1,
            _ => runs.push((l, 1)),
        }
    }
    MahimahiTrace::new(Arc::new(Opportunities::from_runs(runs).unwrap()), once)
}

/// A packet of `bytes` that joined the queue at `arrived`, served as a link layer that
/// asks `first_service` serves it: from its first service on.
fn send(t: &mut MahimahiTrace, arrived: SimTime, bytes: u64) -> SimTime {
    let start = t.first_service(arrived, arrived);
    t.frame_end(start, bytes * 8)
}

#[test]
fn a_packet_larger_than_an_opportunity_spans_two() {
    let mut t = trace(&[1, 2, 3], false);
    // 3000 B: 1504 at 1 ms, the other 1496 at 2 ms.
    assert_eq!(send(&mut t, ms(0.0), 3000), ms(2.0));
    // 8 B are left at 2 ms for a packet that was already waiting at 2 ms.
    assert_eq!(t.first_service(ms(2.0), ms(1.5)), ms(2.0));
    assert_eq!(t.frame_end(ms(2.0), 8 * 8), ms(2.0));
    // 2 ms is used up: the next waiting packet starts at 3 ms.
    assert_eq!(t.first_service(ms(2.0), ms(1.5)), ms(3.0));
}

#[test]
fn three_500_byte_packets_share_one_opportunity() {
    let mut t = trace(&[1, 2], false);
    // Queued before 1 ms, served back to back: 1500 of 1504 bytes at 1 ms.
    for _ in 0..3 {
        let start = t.first_service(ms(1.0), ms(0.5));
        assert_eq!(start, ms(1.0));
        assert_eq!(t.frame_end(start, 500 * 8), ms(1.0));
    }
    // A fourth takes the 4 bytes left at 1 ms and 496 at 2 ms.
    assert_eq!(t.frame_end(t.first_service(ms(1.0), ms(0.5)), 500 * 8), ms(2.0));
}

#[test]
fn repeated_timestamps_are_several_opportunities_at_once() {
    let mut t = trace(&[1, 1, 2], false);
    assert_eq!(send(&mut t, ms(0.0), 3008), ms(1.0));
    assert_eq!(send(&mut t, ms(0.5), 1), ms(2.0));
}

#[test]
fn an_arrival_at_an_opportunitys_millisecond_cannot_use_it() {
    let t = trace(&[5, 10], false);
    // `rationalize(now)` runs before the enqueue: 5 ms is gone for a packet arriving at 5 ms.
    assert_eq!(t.first_service(ms(5.0), ms(5.0)), ms(10.0));
    // One 0.1 ms earlier is queued when 5 ms comes.
    assert_eq!(t.first_service(ms(4.9), ms(4.9)), ms(5.0));
    // Waiting since 4.9 ms, asked at 5 ms (the link was busy until then): 5 ms.
    assert_eq!(t.first_service(ms(5.0), ms(4.9)), ms(5.0));
}

#[test]
fn unused_bytes_are_wasted_when_the_queue_is_empty() {
    let mut t = trace(&[1, 2, 3], false);
    // 100 B at 1 ms; the other 1404 B of 1 ms are not kept for a later packet.
    assert_eq!(send(&mut t, ms(0.0), 100), ms(1.0));
    // A 1504 B packet arriving at 1.5 ms gets the whole of 2 ms, nothing of 1 ms.
    assert_eq!(send(&mut t, ms(1.5), 1504), ms(2.0));
    // So one waiting since 1.9 ms starts at 3 ms.
    assert_eq!(t.first_service(ms(2.0), ms(1.9)), ms(3.0));
    // An idle second: everything up to it is wasted, the trace wraps (period 3 ms).
    assert_eq!(send(&mut t, ms(1000.5), 1), ms(1001.0));
}

#[test]
fn the_trace_wraps_its_base_advancing_by_the_last_timestamp() {
    let mut t = trace(&[3, 5], false);
    // Opportunities at 3, 5, 8, 10, 13, 15 ms...
    assert_eq!(send(&mut t, ms(5.5), 1504 * 2), ms(10.0));
    assert_eq!(send(&mut t, ms(10.0), 1), ms(13.0));
    // A trace starting at 0 ms: its first line of the next lap falls on the last one's
    // millisecond (0, 5, 5, 10, 10, ...), a second opportunity at once.
    let mut z = trace(&[0, 5], false);
    assert_eq!(send(&mut z, SimTime::ZERO, 1), ms(5.0)); // 0 ms is not after an arrival at 0
    assert_eq!(z.frame_end(ms(5.0), (1504 * 2 - 1) * 8), ms(5.0));
    assert_eq!(z.first_service(ms(5.0), ms(1.0)), ms(10.0));
    // Far ahead: lap 200 000 found by search, not by walking.
    assert_eq!(z.first_service(ms(1_000_002.0), ms(1_000_002.0)), ms(1_000_005.0));
}

#[test]
fn a_trace_played_once_has_no_capacity_after_its_end() {
    let mut t = trace(&[3, 5], true);
    assert_eq!(send(&mut t, ms(0.0), 1504), ms(3.0));
    assert_eq!(t.first_service(ms(5.5), ms(5.5)), SimTime::MAX);
    // A packet that would need an opportunity past the end never leaves.
    let mut u = trace(&[3, 5], true);
    assert_eq!(send(&mut u, ms(0.0), 1504 * 2 + 1), SimTime::MAX);
    assert_eq!(u.first_service(ms(0.0), ms(0.0)), SimTime::MAX);
    // One that takes the last byte of the last opportunity leaves at it.
    let mut v = trace(&[3, 5], true);
    assert_eq!(send(&mut v, ms(0.0), 1504 * 2), ms(5.0));
    assert_eq!(v.first_service(ms(5.0), ms(4.0)), SimTime::MAX);
}

#[test]
fn the_nominal_rate_is_the_traces_mean() {
    // traces/README: a line every millisecond is about 12 Mbit/s (1504 B: 12.032).
    let every_ms: Vec<u32> = (1..=1000).collect();
    assert_eq!(trace(&every_ms, false).nominal_rate_bps(), 12_032_000);
    assert_eq!(trace(&[0, 0, 0, 4], false).nominal_rate_bps(), 4 * 12_032 * 1000 / 4);
}

fn file(name: &str, text: &str) -> DataFile {
    let dir = std::env::temp_dir().join(format!("lossy-mahimahi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    DataFile::new(path.to_string_lossy())
}

#[test]
fn a_trace_file_is_read_into_runs_and_bad_ones_are_refused_with_the_reason() {
    let f = file("ok.txt", "0\n0\n3\n3\n3\n7\n");
    let o = Opportunities::read(&f).unwrap();
    assert_eq!((o.runs.clone(), o.period_ms, o.total), (vec![(0, 2), (3, 3), (7, 1)], 7, 6));
    let err = |name: &str, text: &str| {
        let f = file(name, text);
        MahimahiTraceConfig::new(f.clone(), false).validate().unwrap_err().replace(f.path(), "T")
    };
    assert_eq!(err("bad.txt", "1\n2\nx3\n"), format!("file: T line 3: \"x3\" is not a delivery opportunity; give a whole number of milliseconds from the trace's start (0 to {}), one per line", u32::MAX));
    assert_eq!(err("neg.txt", "1\n-2\n"), format!("file: T line 2: \"-2\" is not a delivery opportunity; give a whole number of milliseconds from the trace's start (0 to {}), one per line", u32::MAX));
    assert_eq!(err("dec.txt", "1\n5\n4\n"), "file: T line 3: 4 ms comes after 5 ms; timestamps must never decrease (Mahimahi's rule)");
    assert_eq!(err("empty.txt", "# nothing\n\n"), "file: T: no delivery opportunities; give one whole number of milliseconds per line");
    assert_eq!(err("zero.txt", "0\n0\n"), "file: T: every opportunity is at 0 ms: a trace must last a nonzero time (mm-link refuses it too)");
}

#[test]
fn memory_is_flat_in_the_opportunities_per_millisecond() {
    // 158 opportunities a millisecond (1.9 Gbit/s) for a second: 1000 runs of 8 bytes.
    let text: String = (1..=1000).flat_map(|m| std::iter::repeat_n(m, 158)).map(|m| format!("{m}\n")).collect();
    let o = Opportunities::read(&file("fast.txt", &text)).unwrap();
    assert_eq!(o.total, 158_000);
    assert!(o.bytes() <= 1000 * 8 * 2, "{}", o.bytes());
    assert_eq!(o.mean_bps(), 158 * 12_032 * 1000);
}
