//! Human units in scenarios: "5 ms", "2 Mbps", "1000 B", "100 packets". Each type also
//! accepts a bare number in base units (seconds, bit/s, bytes) so sweeps can set numbers.
//! A bad value is rejected with what was written and an example of what is allowed; serde
//! adds the field path.

use crate::time::SimDuration;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// Splits "2.5 Mbps" into (2.5, "Mbps"); the space is optional.
fn split_number(text: &str) -> Option<(f64, &str)> {
    let t = text.trim();
    let end = t
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'))
        .map(|(i, _)| i)
        .unwrap_or(t.len());
    // "1e" followed by a unit letter: back off so "5e" is not eaten from e.g. "5es".
    let (num, unit) = t.split_at(end);
    let value: f64 = num.parse().ok()?;
    Some((value, unit.trim()))
}

/// Why a quantity was refused. Each out-of-range answer carries the range the type
/// allows, so the message says what is allowed (issue 27: "-1 s must be ≥ 0 s", not
/// "is not a duration").
enum Bad {
    /// Not a quantity of this kind.
    NotA,
    /// Below the least value: (least value, range), "-1 s must be ≥ 0 s".
    Below(&'static str, &'static str),
    /// Above what the type can hold: "0 s to 1,000,000 s".
    Range(&'static str),
    /// NaN or infinite ("inf s"), with the range.
    NotFinite(&'static str),
    /// A size or count that is not whole ("3 bits"): the unit it must be whole in.
    NotWhole(&'static str),
}

impl Bad {
    /// `"5 parsecs" is not a duration; use e.g. "5 ms"`, `-1 s must be ≥ 0 s; use 0 s to
    /// 1,000,000 s` or `1e300 s is out of range; use 0 s to 1,000,000 s` (the range of a
    /// narrower field replaces this one; see scenario/messages.rs).
    fn message(&self, quoted: &str, plain: &str, what: &str, example: &str) -> String {
        match self {
            Bad::NotA => format!("{quoted} is not {what}; use e.g. \"{example}\""),
            Bad::Below(lo, range) => format!("{plain} must be ≥ {lo}; use {range}"),
            Bad::Range(range) => format!("{plain} is out of range; use {range}"),
            Bad::NotFinite(range) => format!("{plain} is not a finite number; use {range}"),
            Bad::NotWhole(unit) => format!("{quoted} is not a whole number of {unit}; use e.g. \"{example}\""),
        }
    }
}

/// "nan", "inf", "-infinity" (any case, any unit after): Rust parses these as numbers,
/// and a unit field must name its range for them, not call them "not a duration".
fn is_not_finite(text: &str) -> bool {
    let t = text.trim().trim_start_matches(['+', '-']).to_ascii_lowercase();
    t.starts_with("nan") || t.starts_with("inf")
}

/// A number as a person writes it: "1e300", not 301 digits.
fn number_text(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e15 || v.abs() < 1e-6) {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// `n` with thousands separators: 65535 → "65,535".
pub fn thousands(n: u64) -> String {
    let d = n.to_string();
    let mut out = String::with_capacity(d.len() + d.len() / 3);
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size field's allowed range, checked after parsing and shown in its messages.
#[derive(Clone, Copy, Debug)]
pub struct SizeRange {
    pub lo: u64,
    pub hi: u64,
}

impl SizeRange {
    /// "0 B to 65,535 B".
    pub fn text(&self) -> String {
        format!("{} B to {} B", thousands(self.lo), thousands(self.hi))
    }

    /// `field: 70000 B is out of range; use 0 B to 65,535 B` unless lo ≤ b ≤ hi.
    pub fn check(&self, field: &str, b: Bytes) -> Result<(), String> {
        if (self.lo..=self.hi).contains(&b.0) {
            Ok(())
        } else {
            Err(format!("{field}: {} B is out of range; use {}", number_text(b.0 as f64), self.text()))
        }
    }
}

/// What any size may be: up to a petabyte (a terabit/s link for 10^6 s moves 1.25e17 B,
/// but no experiment here needs a single transfer near that).
pub const ANY_SIZE: SizeRange = SizeRange { lo: 0, hi: 1_000_000_000_000_000 };
/// An IPv4 packet's 16-bit total length bounds every header and ACK.
pub const HEADER_SIZE: SizeRange = SizeRange { lo: 0, hi: 65_535 };

macro_rules! human_unit {
    ($name:ident, $what:literal, $example:literal, $pattern:literal, $parse:path, $show:path) => {
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        write!(f, "{} such as \"{}\"", $what, $example)
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        $parse(s).map_err(|bad| E::custom(bad.message(&format!("\"{}\"", s), s.trim(), $what, $example)))
                    }
                    fn visit_f64<E: de::Error>(self, v: f64) -> Result<$name, E> {
                        let text = number_text(v);
                        $parse(&text).map_err(|bad| E::custom(bad.message(&text, &text, $what, $example)))
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$name, E> {
                        self.visit_f64(v as f64)
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$name, E> {
                        self.visit_f64(v as f64)
                    }
                }
                d.deserialize_any(V)
            }
        }
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&$show(self))
            }
        }
        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({
                    "description": concat!($what, ", e.g. \"", $example, "\" (a bare number is in base units)"),
                    "anyOf": [
                        {"type": "string", "pattern": $pattern},
                        {"type": "number", "minimum": 0}
                    ]
                })
            }
        }
    };
}

