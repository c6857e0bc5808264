// ---- congestion control and loss recovery (tcp/cc, tcp/recovery) ------------------------
use crate::source_reading::{code_of as code, names, snake, sources};
use lossy_core::tcp::cc::AnyCongestionControl;
use lossy_core::tcp::recovery::AnyLossRecovery;
use std::collections::BTreeMap;

/// What breaks a family's shape: `dir` its directory, `list` the file holding its
/// closed list and the config's build, `enum_name` the list, `extra` files outside
/// `dir` that may name a scheme (the scenario's choices), `variants` the list's names
/// (each the name of its scheme's type). A scheme is its own file `dir/<snake>.rs`;
/// outside it, only the family's files (the list, and schemes built on another) and
/// `extra` name it; and only the list file dispatches on the list.
fn shape(files: &BTreeMap<String, String>, dir: &str, list: &str, enum_name: &str, extra: &[&str], variants: &[&str]) -> Vec<String> {
    let mut wrong = Vec::new();
    for v in variants {
        let own = format!("{dir}/{}.rs", snake(v));
        if !files.contains_key(&own) {
            wrong.push(format!("{v}: no file {own}"));
        }
        for (path, code) in files {
            if path.starts_with(&format!("{dir}/")) || extra.contains(&path.as_str()) {
                continue;
            }
            for (n, line) in code.lines().enumerate().filter(|(_, l)| names(l, v)) {
                wrong.push(format!("{path}:{}: names {v}: {}", n + 1, line.trim()));
            }
        }
    }
    let dispatch = [format!("{enum_name}::"), format!("each_{}!", snake(enum_name).trim_start_matches("any_"))];
    for (path, code) in files.iter().filter(|(p, _)| p.as_str() != list) {
        for (n, line) in code.lines().enumerate() {
            if dispatch.iter().any(|d| line.contains(d.as_str())) {
                wrong.push(format!("{path}:{}: dispatches on {enum_name}: {}", n + 1, line.trim()));
            }
        }
    }
    wrong
}

#[test]
fn a_congestion_control_is_named_only_in_its_files_and_its_lists() {
    let files = sources();
    let wrong = shape(&files, "tcp/cc", "tcp/cc/mod.rs", "AnyCongestionControl", &[], AnyCongestionControl::VARIANTS);
    assert!(wrong.is_empty(), "congestion controls named outside their family:\n{}", wrong.join("\n"));
}

#[test]
fn a_loss_recovery_is_named_only_in_its_files_and_its_lists() {
    let files = sources();
    // tcp/config.rs lists `tcp.variant`'s values, some named as the schemes are;
    // tcp/cc/mod.rs lists `tcp.cc`'s, where `reno` is the window rule of that name
    // (Linux's), not this family's Reno.
    let wrong = shape(&files, "tcp/recovery", "tcp/recovery/mod.rs", "AnyLossRecovery", &["tcp/config.rs", "tcp/cc/mod.rs"], AnyLossRecovery::VARIANTS);
    assert!(wrong.is_empty(), "loss recoveries named outside their family:\n{}", wrong.join("\n"));
    // Item 4: no cycle between the tcp config and the sender or the families it
    // chooses from. The config imports the sender nowhere; it holds `tcp.cc`'s
    // tables and `tcp.variant`'s values, each its family's list, so it imports those
    // families, and neither family imports the config.
    let config = &files["tcp/config.rs"];
    for module in ["sender"] {
        assert!(!config.contains(&format!("super::{module}")) && !config.contains(&format!("tcp::{module}")), "tcp/config.rs imports {module}");
    }
    for (path, code) in files.iter().filter(|(p, _)| p.starts_with("tcp/cc/") || p.starts_with("tcp/recovery/")) {
        assert!(!code.contains("super::config") && !code.contains("tcp::config") && !code.contains("super::super::config"), "{path} imports tcp/config.rs");
    }
}

#[test]
fn the_shape_check_catches_a_consumer_that_matches_on_a_scheme() {
    let mut files = BTreeMap::new();
    files.insert("tcp/recovery/sack.rs".to_string(), code("pub struct Sack;"));
    files.insert("tcp/recovery/mod.rs".to_string(), code("each_loss_recovery!(self, r => r.on_timeout(st))"));
    let clean = shape(&files, "tcp/recovery", "tcp/recovery/mod.rs", "AnyLossRecovery", &[], &["Sack"]);
    assert!(clean.is_empty(), "{clean:?}");
    let consumer = "if let AnyLossRecovery::Sack(s) = &self.recovery { s.pipe() } // SackRules\n#[cfg(test)]\nSack";
    files.insert("tcp/sender.rs".to_string(), code(consumer));
    let wrong = shape(&files, "tcp/recovery", "tcp/recovery/mod.rs", "AnyLossRecovery", &[], &["Sack"]);
    assert_eq!(wrong.len(), 2, "{wrong:?}");
    assert!(wrong[0].starts_with("tcp/sender.rs:1: names Sack") && wrong[1].contains("dispatches on AnyLossRecovery"), "{wrong:?}");
    files.insert("tcp/sender.rs".to_string(), code("each_loss_recovery!(self.recovery, r => r.pipe())"));
    assert_eq!(shape(&files, "tcp/recovery", "tcp/recovery/mod.rs", "AnyLossRecovery", &[], &["Sack"]).len(), 1);
    files.remove("tcp/recovery/sack.rs");
    assert!(shape(&files, "tcp/recovery", "tcp/recovery/mod.rs", "AnyLossRecovery", &[], &["Sack"])[0].contains("no file tcp/recovery/sack.rs"));
}
