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
}

pub type Result<T> = std::result::Result<T, Error>;
