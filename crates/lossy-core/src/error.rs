//! The crate's one error type. Messages are single lines that name where the problem is.

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A scenario that cannot be run: `path: what is wrong, and what is allowed`.
    #[error("{path}: {message}")]
    Scenario { path: String, message: String },
    /// A whole-run invariant failed: a bug in the simulator, never the user's fault.
    #[error("invariant violated: {0}")]
    Invariant(String),
}

impl Error {
    pub fn scenario(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Scenario { path: path.into(), message: message.into() }
    }

    /// A message from a nested `validate()` that starts with its own field name
    /// ("p: 1.5 is not a probability") joins that name onto `path` ("links.1.loss.p").
    pub fn nested(path: &str, message: String) -> Self {
        match message.split_once(": ") {
            Some((field, rest)) if !field.is_empty() && field.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '[' || c == ']') => {
                Error::scenario(format!("{path}.{field}"), rest)
            }
            _ => Error::scenario(path, message),
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_messages_extend_the_path() {
        let e = Error::nested("links.1.loss", "p: 1.5 is not a probability".into());
        assert_eq!(e.to_string(), "links.1.loss.p: 1.5 is not a probability");
        let e = Error::nested("flows.0.app", "exactly one of packets or times".into());
        assert_eq!(e.to_string(), "flows.0.app: exactly one of packets or times");
    }
}