/// A non-negative time span ("5 ms", "1.5 s", "200 us"; a bare number is seconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Duration(pub SimDuration);

/// The longest duration a scenario may give (about 11.6 days of simulated time). Time is
/// u64 nanoseconds (584 years), so sums of a few durations never overflow, and a run
/// longer than this is a typo, not an experiment: it bounds the work of any run.
pub const MAX_DURATION: SimDuration = SimDuration::from_secs(1_000_000);

const DURATION_RANGE: &str = "0 s to 1,000,000 s";

fn parse_duration(s: &str) -> Result<Duration, Bad> {
    if is_not_finite(s) {
        return Err(Bad::NotFinite(DURATION_RANGE));
    }
    let (v, unit) = split_number(s).ok_or(Bad::NotA)?;
    let scale = match unit {
        "" | "s" | "sec" | "secs" => 1e9,
        "ms" => 1e6,
        "us" | "µs" => 1e3,
        "ns" => 1.0,
        "min" => 60e9,
        _ => return Err(Bad::NotA),
    };
    if v.is_nan() {
        return Err(Bad::NotA);
    }
    if v < 0.0 {
        return Err(Bad::Below("0 s", DURATION_RANGE));
    }
    let ns = (v * scale).round();
    if ns > MAX_DURATION.as_nanos() as f64 {
        return Err(Bad::Range(DURATION_RANGE));
    }
    Ok(Duration(SimDuration(ns as u64)))
}

/// `ns` nanoseconds in the largest unit that shows them exactly ("4 us"), for messages.
pub fn duration_text(ns: u64) -> String {
    show_duration(&Duration(SimDuration(ns)))
}

/// The largest unit that shows the value exactly ("60 s", "500 ms", "3750 us").
fn show_duration(d: &Duration) -> String {
    let ns = d.0.as_nanos();
    match ns {
        n if n % 1_000_000_000 == 0 => format!("{} s", n / 1_000_000_000),
        n if n % 1_000_000 == 0 => format!("{} ms", n / 1_000_000),
        n if n % 1_000 == 0 => format!("{} us", n / 1_000),
        n => format!("{n} ns"),
    }
}

human_unit!(Duration, "a duration", "5 ms", r"^\s*[0-9.eE+-]+\s*(s|sec|secs|ms|us|µs|ns|min)?\s*$", parse_duration, show_duration);

impl Duration {
    pub fn from_millis(ms: u64) -> Self {
        Duration(SimDuration::from_millis(ms))
    }
    pub fn from_secs(s: u64) -> Self {
        Duration(SimDuration::from_secs(s))
    }
}

/// A bit rate ("2 Mbps", "384 kbps", "1 Gbps"; a bare number is bit/s). Decimal prefixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rate(pub u64);

/// The fastest link a scenario may give, 1 Tbps: serialization times stay whole
/// picoseconds' worth of nanoseconds apart, and no wireless link comes near.
pub const MAX_RATE: u64 = 1_000_000_000_000;

const RATE_RANGE: &str = "1 bps to 1 Tbps";

