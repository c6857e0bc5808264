// ---- Result metrics (issue 26 item 2): a scheme's counters are named in its own
// file (its `report`, and its `Columns` when every row has them), never in the code
// that assembles, tabulates or converts the rows.

use lossy_core::net::link_columns::LINK_COLUMNS;
use lossy_core::transport::fectcp::FectcpReport;
use lossy_core::transport::flow_columns::FLOW_COLUMNS;

/// The files that build rows (and traces) into results, tables and Python objects.
const ROW_CONSUMERS: &[&str] = &["src/result.rs", "src/run.rs", "src/columns.rs", "src/aggregate.rs", "src/metrics.rs", "src/trace.rs", "../lossy-py/src/lib.rs"];

/// Whether `code` has `name` as a string ("name") or as a field (`name:` in a struct's
/// declaration or literal); an access such as `tally.duplicated` is another struct's.
fn names_field_or_string(code: &str, name: &str) -> bool {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    code.match_indices(name).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = &code[i + name.len()..];
        let (next, next2) = (after.chars().next(), after.chars().nth(1));
        !ident(before) && !ident(next) && ((before == Some('"') && next == Some('"')) || (next == Some(':') && next2 != Some(':')))
    })
}

#[test]
fn metrics_no_row_consumer_names_a_schemes_metric_or_imports_a_scheme() {
    let declared: Vec<&str> = FLOW_COLUMNS.iter().chain(LINK_COLUMNS).chain([FectcpReport::COLUMNS].iter()).flat_map(|l| l.iter().map(|(n, _)| *n)).collect();
    assert!(declared.len() > 40, "{declared:?}");
    for file in ROW_CONSUMERS {
        let src = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        // Test modules may name examples; the code above them may not.
        let code = src.split("#[cfg(test)]").next().unwrap();
        for name in &declared {
            assert!(!names_field_or_string(code, name), "{file} names the metric {name}");
        }
        for module in ["crate::tcp", "crate::transport::fectcp", "crate::transport::udp", "crate::link", "crate::net::wlan", "crate::net::queue", "lossy_core::tcp"] {
            assert!(!code.contains(module), "{file} uses {module}");
        }
    }
}

/// Every declared column is set by some scheme's report (a declaration nobody fills would
/// be a column of defaults), and names are unique within a table.
#[test]
fn metrics_every_declared_column_is_filled_in_a_schemes_file() {
    let src_dir = format!("{}/src", env!("CARGO_MANIFEST_DIR"));
    let mut sources = String::new();
    let mut stack = vec![std::path::PathBuf::from(&src_dir)];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                sources += &std::fs::read_to_string(&p).unwrap();
            }
        }
    }
    for table in [FLOW_COLUMNS, LINK_COLUMNS, &[FectcpReport::COLUMNS]] {
        let names: Vec<&str> = table.iter().flat_map(|l| l.iter().map(|(n, _)| *n)).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "a name declared twice: {names:?}");
        for name in names {
            assert!(sources.contains(&format!("set(\"{name}\"")), "nothing sets the declared column {name}");
        }
    }
}
