//! Flow groups: `[[flow_groups]]` stands for `count` flows whose endpoints come from a
//! pattern (`to = "mh{i}"`) and whose start times are fixed, evenly spaced or drawn from
//! a named random stream, instead of 10,000 `[[flows]]` tables.
//!
//! Placeholders: `{i}` is the flow's index in the group (0-based) and `{i+K}` adds a
//! whole number K (`"mh{i+1}"` gives mh1, mh2, ...); nothing else goes in braces.

use crate::apps::AppConfig;
use crate::error::{Error, Result};
use crate::rng::RngStream;
use crate::tcp::TcpConfig;
use crate::transport::fectcp::FectcpConfig;
use super::Transport;
use crate::time::SimDuration;
use super::secs;
use crate::units::Duration;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;

/// The most flows one group may hold.
pub const MAX_GROUP_FLOWS: u64 = 1_000_000;

/// `count` flows from `from` to `to`, named `<name>.<i>`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowGroupConfig {
    /// The group's name; its flows are `<name>.0`, `<name>.1`, ...
    pub name: String,
    /// Flows in the group, 1 to 1,000,000.
    #[schemars(range(min = 1, max = 1_000_000))]
    pub count: u64,
    /// The sender node of flow i: a node name, or a pattern with `{i}` or `{i+K}`.
    pub from: String,
    /// The receiver node of flow i: a node name, or a pattern with `{i}` or `{i+K}`.
    pub to: String,
    /// When flow i starts: a duration (all at once), `{ every = "1 ms", first = "0 s" }`
    /// (first + i·every) or `{ uniform = ["0 s", "1 s"], stream = "flow-starts" }`.
    #[serde(default)]
    pub start: StartConfig,
    /// What each flow carries: bulk (the default), file or cbr.
    #[serde(default)]
    pub app: AppConfig,
    /// TCP options (ignored for UDP applications); `mss`, `header` and `ack_size` also
    /// size FECTCP's segments.
    #[serde(default)]
    pub tcp: TcpConfig,
    /// "tcp" (the default) or "fectcp", as a flow's `transport`.
    #[serde(default, skip_serializing_if = "Transport::is_tcp")]
    pub transport: Transport,
    /// FECTCP options (with `transport = "fectcp"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fectcp: Option<FectcpConfig>,
}

/// Start times of a group's flows.
#[derive(Clone, Debug, PartialEq)]
pub enum StartConfig {
    At(Duration),
    /// first + i·every.
    Every { every: Duration, first: Duration },
    /// Uniform on [a, b], one draw per flow in index order from the stream
    /// (seed, replication, `stream`); the stream defaults to `group:<name>:start`.
    Uniform { range: [Duration; 2], stream: Option<String> },
}

impl Default for StartConfig {
    fn default() -> Self {
        StartConfig::At(Duration::default())
    }
}

/// The table form of `start`, before its keys are checked against each other.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct StartTable {
    /// Start times drawn uniformly on [a, b], one per flow in index order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    uniform: Option<[Duration; 2]>,
    /// Name of the random stream of `uniform` (default `group:<name>:start`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stream: Option<String>,
    /// Flow i starts at first + i·every.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    every: Option<Duration>,
    /// Start of flow 0 with `every` (default 0 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    first: Option<Duration>,
}

const START_USE: &str = "use a duration, { every = \"1 ms\" } or { uniform = [\"0 s\", \"1 s\"], stream = \"flow-starts\" }";

