//! JSON text → `Scenario`, with the field path of any error (serde_path_to_error).

use super::Scenario;
use crate::error::{Error, Result};

/// Parses a scenario from JSON (Python converts TOML to JSON first).
pub fn parse_json(text: &str) -> Result<Scenario> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { "scenario".to_string() } else { path };
        Error::scenario(path, tidy(&e.into_inner().to_string()))
    })
}

/// Drops serde_json's " at line 1 column 57" (the JSON is generated, not the user's).
fn tidy(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// The JSON Schema of a scenario, for editors and `lossy schema`.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Scenario);
    serde_json::to_string_pretty(&schema).expect("schema serialises")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: &str = r#"{"nodes": ["a", "b"], "links": [{"between": ["a", "b"], "rate": "2 Mbps", "delay": "5 ms"}],
        "flows": [{"from": "a", "to": "b"}]}"#;

    #[test]
    fn minimal_scenario_parses_with_defaults() {
        let s = parse_json(MIN).unwrap();
        assert_eq!(s.links[0].rate.0, 2_000_000);
        assert_eq!(s.duration.0.as_secs_f64(), 100.0);
    }

    #[test]
    fn errors_name_the_field_path() {
        let bad = MIN.replace("2 Mbps", "2 Mbsp");
        let e = parse_json(&bad).unwrap_err().to_string();
        assert_eq!(e, r#"links[0].rate: "2 Mbsp" is not a bit rate; use e.g. "2 Mbps""#);
        let bad = MIN.replace(r#""from": "a""#, r#""from": "a", "speed": 3"#);
        let e = parse_json(&bad).unwrap_err().to_string();
        assert!(e.starts_with("flows[0].speed: unknown field `speed`"), "{e}");
    }

    #[test]
    fn schema_lists_the_top_level_fields() {
        let s: serde_json::Value = serde_json::from_str(&schema_json()).unwrap();
        for f in ["nodes", "links", "flows", "agents", "traces", "duration"] {
            assert!(s["properties"][f].is_object(), "{f}");
        }
    }
}
