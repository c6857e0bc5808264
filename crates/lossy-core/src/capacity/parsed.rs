//! A trace table's parsed contents, kept beside its `file` so a scenario's replications
//! and both directions share one parse of a large trace (a 1.9 Gbit/s Mahimahi trace of
//! a minute is millions of lines): read on first use, then cloned as an `Arc`.

use std::sync::{Arc, OnceLock};

#[derive(Debug)]
pub struct Parsed<T>(Arc<OnceLock<Result<Arc<T>, String>>>);

impl<T> Parsed<T> {
    /// The parsed value, parsing with `parse` on first use; its error is kept as well.
    pub fn get(&self, parse: impl FnOnce() -> Result<T, String>) -> Result<Arc<T>, String> {
        self.0.get_or_init(|| parse().map(Arc::new)).clone()
    }
}

impl<T> Default for Parsed<T> {
    fn default() -> Self {
        Parsed(Arc::default())
    }
}

impl<T> Clone for Parsed<T> {
    fn clone(&self) -> Self {
        Parsed(self.0.clone())
    }
}

/// A cache is no part of what a table says: two tables naming the same file are equal.
impl<T> PartialEq for Parsed<T> {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}
