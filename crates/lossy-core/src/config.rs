//! Small utilities for reading config tables, below every module that has one (the
//! scenario, loss models, link layers), so none of them imports another for them.

/// A table parsed on its own (a loss table, Miyoshi's packet stream) from JSON text; an
/// error reads `<prefix>.<field path>: what is wrong`, without the parts that are empty.
pub(crate) fn parse_table<T: serde::de::DeserializeOwned>(text: &str, prefix: &str) -> std::result::Result<T, String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = dotted(e.path());
        let inner = e.into_inner().to_string();
        // serde_json appends where in the text it was; the field path says it better.
        let message = inner.split(" at line ").next().unwrap_or(&inner);
        let field: Vec<&str> = [prefix, path.as_str()].into_iter().filter(|p| !p.is_empty()).collect();
        if field.is_empty() { message.to_string() } else { format!("{}: {message}", field.join(".")) }
    })
}

/// The path in `--set` notation: `links.1.loss.p`, never `links[1].loss.p`.
pub fn dotted(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let segs: Vec<String> = path
        .iter()
        .filter_map(|s| match s {
            Segment::Seq { index } => Some(index.to_string()),
            Segment::Map { key } => Some(key.clone()),
            Segment::Enum { .. } | Segment::Unknown => None,
        })
        .collect();
    segs.join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        p: f64,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        items: Vec<Inner>,
    }

    #[test]
    fn an_error_names_the_prefix_and_the_dotted_field_path_without_the_position() {
        let e = parse_table::<Outer>(r#"{"items": [{"p": 1}, {"p": "x"}]}"#, "loss").unwrap_err();
        assert!(e.starts_with("loss.items.1.p: invalid type"), "{e}");
        assert!(!e.contains(" at line "), "{e}");
        // No prefix: the path alone (serde_path_to_error puts an unknown key in it).
        let e = parse_table::<Inner>(r#"{"q": 1}"#, "").unwrap_err();
        assert_eq!(e, "q: unknown field `q`, expected `p`");
    }
}
