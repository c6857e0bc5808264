//! Per-family shape tests (issue 26 item 1): a new scheme of a family is one file and
//! one line in the family's list. Each test reads the crate's sources and checks that
//! every scheme of its family is named only in its own file and in the family's list
//! file, so that a consumer (`scenario/build.rs`, `tcp/sender.rs`, ...) that names a
//! scheme, or matches on the list's variants, fails it. Test code is not read.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/`, with its test code cut off (a `#[cfg(test)]` module
/// at the end of the file, and the `*_tests.rs`/`tests.rs` files it includes).
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("src is readable") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files
        .into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            !(name.ends_with("_tests.rs") || name == "tests.rs")
        })
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("source is text");
            let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
            (p.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/"), code)
        })
        .collect()
}

/// Whether `word` occurs in `text` as a whole identifier.
fn names(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// Checks one family: each scheme type (from the list's variant names) is defined in
/// one file, named elsewhere only in `list_file` (on the list's line `Variant(Type)`),
/// and no file but the list file writes a variant path `Enum::Variant`.
fn assert_family_shape(family: &str, enum_name: &str, variants: &[&str], type_of: impl Fn(&str) -> String, list_file: &str) {
    let files = sources();
    let list = &files.iter().find(|(p, _)| p == list_file).unwrap_or_else(|| panic!("{list_file} is missing")).1;
    assert!(!variants.is_empty(), "{family}: no variants");
    for v in variants {
        let ty = type_of(v);
        let defined: Vec<&str> = files.iter().filter(|(_, t)| t.contains(&format!("pub struct {ty}"))).map(|(p, _)| p.as_str()).collect();
        assert_eq!(defined.len(), 1, "{family}: {ty} should be defined in exactly one file, found {defined:?}");
        let own = defined[0];
        let elsewhere: Vec<&str> = files.iter().filter(|(p, t)| p != own && p != list_file && names(t, &ty)).map(|(p, _)| p.as_str()).collect();
        assert!(elsewhere.is_empty(), "{family}: {ty} is named outside its own file {own} and the list {list_file}: {elsewhere:?}; a consumer must go through the family's trait");
        assert!(list.contains(&format!("{v}({ty})")), "{family}: the list in {list_file} has no line {v}({ty})");
        let path = format!("{enum_name}::{v}");
        let matched: Vec<&str> = files.iter().filter(|(p, t)| p != list_file && names(t, &path)).map(|(p, _)| p.as_str()).collect();
        assert!(matched.is_empty(), "{family}: {path} is written in {matched:?}; only the list may name the variants");
    }
}

// ---- transports and applications (issue 26 items 1 and 3) -----------------------

#[test]
fn a_new_transport_is_one_file_and_one_line_in_the_list() {
    use lossy_core::transport::AnyTransport;
    assert_family_shape("transport", "AnyTransport", AnyTransport::VARIANTS, |v| format!("{v}Transport"), "transport/mod.rs");
}

#[test]
fn a_new_application_is_one_file_and_one_line_in_the_list() {
    use lossy_core::apps::AppConfig;
    assert_family_shape("app", "AppConfig", AppConfig::VARIANTS, |v| format!("{v}App"), "apps/mod.rs");
}

#[test]
fn the_shape_check_catches_a_consumer_that_names_a_scheme() {
    // The check itself can fail: a consumer's text naming a scheme is found.
    let consumer = "match t { AnyTransport::Tcp(x) => x.name(), _ => \"\" } // TcpTransport";
    assert!(names(consumer, "AnyTransport::Tcp") && names(consumer, "TcpTransport"));
    assert!(!names("FectcpTransportish", "FectcpTransport"));
}
// ---- end of transports and applications -----------------------------------------
