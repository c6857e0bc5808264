//! Prints a trace of a scenario given as JSON on stdin as CSV: `trace_dump NAME`.
use lossy_core::result::Column;
use std::io::Read;

fn main() {
    let mut json = String::new();
    std::io::stdin().read_to_string(&mut json).expect("stdin");
    let name = std::env::args().nth(1).unwrap_or_else(|| "cwnd".into());
    let r = lossy_core::run_json(&json, 1, 0).unwrap_or_else(|e| panic!("{e}"));
    let t = r.traces.iter().find(|t| t.name == name).expect("trace switched on");
    println!("{}", t.columns.iter().map(|c| c.0).collect::<Vec<_>>().join(","));
    let n = match &t.columns[0].1 { Column::F64(v) => v.len(), _ => 0 };
    for i in 0..n {
        let row: Vec<String> = t.columns.iter().map(|(_, c)| match c {
            Column::F64(v) => v[i].to_string(),
            Column::U32(v) => v[i].to_string(),
            Column::U8(v) => v[i].to_string(),
        }).collect();
        println!("{}", row.join(","));
    }
}
