//! A field's schema found by its dotted path, through the scenario's JSON Schema (the
//! same one `lossy schema` prints): what a plain number field allows, for messages that
//! would otherwise say only "use a number" (issue 27: name the field's range).

use super::bare_numbers::{schema, tag_matches};
use serde_json::Value;

/// "a number from 0 to 1" for a number field at dotted `path` of `doc` whose schema
/// gives a minimum or a maximum; None when it gives neither or is not a number.
pub(super) fn number_range(doc: &Value, path: &str) -> Option<String> {
    let root = schema();
    let mut here = leaves(root, root, Some(doc));
    let mut value = Some(doc);
    for seg in path.split('.').filter(|s| !s.is_empty()) {
        let child = value.and_then(|v| match v {
            Value::Object(m) => m.get(seg),
            Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        });
        let mut next = Vec::new();
        for s in &here {
            let under = s.get("properties").and_then(|p| p.get(seg)).or_else(|| {
                let items = s.get("prefixItems").or_else(|| s.get("items"))?;
                match items {
                    Value::Array(per) => seg.parse::<usize>().ok().and_then(|i| per.get(i)),
                    other => Some(other),
                }
            });
            if let Some(u) = under {
                next.extend(leaves(root, u, child));
            }
        }
        here = next;
        value = child;
    }
    let number = here.into_iter().find(|s| s.get("type").and_then(Value::as_str) == Some("number"))?;
    let bound = |key: &str| number.get(key).and_then(Value::as_f64);
    match (bound("minimum"), bound("maximum")) {
        (Some(lo), Some(hi)) => Some(format!("a number from {lo} to {hi}")),
        (Some(lo), None) => Some(format!("a number >= {lo}")),
        (None, Some(hi)) => Some(format!("a number <= {hi}")),
        (None, None) => None,
    }
}

/// `schema` with its `$ref`s resolved and its alternatives (those `v` picks, by tag)
/// flattened: the schemas that may describe `v`.
fn leaves<'s>(root: &'s Value, schema: &'s Value, v: Option<&Value>) -> Vec<&'s Value> {
    if let Some(name) = schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
        return root.get("$defs").and_then(|d| d.get(name)).map_or_else(Vec::new, |d| leaves(root, d, v));
    }
    let mut out = vec![schema];
    for key in ["anyOf", "oneOf", "allOf"] {
        for alt in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
            if v.is_none_or(|v| tag_matches(root, alt, v)) {
                out.extend(leaves(root, alt, v));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_number_fields_range_comes_from_its_schema() {
        let doc = json!({"links": [{"loss": {"model": "bernoulli", "p": "x"}}]});
        assert_eq!(number_range(&doc, "links.0.loss.p").as_deref(), Some("a number from 0 to 1"));
        assert_eq!(number_range(&doc, "links.0.loss.model"), None);
        assert_eq!(number_range(&doc, "links.0.nothing.here"), None);
    }
}
