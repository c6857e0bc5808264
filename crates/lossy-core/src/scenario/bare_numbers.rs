//! Bare numbers in unit fields: `delay = 5` is legal (a bare number is in base units,
//! so sweeps can set numbers) but means five seconds, almost surely a mistake for
//! "5 ms" (issue 27). Each one found becomes a one-line warning naming the field:
//! `links.0.delay: 5 is read as 5 s; write "5 s" (or "5 ms")`.
//!
//! The scenario's JSON Schema (built from the same serde structs) says which fields are
//! durations, rates, sizes or queue limits; the document is walked beside it, choosing a
//! tagged table's variant by its `kind`/`model`, so the path is the field's own even
//! inside tables that serde buffers (where serde_path_to_error loses it).

use super::Scenario;
use crate::units::bare_number_note;
use serde_json::Value;
use std::sync::OnceLock;

/// The most bare-number warnings one scenario gets; past it, one line counts the rest
/// (a generated scenario with thousands of links must not print thousands of lines).
const MOST_WARNINGS: usize = 5;

pub(super) fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| serde_json::to_value(schemars::schema_for!(Scenario)).expect("the schema is JSON"))
}

/// The warnings for the bare numbers in unit fields of scenario `text` (JSON), table by
/// table (keys in sorted order within one), each `<field>: <what it is read as>`. Text that is not JSON gets none
/// (parsing it reports the error).
pub fn bare_number_warnings(text: &str) -> Vec<String> {
    let Ok(doc) = serde_json::from_str::<Value>(text) else { return Vec::new() };
    let root = schema();
    let mut found = Vec::new();
    walk(root, root, &doc, "", &mut found);
    if found.len() > MOST_WARNINGS {
        let more = found.len() - (MOST_WARNINGS - 1);
        found.truncate(MOST_WARNINGS - 1);
        found.push(format!("{more} more unit fields hold bare numbers, read in base units (s, bps, B); write each with its unit"));
    }
    found
}

/// Records in `out` the bare numbers of `v` (at dotted `path`) under `schema`.
fn walk(root: &Value, schema: &Value, v: &Value, path: &str, out: &mut Vec<String>) {
    if let Some(name) = schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
        // A number, or a string holding only one (`delay = "5"`, as `lossy generate --duration 5` wrote).
        let bare = match v {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse::<f64>().ok().filter(|x| x.is_finite()),
            _ => None,
        };
        {
            if let Some(note) = bare.and_then(|x| bare_number_note(name, x)) {
                let line = format!("{path}: {note}");
                if !out.contains(&line) {
                    out.push(line);
                }
                return;
            }
        }
        if let Some(def) = root.get("$defs").and_then(|d| d.get(name)) {
            walk(root, def, v, path, out);
        }
        return;
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for alt in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
            if tag_matches(root, alt, v) {
                walk(root, alt, v, path, out);
            }
        }
    }
    let join = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    match v {
        Value::Object(m) => {
            let props = schema.get("properties");
            let extra = schema.get("additionalProperties").filter(|a| a.is_object());
            for (k, x) in m {
                if let Some(s) = props.and_then(|p| p.get(k)).or(extra) {
                    walk(root, s, x, &join(k), out);
                }
            }
        }
        Value::Array(items) => {
            let each = schema.get("prefixItems").or_else(|| schema.get("items"));
            for (i, x) in items.iter().enumerate() {
                let s = match each {
                    Some(Value::Array(per)) => per.get(i),
                    other => other,
                };
                if let Some(s) = s {
                    walk(root, s, x, &join(&i.to_string()), out);
                }
            }
        }
        _ => {}
    }
}

/// Whether alternative `alt` of a tagged table is the one `v` picks: every property
/// `alt` fixes (`kind = "arq"`, `model = "bernoulli"`) has that value in `v`.
pub(super) fn tag_matches(root: &Value, alt: &Value, v: &Value) -> bool {
    let alt = match alt.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
        Some(name) => root.get("$defs").and_then(|d| d.get(name)).unwrap_or(alt),
        None => alt,
    };
    let Some(props) = alt.get("properties").and_then(Value::as_object) else { return true };
    props.iter().filter_map(|(k, p)| Some((k, p.get("const")?))).all(|(k, c)| v.get(k) == Some(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NET: &str = r#""nodes": ["a", "b"], "flows": [{"from": "a", "to": "b"}]"#;

    fn warnings(links: &str) -> Vec<String> {
        let text = format!(r#"{{{NET}, "links": [{links}]}}"#);
        crate::scenario::parse_json(&text).unwrap();
        bare_number_warnings(&text)
    }

    #[test]
    fn a_bare_number_in_a_unit_field_is_named_by_its_field() {
        assert_eq!(
            warnings(r#"{"between": ["a", "b"], "rate": "2 Mbps", "delay": 5}"#),
            ["links.0.delay: 5 is read as 5 s; write \"5 s\" (or \"5 ms\")"]
        );
        assert_eq!(
            warnings(r#"{"between": ["a", "b"], "rate": 2000000, "delay": "5 ms", "queue": 100}"#),
            [
                "links.0.queue: 100 is read as 100 B; write \"100 B\" (or \"100 packets\")",
                "links.0.rate: 2000000 is read as 2000000 bps; write \"2000000 bps\""
            ]
        );
    }

    #[test]
    fn a_unitless_string_is_a_bare_number_too() {
        assert_eq!(
            warnings(r#"{"between": ["a", "b"], "rate": "2 Mbps", "delay": "5"}"#),
            ["links.0.delay: 5 is read as 5 s; write \"5 s\" (or \"5 ms\")"]
        );
    }

    #[test]
    fn units_given_zero_and_plain_numbers_are_not_warned_about() {
        let links = r#"{"between": ["a", "b"], "rate": "2 Mbps", "delay": 0, "loss": {"model": "bernoulli", "p": 0.5}}"#;
        assert!(warnings(links).is_empty(), "{:?}", warnings(links));
    }

    #[test]
    fn fields_inside_tagged_tables_are_found_by_their_variant() {
        let links = r#"{"between": ["a", "b"], "rate": "2 Mbps", "delay": "5 ms",
            "link_layer": {"kind": "arq", "payload": 32, "attempts": 4, "nak": {"delay": 0.5}}}"#;
        assert_eq!(
            warnings(links),
            [
                "links.0.link_layer.nak.delay: 0.5 is read as 0.5 s; write \"0.5 s\" (or \"0.5 ms\")",
                "links.0.link_layer.payload: 32 is read as 32 B; write \"32 B\" (or \"32 kB\")"
            ]
        );
    }

    #[test]
    fn many_bare_numbers_end_in_one_line_that_counts_the_rest() {
        let links: Vec<String> = (0..10).map(|i| format!(r#"{{"between": ["a", "b"], "rate": "2 Mbps", "delay": {}}}"#, i + 1)).collect();
        let text = format!(r#"{{{NET}, "links": [{}]}}"#, links.join(", "));
        let w = bare_number_warnings(&text);
        assert_eq!(w.len(), MOST_WARNINGS);
        assert_eq!(w[MOST_WARNINGS - 1], "6 more unit fields hold bare numbers, read in base units (s, bps, B); write each with its unit");
    }
}