impl<'de> Deserialize<'de> for StartConfig {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StartConfig;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(START_USE)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<StartConfig, E> {
                Duration::deserialize(v.into_deserializer()).map(StartConfig::At)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<StartConfig, E> {
                Duration::deserialize(v.into_deserializer()).map(StartConfig::At)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<StartConfig, E> {
                Duration::deserialize(v.into_deserializer()).map(StartConfig::At)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<StartConfig, E> {
                Duration::deserialize(v.into_deserializer()).map(StartConfig::At)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<StartConfig, A::Error> {
                let t = StartTable::deserialize(de::value::MapAccessDeserializer::new(map))?;
                match t {
                    StartTable { uniform: Some(range), stream, every: None, first: None } => Ok(StartConfig::Uniform { range, stream }),
                    StartTable { uniform: None, stream: None, every: Some(every), first } => {
                        Ok(StartConfig::Every { every, first: first.unwrap_or_default() })
                    }
                    _ => Err(de::Error::custom(format!("give `every` (with `first`) or `uniform` (with `stream`), not both or neither; {START_USE}"))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for StartConfig {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            StartConfig::At(d) => d.serialize(s),
            StartConfig::Every { every, first } => StartTable { uniform: None, stream: None, every: Some(*every), first: Some(*first) }.serialize(s),
            StartConfig::Uniform { range, stream } => StartTable { uniform: Some(*range), stream: stream.clone(), every: None, first: None }.serialize(s),
        }
    }
}

impl JsonSchema for StartConfig {
    fn schema_name() -> Cow<'static, str> {
        "StartConfig".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let at = g.subschema_for::<Duration>();
        let table = g.subschema_for::<StartTable>();
        json_schema!({
            "description": "When each flow of the group starts: a duration, { every, first } or { uniform = [a, b], stream }",
            "anyOf": [at, table]
        })
    }
}

/// A node-name pattern: literal text and `{i+K}` placeholders.
#[derive(Debug)]
pub(crate) struct Pattern {
    parts: Vec<Part>,
    pub text: String,
}

#[derive(Debug)]
enum Part {
    Text(String),
    Index(u64),
}

impl Pattern {
    /// Parses `text`; `path` names the field for errors.
    pub fn parse(path: &str, text: &str) -> Result<Pattern> {
        let bad = |what: &str| Error::scenario(path, format!("\"{text}\" {what}; use {{i}} or {{i+K}} (K a whole number), e.g. \"mh{{i}}\""));
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find(['{', '}']) {
            if rest.as_bytes()[open] == b'}' {
                return Err(bad("has a `}` without a `{`"));
            }
            let Some(len) = rest[open..].find('}') else { return Err(bad("has a `{` without a `}`")) };
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_string()));
            }
            let inner: String = rest[open + 1..open + len].chars().filter(|c| !c.is_whitespace()).collect();
            let offset = match inner.strip_prefix('i') {
                Some("") => 0,
                Some(k) => k.strip_prefix('+').and_then(|k| k.parse::<u64>().ok()).filter(|&k| k <= u32::MAX as u64).ok_or_else(|| bad(&format!("has {{{inner}}}")))?,
                None => return Err(bad(&format!("has {{{inner}}}"))),
            };
            parts.push(Part::Index(offset));
            rest = &rest[open + len + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_string()));
        }
        Ok(Pattern { parts, text: text.to_string() })
    }

