//! Loss processes (placeholder; being written).
