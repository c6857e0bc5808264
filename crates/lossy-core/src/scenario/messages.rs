//! serde's words → the user's: one place that turns a parse error into one line naming
//! the leaf field in `--set` notation (`links.1.loss.p`), the value and what is allowed.
//!
//! Two things need repair. serde speaks Rust ("invalid type: string \"x\", expected
//! u64", "internally tagged enum AppConfig"); and inside an internally tagged enum
//! (`loss = { model = ... }`, `app = { kind = ... }`) serde buffers the table, so the
//! path stops at the table: we find the leaf again by looking for the offending key or
//! value in the table itself.

use crate::units::{SizeRange, HEADER_SIZE};
use serde_json::Value;

/// `path` (dotted) and serde's `raw` message → (path to the leaf, message in plain words).
pub(super) fn humanize(doc: Option<&Value>, path: &str, raw: &str) -> (String, String) {
    let raw = tidy(raw);
    let table = doc.and_then(|d| lookup(d, path));
    // A plain enum given something that is not a string (`tcp.variant = 1`): serde says
    // only "expected value".
    if raw == "expected value" {
        let given = table.map_or_else(|| "this value".to_string(), |v| v.to_string());
        let names = plain_enum_names(path).map_or_else(|| "one of the names it takes".to_string(), |n| format!("one of: {}", n.join(", ")));
        return (path.to_string(), format!("{given} is not allowed; use {names}"));
    }
    // "unknown field `size`, expected one of `rate`, ..." / "..., there are no fields"
    if let Some(rest) = raw.strip_prefix("unknown field `") {
        let (field, tail) = rest.split_once('`').unwrap_or((rest, ""));
        let allowed = names_after(tail);
        let leaf = match table.and_then(|t| nested_key(t, field)) {
            Some(inner) => format!("{path}.{inner}"),
            None => join(path, field, table.is_some_and(|t| t.get(field).is_some())),
        };
        let use_ = if allowed.is_empty() { "this table takes no other keys".to_string() } else { format!("use one of: {}", allowed.join(", ")) };
        // "unknown field `q`" stays word for word: the sweep spec finds which axis set it.
        return (leaf, format!("unknown field `{field}`; {use_}"));
    }
    if let Some(rest) = raw.strip_prefix("missing field `") {
        let field = rest.split('`').next().unwrap_or(rest);
        // An empty (or comments-only) file: say so, not only that `nodes` is missing.
        if path.is_empty() && table.and_then(Value::as_object).is_some_and(|m| m.is_empty()) {
            return (field.to_string(), "missing: the scenario is empty; give nodes = [...], at least one [[links]] and one [[flows]] table".to_string());
        }
        let what = match (field, kinds_of(path)) {
            ("kind" | "model", Some(kinds)) => format!("missing; give {field} = one of: {}", kinds.join(", ")),
            _ => "missing; this key is required".to_string(),
        };
        return (join(path, field, true), what);
    }
    if let Some(rest) = raw.strip_prefix("unknown variant `") {
        let (value, tail) = rest.split_once('`').unwrap_or((rest, ""));
        // Inside a tagged table (`queue = { kind = "red", mode = "frames" }`) the path
        // stops at the table: find the key that holds the value.
        let leaf = table.map_or_else(|| path.to_string(), |t| find_leaf(t, path, value));
        return (leaf, format!("\"{value}\" is not allowed; use one of: {}", names_after(tail).join(", ")));
    }
    if let Some(rest) = raw.strip_prefix("invalid length ") {
        let (n, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        let items = if n == "1" { "item" } else { "items" };
        return (path.to_string(), format!("{n} {items} given; use {}", expected_words(expected, path)));
    }
    // A unit's range answer ("is out of range", "must be ≥", "is not a finite number"):
    // a size field narrower than any size gives its own range instead.
    for verb in [" is out of range; use ", " must be ≥ ", " is not a finite number; use "] {
        let Some((value, _)) = raw.split_once(verb) else { continue };
        let leaf = table.map_or_else(|| path.to_string(), |t| find_leaf(t, path, value));
        if let Some(r) = size_range(&leaf) {
            let what = match verb {
                " must be ≥ " => format!("must be ≥ {} B", crate::units::thousands(r.lo)),
                other => other.trim_end_matches("; use ").trim().to_string(),
            };
            return (leaf, format!("{value} {what}; use {}", r.text()));
        }
        return (leaf, raw.to_string());
    }
    let (found, expected) = match raw.strip_prefix("invalid type: ").or_else(|| raw.strip_prefix("invalid value: ")) {
        Some(rest) => match rest.split_once(", expected ") {
            Some((f, e)) => (Some(found_value(f)), e.to_string()),
            None => (None, rest.to_string()),
        },
        None => (None, String::new()),
    };
    let leaf = match (&found, table) {
        (Some(v), Some(t)) => find_leaf(t, path, v),
        // A custom message from a unit such as "\"2 Mbsp\" is not a bit rate".
        (None, Some(t)) => find_leaf(t, path, raw.split(" is ").next().unwrap_or("")),
        _ => path.to_string(),
    };
    let Some(found) = found else { return (leaf, raw.to_string()) };
    // NaN and infinities reach the core as text (JSON cannot carry them; the Python side
    // sends `nan` as "nan"): said as numbers, with the field's range.
    let non_finite = ["\"nan\"", "\"inf\"", "\"-inf\""].contains(&found.as_str()) && matches!(expected.as_str(), "f64" | "f32");
    if non_finite {
        let range = doc.and_then(|d| super::field_schema::number_range(d, &leaf)).unwrap_or_else(|| "a finite number".to_string());
        return (leaf, format!("{} is not a finite number; use {range}", found.trim_matches('"')));
    }
    let allowed = match count_range(&leaf) {
        Some(range) if expected.starts_with('u') => range.to_string(),
        // A plain number with bounds in the schema (`p` in [0, 1]) says them.
        _ if matches!(expected.as_str(), "f64" | "f32") => {
            doc.and_then(|d| super::field_schema::number_range(d, &leaf)).unwrap_or_else(|| expected_words(&expected, path))
        }
        _ => expected_words(&expected, path),
    };
    (leaf, format!("{found} is not allowed; use {allowed}"))
}

/// Drops serde_json's " at line 1 column 57" (the JSON is generated, not the user's).
fn tidy(message: &str) -> &str {
    message.rfind(" at line ").map_or(message, |i| &message[..i])
}

/// `a`, `b` and `c` from "expected one of `a`, `b`, `c`" or "expected `a`".
fn names_after(tail: &str) -> Vec<&str> {
    tail.split('`').skip(1).step_by(2).collect()
}

/// `path.field`, or `path` when the field is not (visibly) in the table.
fn join(path: &str, field: &str, present: bool) -> String {
    if path.is_empty() {
        field.to_string()
    } else if present || !path.ends_with(field) {
        format!("{path}.{field}")
    } else {
        path.to_string()
    }
}

/// The value at dotted `path` in the scenario document.
fn lookup<'v>(doc: &'v Value, path: &str) -> Option<&'v Value> {
    if path.is_empty() {
        return Some(doc);
    }
    path.split('.').try_fold(doc, |v, seg| match v {
        Value::Object(m) => m.get(seg),
        Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

/// "string \"x\"" → "\"x\"", "integer `3`" → "3", "floating point `1.5`" → "1.5".
fn found_value(f: &str) -> String {
    if let Some(s) = f.strip_prefix("string ") {
        return s.to_string();
    }
    if let Some(v) = f.split('`').nth(1) {
        // serde writes a float as "1e+300": the user wrote "1e300".
        return v.replace("e+", "e");
    }
    match f {
        "map" => "a table".into(),
        "sequence" => "a list".into(),
        "null" => "nothing".into(),
        other => other.to_string(),
    }
}

/// The key of `table` whose value is the offending one, if exactly one is; failing
/// that, the one such key of a table nested in it (`nak.delay` in a tagged
/// `link_layer` table, which serde buffers whole).
fn find_leaf(table: &Value, path: &str, found: &str) -> String {
    let Value::Object(m) = table else { return path.to_string() };
    let holds = |v: &Value| match v {
        Value::String(s) => found == format!("\"{s}\"") || found == s.as_str(),
        Value::Number(n) => found.parse::<f64>().ok().is_some_and(|x| Some(x) == n.as_f64()),
        Value::Bool(b) => found == if *b { "true" } else { "false" },
        Value::Array(_) => found == "a list",
        Value::Object(_) => found == "a table",
        Value::Null => false,
    };
    let hits: Vec<String> = m.iter().filter(|(_, v)| holds(v)).map(|(k, _)| k.clone()).collect();
    let nested = || -> Vec<String> {
        m.iter()
            .filter_map(|(k, v)| Some((k, v.as_object()?)))
            .flat_map(|(k, inner)| inner.iter().filter(|(_, v)| holds(v)).map(move |(j, _)| format!("{k}.{j}")))
            .collect()
    };
    match (hits.as_slice(), hits.is_empty().then(nested).as_deref()) {
        ([k], _) | ([], Some([k])) => format!("{path}.{k}"),
        _ => path.to_string(),
    }
}

/// `inner.field` when `field` is not a key of `table` but of exactly one table nested in
/// it (an unknown key of `link_layer.nak`).
fn nested_key(table: &Value, field: &str) -> Option<String> {
    let m = table.as_object().filter(|m| !m.contains_key(field))?;
    let mut hits = m.iter().filter(|(_, v)| v.get(field).is_some()).map(|(k, _)| format!("{k}.{field}"));
    let first = hits.next()?;
    hits.next().is_none().then_some(first)
}

/// serde's "expected ..." in words a user knows.
fn expected_words(expected: &str, path: &str) -> String {
    let e = expected.trim();
    if e.starts_with("internally tagged enum") {
        let tag = if path.ends_with("loss") { "model" } else { "kind" };
        return match kinds_of(path) {
            Some(k) => format!("a table with {tag} = one of: {}", k.join(", ")),
            None => format!("a table with a {tag}"),
        };
    }
    if let Some(n) = e.strip_prefix("an array of length ").or_else(|| e.strip_prefix("a tuple of size ")) {
        return format!("a list of {n} items");
    }
    match e {
        // A tag (`kind = 5`, `model = 1`): the names the table takes.
        "variant identifier" => kinds_of(path).map_or_else(|| "a name".to_string(), |k| format!("one of: {}", k.join(", "))),
        "u8" => "a whole number from 0 to 255".into(),
        "u16" => "a whole number from 0 to 65,535".into(),
        "u32" => "a whole number from 0 to 4,294,967,295".into(),
        "u64" | "usize" => "a whole number >= 0".into(),
        "i8" | "i16" | "i32" | "i64" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a boolean" | "bool" => "true or false".into(),
        "a string" => "a string".into(),
        "a sequence" => "a list".into(),
        "a map" => "a table".into(),
        _ if e.starts_with("struct ") => "a table".into(),
        _ => e.to_string(),
    }
}

/// A size field narrower than any size, by its table and key.
fn size_range(path: &str) -> Option<SizeRange> {
    let mut segs = path.rsplit('.');
    let (key, table) = (segs.next()?, segs.next()?);
    Some(match (table, key) {
        ("tcp", "mss") => crate::tcp::config::MSS,
        ("tcp", "header") | ("app", "header") => HEADER_SIZE,
        ("tcp", "ack_size") => crate::tcp::config::ACK_SIZE,
        ("app", "packet_size") => crate::apps::PACKET_SIZE,
        _ => return None,
    })
}

/// The range of a count that is narrower than any whole number, by its table and key.
fn count_range(path: &str) -> Option<&'static str> {
    let mut segs = path.rsplit('.').filter(|s| s.parse::<usize>().is_err());
    match (segs.next()?, segs.next()?) {
        ("count", "flow_groups") => Some("a whole number from 1 to 1,000,000"),
        // 0 is refused by TcpConfig::validate: the range advertised is the one accepted.
        ("initial_window" | "dupack_threshold" | "eln_dupack_threshold", "tcp") => Some(crate::tcp::config::SEGMENT_COUNT),
        // Counts whose validate() refuses 0 ("sends nothing") likewise.
        ("attempts", "link_layer" | "reverse_link_layer") | ("initial_window", "fectcp") | ("window", "adaptive_fec" | "control") => {
            Some("a whole number from 1 to 4,294,967,295")
        }
        ("packets", "app") => Some("a whole number >= 1"),
        _ => None,
    }
}

/// The names a plain (untagged) enum field takes, read from serde as `variants` does.
fn plain_enum_names(path: &str) -> Option<Vec<String>> {
    let names = |e: serde_json::Error| names_after(e.to_string().split_once("expected")?.1).into_iter().map(String::from).collect::<Vec<_>>().into();
    let probe = r#""\u0000""#;
    match path.rsplit('.').next()? {
        "variant" => serde_json::from_str::<crate::tcp::LossRecoveryConfig>(probe).err().and_then(names),
        "unit" => serde_json::from_str::<crate::channel::gilbert::GilbertUnit>(probe).err().and_then(names),
        _ => None,
    }
}

/// The kinds (or loss models) a tagged table at `path` can have.
fn kinds_of(path: &str) -> Option<Vec<String>> {
    use crate::{agents::AgentConfig, apps::AppConfig, channel::LossConfig, net::queue::QueueDiscConfig, scenario::ActionConfig};
    // The table's own name, also when the path already ends at its tag (`app.kind`).
    let last = path.split('.').rev().find(|s| s.parse::<usize>().is_err() && !matches!(*s, "kind" | "model"))?;
    match last {
        "app" => variants::<AppConfig>("kind"),
        "loss" | "reverse_loss" => variants::<LossConfig>("model"),
        "queue" => variants::<QueueDiscConfig>("kind"),
        "agents" => variants::<AgentConfig>("kind"),
        "actions" => variants::<ActionConfig>("kind"),
        _ => None,
    }
}

/// The variant names of a tagged enum, read from serde's own "unknown variant" message
/// so that a new variant is listed with no edit here.
fn variants<T: serde::de::DeserializeOwned>(tag: &str) -> Option<Vec<String>> {
    let e = serde_json::from_str::<T>(&format!(r#"{{"{tag}": "\u0000"}}"#)).err()?.to_string();
    Some(names_after(e.split_once("expected")?.1).into_iter().map(String::from).collect())
}
