//! "A new scheme is one file and one enum line" (issue 26 item 1), family by family: the
//! source of each family is read and every scheme the family's generated list names
//! (`VARIANTS`) must be named only inside the family's directory — in its own files and
//! on its line of the family's lists — never by a consumer (`scenario/build.rs`,
//! `tcp/sender.rs`, ...). Test code and comments are left out of the reading.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, as (path relative to `src/`, code without tests,
/// comments and string literals).
fn sources() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut stack: Vec<PathBuf> = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.to_string_lossy().ends_with("_tests.rs") {
                let rel = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, code_of(&fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out
}

/// The file's code before its test module, without `//` comments and `"..."` strings.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let mut code = String::new();
        let mut chars = line.chars().peekable();
        let mut in_str = false;
        while let Some(c) = chars.next() {
            if in_str {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => in_str = false,
                    _ => {}
                }
            } else if c == '"' {
                in_str = true;
                code.push_str("\"\"");
            } else if c == '/' && chars.peek() == Some(&'/') {
                break;
            } else {
                code.push(c);
            }
        }
        out.push_str(&code);
        out.push('\n');
    }
    out
}

fn names_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

fn snake(name: &str) -> String {
    let mut s = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            s.push('_');
        }
        s.push(c.to_ascii_lowercase());
    }
    s
}

/// Checks one family: `dir` its directory under `src/`, `lists` its list files, each
/// variant's runtime type named as the variant and its table `<Variant>Config`, both
/// in files `<dir>/<snake variant>*.rs`. Returns what breaks the shape.
fn family_shape(dir: &str, lists: &[&str], variants: &[&str]) -> Vec<String> {
    let files = sources();
    let mut wrong = Vec::new();
    for v in variants {
        let own = format!("{dir}/{}", snake(v));
        if !files.contains_key(&format!("{own}.rs")) {
            wrong.push(format!("{v}: no file {own}.rs"));
        }
        for ty in [v.to_string(), format!("{v}Config")] {
            for (path, code) in &files {
                if path.starts_with(&own) {
                    continue;
                }
                for (n, line) in code.lines().enumerate() {
                    if !names_word(line, &ty) {
                        continue;
                    }
                    // A list line: `Variant(path::Type),`.
                    let list_line = lists.contains(&path.as_str()) && line.trim_start().starts_with(&format!("{v}("));
                    // Another scheme of the family may build on it (RED's FIFO is a DropTail).
                    let in_family = path.starts_with(&format!("{dir}/")) && !lists.contains(&path.as_str());
                    if !list_line && !in_family {
                        wrong.push(format!("{path}:{}: names {ty}: {}", n + 1, line.trim()));
                    }
                }
            }
        }
    }
    wrong
}

// ---- link layers and queue disciplines (issue 26 items 1 and 3) -------------------------

#[test]
fn a_link_layer_is_one_file_and_one_line_in_each_list() {
    use lossy_core::link::config::LinkLayerConfig;
    use lossy_core::link::AnyLinkLayer;
    assert_eq!(LinkLayerConfig::VARIANTS, AnyLinkLayer::VARIANTS, "every table builds its own link layer");
    let wrong = family_shape("link", &["link/mod.rs", "link/config.rs"], AnyLinkLayer::VARIANTS);
    assert!(wrong.is_empty(), "link layers named outside their own files:\n{}", wrong.join("\n"));
}

#[test]
fn a_queue_discipline_is_one_file_and_one_line_in_each_list() {
    use lossy_core::net::queue::{AnyQueueDisc, QueueDiscConfig};
    assert_eq!(QueueDiscConfig::VARIANTS, AnyQueueDisc::VARIANTS, "every table builds its own discipline");
    let wrong = family_shape("net/queue", &["net/queue/mod.rs"], AnyQueueDisc::VARIANTS);
    assert!(wrong.is_empty(), "queue disciplines named outside their own files:\n{}", wrong.join("\n"));
}

#[test]
fn the_shape_check_sees_a_consumer_that_matches_on_a_scheme() {
    // What the two tests above must catch: a consumer naming a variant.
    let code = code_of("fn f(c: &LinkLayerConfig) { if let LinkLayerConfig::Arq(a) = c {} } // Plain\n#[cfg(test)]\nmod t { Red }");
    assert!(names_word(&code, "Arq") && !names_word(&code, "Plain") && !names_word(&code, "Red"));
    assert!(!names_word("InstantArq ArqNak", "Arq"));
    assert_eq!(snake("AdaptiveFec"), "adaptive_fec");
}

// ---- end of link layers and queue disciplines --------------------------------------------
