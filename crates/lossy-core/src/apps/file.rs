//! A transfer of a given size; its completion time is recorded.

use super::App;
use crate::units::Bytes;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "file"`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileApp {
    /// Bytes to transfer.
    pub size: Bytes,
}

impl App for FileApp {
    fn kind(&self) -> &'static str {
        "file"
    }
    fn validate(&self) -> Result<(), String> {
        if self.size.0 == 0 {
            return Err("size: 0 B is not a transfer; use at least 1 B".into());
        }
        Ok(())
    }
    fn total_bytes(&self) -> Option<u64> {
        Some(self.size.0)
    }
    fn is_stream(&self) -> bool {
        true
    }
}