    /// The node name of flow `i`, written into `out`.
    pub fn render(&self, i: u64, out: &mut String) {
        use std::fmt::Write;
        out.clear();
        for p in &self.parts {
            match p {
                Part::Text(t) => out.push_str(t),
                Part::Index(k) => write!(out, "{}", i + k).expect("a String takes any text"),
            }
        }
    }
}

/// `count` start offsets of group `g` (from its `start`), each at most `limit`.
pub(crate) fn start_times(g: usize, group: &FlowGroupConfig, seed: u64, replication: u64, limit: SimDuration) -> Result<Vec<SimDuration>> {
    let n = group.count;
    let path = |f: &str| format!("flow_groups.{g}.start{f}");
    let times: Vec<SimDuration> = match &group.start {
        StartConfig::At(d) => vec![d.0; n as usize],
        StartConfig::Every { every, first } => {
            let last = every.0.as_nanos().checked_mul(n - 1).and_then(|x| x.checked_add(first.0.as_nanos()));
            if last.is_none_or(|l| l > limit.as_nanos()) {
                let at = last.map_or(first.0.as_secs_f64() + every.0.as_secs_f64() * (n - 1) as f64, secs);
                return Err(Error::scenario(
                    path(".every"),
                    format!("flow {} would start at {at} s, past the limit of {} s; use a shorter spacing", n - 1, secs(limit.as_nanos())),
                ));
            }
            (0..n).map(|i| SimDuration::from_nanos(first.0.as_nanos() + i * every.0.as_nanos())).collect()
        }
        StartConfig::Uniform { range: [a, b], stream } => {
            if a > b {
                let (a, b) = (secs(a.0.as_nanos()), secs(b.0.as_nanos()));
                return Err(Error::scenario(path(".uniform"), format!("[{a} s, {b} s] is not a range; use [a, b] with a <= b")));
            }
            let name = stream.clone().unwrap_or_else(|| format!("group:{}:start", group.name));
            let mut rng = RngStream::new(seed, replication, &name);
            let span = (b.0.as_nanos() - a.0.as_nanos()) as f64;
            // Rounded to the nanosecond; u < 1, so b itself is reached only by rounding.
            (0..n).map(|_| SimDuration::from_nanos(a.0.as_nanos() + (span * rng.uniform()).round() as u64)).collect()
        }
    };
    Ok(times)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(p: &str, i: u64) -> String {
        let mut s = String::new();
        Pattern::parse("x", p).unwrap().render(i, &mut s);
        s
    }

    #[test]
    fn patterns_fill_in_the_index_and_offset() {
        assert_eq!(render("mh{i}", 7), "mh7");
        assert_eq!(render("mh{i+1}", 7), "mh8");
        assert_eq!(render("{ i + 10 }x", 0), "10x");
        assert_eq!(render("server", 99), "server");
        for bad in ["mh{j}", "mh{i", "mh}", "mh{i-1}", "mh{i+}"] {
            let e = Pattern::parse("flow_groups.0.to", bad).unwrap_err().to_string();
            assert!(e.starts_with(&format!("flow_groups.0.to: \"{bad}\" has")), "{e}");
        }
    }

    fn group(start: &str) -> FlowGroupConfig {
        let json = format!(r#"{{"name": "g", "count": 4, "from": "a", "to": "b{{i}}", "start": {start}}}"#);
        serde_json::from_str(&json).unwrap()
    }

    #[test]
    fn start_times_fixed_spaced_and_uniform() {
        let lim = SimDuration::from_secs(1_000_000);
        let ms = |v: u64| SimDuration::from_millis(v);
        assert_eq!(start_times(0, &group(r#""2 s""#), 1, 0, lim).unwrap(), vec![ms(2000); 4]);
        let every = group(r#"{"every": "1 ms", "first": "5 ms"}"#);
        assert_eq!(start_times(0, &every, 1, 0, lim).unwrap(), vec![ms(5), ms(6), ms(7), ms(8)]);
        let uni = group(r#"{"uniform": ["1 s", "2 s"], "stream": "flow-starts"}"#);
        let a = start_times(0, &uni, 1, 0, lim).unwrap();
        assert!(a.iter().all(|t| (ms(1000)..=ms(2000)).contains(t)), "{a:?}");
        assert_eq!(a, start_times(0, &uni, 1, 0, lim).unwrap(), "same seed, same draws");
        assert_ne!(a, start_times(0, &uni, 2, 0, lim).unwrap());
        // The draws are the named stream's: u·(b − a) + a, rounded to the nanosecond.
        let mut rng = RngStream::new(1, 0, "flow-starts");
        assert_eq!(a[0].as_nanos(), 1_000_000_000 + (1e9 * rng.uniform()).round() as u64);
    }

    #[test]
    fn bad_start_tables_say_what_is_allowed() {
        let e = serde_json::from_str::<FlowGroupConfig>(r#"{"name": "g", "count": 1, "from": "a", "to": "b", "start": {"every": "1 ms", "uniform": ["0 s", "1 s"]}}"#).unwrap_err().to_string();
        assert!(e.contains("give `every` (with `first`) or `uniform`"), "{e}");
        let e = start_times(0, &group(r#"{"uniform": ["2 s", "1 s"]}"#), 1, 0, SimDuration::from_secs(10)).unwrap_err().to_string();
        assert_eq!(e, "flow_groups.0.start.uniform: [2 s, 1 s] is not a range; use [a, b] with a <= b");
        let e = start_times(0, &group(r#"{"every": "5 s"}"#), 1, 0, SimDuration::from_secs(10)).unwrap_err().to_string();
        assert!(e.starts_with("flow_groups.0.start.every: flow 3 would start at 15 s, past the limit of 10 s"), "{e}");
    }
}
