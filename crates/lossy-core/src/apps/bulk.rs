//! An unlimited transfer: the application always has data (ns-2's FTP, ns-3's
//! BulkSend with MaxBytes 0).

use super::{App, AppConfig};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "bulk"`. An empty struct, not a unit variant: serde lets a unit variant of an
/// internally tagged enum accept unknown fields (`{kind = "bulk", size = "10 kB"}`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkApp {}

/// A flow with no `app` is a bulk transfer.
impl Default for AppConfig {
    fn default() -> Self {
        BulkApp {}.into()
    }
}

impl App for BulkApp {
    fn kind(&self) -> &'static str {
        "bulk"
    }
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
    fn total_bytes(&self) -> Option<u64> {
        None
    }
    fn is_stream(&self) -> bool {
        true
    }
}
