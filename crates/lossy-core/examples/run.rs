//! Runs a scenario given as JSON on stdin: `cargo run --release --example run -- SEED`.
use std::io::Read;

fn main() {
    let mut json = String::new();
    std::io::stdin().read_to_string(&mut json).expect("stdin");
    let seed = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    match lossy_core::run_json(&json, seed, 0) {
        Ok(r) => println!("{}", r.to_json()),
        Err(e) => {
            eprintln!("lossy: {e}");
            std::process::exit(2);
        }
    }
}