fn parse_rate(s: &str) -> Result<Rate, Bad> {
    if is_not_finite(s) {
        return Err(Bad::NotFinite(RATE_RANGE));
    }
    let (v, unit) = split_number(s).ok_or(Bad::NotA)?;
    let scale = match unit {
        "" | "bps" | "b/s" | "bit/s" => 1.0,
        "kbps" | "Kbps" | "kb/s" | "kbit/s" => 1e3,
        "Mbps" | "mbps" | "Mb/s" | "Mbit/s" => 1e6,
        "Gbps" | "gbps" | "Gb/s" | "Gbit/s" => 1e9,
        "Tbps" | "tbps" | "Tb/s" | "Tbit/s" => 1e12,
        _ => return Err(Bad::NotA),
    };
    let bps = (v * scale).round();
    if bps.is_nan() {
        return Err(Bad::NotA);
    }
    if bps < 1.0 {
        return Err(Bad::Below("1 bps", RATE_RANGE));
    }
    if bps > MAX_RATE as f64 {
        return Err(Bad::Range(RATE_RANGE));
    }
    Ok(Rate(bps as u64))
}

fn show_rate(r: &Rate) -> String {
    format!("{} bps", r.0)
}

human_unit!(Rate, "a bit rate", "2 Mbps", r"^\s*[0-9.eE+-]+\s*(bps|b/s|bit/s|kbps|Kbps|kb/s|kbit/s|Mbps|mbps|Mb/s|Mbit/s|Gbps|gbps|Gb/s|Gbit/s|Tbps|tbps|Tb/s|Tbit/s)?\s*$", parse_rate, show_rate);

/// A size in bytes ("1000 B", "64 KB", "16 MiB", "800 bits"; a bare number is bytes).
/// KB/MB are decimal, KiB/MiB binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u64);

const SIZE_RANGE: &str = "0 B to 1,000,000,000,000,000 B";

fn parse_bytes(s: &str) -> Result<Bytes, Bad> {
    if is_not_finite(s) {
        return Err(Bad::NotFinite(SIZE_RANGE));
    }
    let (v, unit) = split_number(s).ok_or(Bad::NotA)?;
    let scale = match unit {
        "" | "B" | "bytes" | "byte" => 1.0,
        "bits" | "bit" | "b" => 0.125,
        "KB" | "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(Bad::NotA),
    };
    let b = v * scale;
    if v.is_nan() {
        return Err(Bad::NotA);
    }
    if v < 0.0 {
        return Err(Bad::Below("0 B", SIZE_RANGE));
    }
    if b > ANY_SIZE.hi as f64 {
        return Err(Bad::Range(SIZE_RANGE));
    }
    if b.fract() != 0.0 {
        return Err(Bad::NotWhole("bytes"));
    }
    Ok(Bytes(b as u64))
}

fn show_bytes(b: &Bytes) -> String {
    format!("{} B", b.0)
}

human_unit!(Bytes, "a size in bytes", "1000 B", r"^\s*[0-9.eE+-]+\s*(B|bytes|byte|bits|bit|b|KB|kB|MB|GB|KiB|MiB|GiB)?\s*$", parse_bytes, show_bytes);

/// A queue limit: "100 packets" or a size in bytes ("64 KB").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueLimit {
    Packets(u64),
    Bytes(u64),
}

/// The longest queue, in packets: far past any buffer worth simulating, and its
/// storage is allocated as packets arrive, not up front.
pub const MAX_QUEUE_PACKETS: u64 = 1_000_000_000;

const QUEUE_PACKETS_RANGE: &str = "1 to 1,000,000,000 packets";
const QUEUE_BYTES_RANGE: &str = "1 B to 1,000,000,000,000,000 B (or 1 to 1,000,000,000 packets)";

fn parse_queue_limit(s: &str) -> Result<QueueLimit, Bad> {
    if is_not_finite(s) {
        return Err(Bad::NotFinite(QUEUE_PACKETS_RANGE));
    }
    let (v, unit) = split_number(s).ok_or(Bad::NotA)?;
    match unit {
        "packets" | "packet" | "pkts" | "p" => {
            if v.is_nan() {
                return Err(Bad::NotA);
            }
            if v < 1.0 {
                return Err(Bad::Below("1 packet", QUEUE_PACKETS_RANGE));
            }
            if v > MAX_QUEUE_PACKETS as f64 {
                return Err(Bad::Range(QUEUE_PACKETS_RANGE));
            }
            if v.fract() != 0.0 {
                return Err(Bad::NotWhole("packets"));
            }
            Ok(QueueLimit::Packets(v as u64))
        }
        _ => match parse_bytes(s) {
            Ok(Bytes(0)) => Err(Bad::Below("1 B", QUEUE_BYTES_RANGE)),
            Ok(b) => Ok(QueueLimit::Bytes(b.0)),
            Err(Bad::Below(_, _)) => Err(Bad::Below("1 B", QUEUE_BYTES_RANGE)),
            Err(Bad::Range(_)) => Err(Bad::Range(QUEUE_BYTES_RANGE)),
            Err(other) => Err(other),
        },
    }
}

fn show_queue_limit(q: &QueueLimit) -> String {
    match q {
        QueueLimit::Packets(n) => format!("{n} packets"),
        QueueLimit::Bytes(b) => format!("{b} B"),
    }
}

human_unit!(QueueLimit, "a queue limit", "100 packets", r"^\s*[0-9.eE+-]+\s*(packets|packet|pkts|p|B|bytes|KB|kB|MB|KiB|MiB)?\s*$", parse_queue_limit, show_queue_limit);

/// What a bare number in a unit field of type `unit_type` (the schema's name:
/// "Duration", "Rate", "Bytes", "QueueLimit") is read as, for a warning:
/// `5 is read as 5 s; write "5 s" (or "5 ms")`. None for other types, and for 0,
/// which means the same in every unit. A bare number is legal (sweeps set numbers), but
/// `delay = 5` meaning five seconds is almost surely a mistake (issue 27).
pub fn bare_number_note(unit_type: &str, v: f64) -> Option<String> {
    if v == 0.0 {
        return None;
    }
    let n = number_text(v);
    // The unit it is read in, and the one a small number more likely meant (a rate of
    // 2 is 2 bps, not 2 Mbps); past 1000 a rate or size in base units is plausible.
    let (unit, other) = match unit_type {
        "Duration" => ("s", Some("ms")),
        "Rate" => ("bps", (v < 1000.0).then_some("Mbps")),
        "Bytes" => ("B", (v < 1000.0).then_some("kB")),
        "QueueLimit" => ("B", Some("packets")),
        _ => return None,
    };
    let or = other.map_or_else(String::new, |o| format!(" (or \"{n} {o}\")"));
    Some(format!("{n} is read as {n} {unit}; write \"{n} {unit}\"{or}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn de<T: for<'de> Deserialize<'de>>(json: &str) -> Result<T, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn durations() {
        assert_eq!(de::<Duration>("\"5 ms\"").unwrap(), Duration::from_millis(5));
        assert_eq!(de::<Duration>("\"1.5s\"").unwrap().0, SimDuration::from_millis(1500));
        assert_eq!(de::<Duration>("0.2").unwrap(), Duration::from_millis(200));
        assert_eq!(de::<Duration>("\"200 us\"").unwrap().0, SimDuration::from_micros(200));
        let e = de::<Duration>("\"5 parsecs\"").unwrap_err();
        assert!(e.contains("\"5 parsecs\" is not a duration; use e.g. \"5 ms\""), "{e}");
        let cut = |e: String| e.split(" at line").next().unwrap_or("").to_string();
        assert_eq!(de::<Duration>("\"-1 s\"").map_err(cut).unwrap_err(), "-1 s must be ≥ 0 s; use 0 s to 1,000,000 s");
        assert_eq!(de::<Duration>("-1").map_err(cut).unwrap_err(), "-1 must be ≥ 0 s; use 0 s to 1,000,000 s");
        assert_eq!(de::<Duration>("\"inf s\"").map_err(cut).unwrap_err(), "inf s is not a finite number; use 0 s to 1,000,000 s");
        assert_eq!(de::<Duration>("\"NaN\"").map_err(cut).unwrap_err(), "NaN is not a finite number; use 0 s to 1,000,000 s");
    }

    #[test]
    fn negatives_name_the_least_value_and_the_range() {
        let cut = |e: String| e.split(" at line").next().unwrap_or("").to_string();
        assert_eq!(de::<Rate>("\"-5 Mbps\"").map_err(cut).unwrap_err(), "-5 Mbps must be ≥ 1 bps; use 1 bps to 1 Tbps");
        assert_eq!(de::<Rate>("0").map_err(cut).unwrap_err(), "0 must be ≥ 1 bps; use 1 bps to 1 Tbps");
        assert_eq!(de::<Bytes>("-1").map_err(cut).unwrap_err(), "-1 must be ≥ 0 B; use 0 B to 1,000,000,000,000,000 B");
        assert_eq!(de::<Bytes>("\"3 bits\"").map_err(cut).unwrap_err(), "\"3 bits\" is not a whole number of bytes; use e.g. \"1000 B\"");
        assert_eq!(de::<QueueLimit>("\"0 packets\"").map_err(cut).unwrap_err(), "0 packets must be ≥ 1 packet; use 1 to 1,000,000,000 packets");
        assert_eq!(de::<QueueLimit>("-5").map_err(cut).unwrap_err(), "-5 must be ≥ 1 B; use 1 B to 1,000,000,000,000,000 B (or 1 to 1,000,000,000 packets)");
        assert_eq!(de::<QueueLimit>("\"inf packets\"").map_err(cut).unwrap_err(), "inf packets is not a finite number; use 1 to 1,000,000,000 packets");
    }

    #[test]
    fn a_bare_number_is_read_in_base_units_and_noted() {
        assert_eq!(bare_number_note("Duration", 5.0).unwrap(), "5 is read as 5 s; write \"5 s\" (or \"5 ms\")");
        assert_eq!(bare_number_note("QueueLimit", 100.0).unwrap(), "100 is read as 100 B; write \"100 B\" (or \"100 packets\")");
        assert_eq!(bare_number_note("Duration", 0.0), None);
        assert_eq!(bare_number_note("TcpConfig", 5.0), None);
    }

    #[test]
    fn rates() {
        assert_eq!(de::<Rate>("\"2 Mbps\"").unwrap(), Rate(2_000_000));
        assert_eq!(de::<Rate>("\"384kbps\"").unwrap(), Rate(384_000));
        assert_eq!(de::<Rate>("1e9").unwrap(), Rate(1_000_000_000));
        let e = de::<Rate>("\"2 Mbsp\"").unwrap_err();
        assert!(e.contains("\"2 Mbsp\" is not a bit rate"), "{e}");
        assert!(de::<Rate>("\"0 bps\"").is_err());
    }

    #[test]
    fn sizes_and_queue_limits() {
        assert_eq!(de::<Bytes>("\"1000 B\"").unwrap(), Bytes(1000));
        assert_eq!(de::<Bytes>("\"64 KiB\"").unwrap(), Bytes(65536));
        assert_eq!(de::<Bytes>("\"800 bits\"").unwrap(), Bytes(100));
        assert!(de::<Bytes>("\"3 bits\"").is_err());
        assert_eq!(de::<QueueLimit>("\"100 packets\"").unwrap(), QueueLimit::Packets(100));
        assert_eq!(de::<QueueLimit>("\"64 KB\"").unwrap(), QueueLimit::Bytes(64_000));
        assert!(de::<QueueLimit>("\"0 packets\"").is_err());
    }

    #[test]
    fn quantities_that_do_not_fit_are_refused_with_the_range_never_saturated() {
        let cut = |e: String| e.split(" at line").next().unwrap_or("").to_string();
        assert_eq!(de::<Duration>("\"1e300 s\"").map_err(cut).unwrap_err(), "1e300 s is out of range; use 0 s to 1,000,000 s");
        assert_eq!(de::<Duration>("1e7").map_err(cut).unwrap_err(), "10000000 is out of range; use 0 s to 1,000,000 s");
        assert_eq!(de::<Duration>("\"1000000 s\"").unwrap().0, MAX_DURATION);
        assert_eq!(de::<Rate>("\"2 Tbps\"").map_err(cut).unwrap_err(), "2 Tbps is out of range; use 1 bps to 1 Tbps");
        assert_eq!(de::<Bytes>("\"1e30 B\"").map_err(cut).unwrap_err(), "1e30 B is out of range; use 0 B to 1,000,000,000,000,000 B");
        assert_eq!(de::<QueueLimit>("\"1e10 packets\"").map_err(cut).unwrap_err(), "1e10 packets is out of range; use 1 to 1,000,000,000 packets");
        assert_eq!(thousands(65_535), "65,535");
        assert_eq!(HEADER_SIZE.check("header", Bytes(70_000)).unwrap_err(), "header: 70000 B is out of range; use 0 B to 65,535 B");
    }

    #[test]
    fn durations_show_in_an_exact_unit() {
        assert_eq!(show_duration(&Duration::from_secs(60)), "60 s");
        assert_eq!(show_duration(&Duration(SimDuration::from_micros(3750))), "3750 us");
        assert_eq!(show_duration(&Duration::from_millis(1500)), "1500 ms");
    }

    #[test]
    fn round_trip_through_serialize() {
        let r: Rate = de("\"10 Mbps\"").unwrap();
        let back: Rate = de(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(r, back);
    }
}
