// ---- transports and apps (transport/, apps/) ----------------------------------------
// Per-family shape tests (issue 26 item 1): a new scheme of a family is one file and
// one line in the family's list. Each test reads the crate's sources and checks that
// every scheme of its family is named only in its own file and in the family's list
// file, so that a consumer (`scenario/build.rs`, `tcp/sender.rs`, ...) that names a
// scheme, or matches on the list's variants, fails it. Test code is not read.
use crate::source_reading::{names, sources};

/// Checks one family: each scheme type (from the list's variant names) is defined in
/// one file, named elsewhere only in `list_file` (on the list's line `module::Variant(Type, ..)`),
/// and no file but the list file writes a variant path `Enum::Variant`.
fn assert_family_shape(family: &str, enum_name: &str, variants: &[&str], type_of: impl Fn(&str) -> String, list_file: &str) {
    let files = sources();
    let list = files.get(list_file).unwrap_or_else(|| panic!("{list_file} is missing"));
    assert!(!variants.is_empty(), "{family}: no variants");
    for v in variants {
        let ty = type_of(v);
        let defined: Vec<&str> = files.iter().filter(|(_, t)| t.contains(&format!("pub struct {ty}"))).map(|(p, _)| p.as_str()).collect();
        assert_eq!(defined.len(), 1, "{family}: {ty} should be defined in exactly one file, found {defined:?}");
        let own = defined[0];
        let elsewhere: Vec<&str> = files.iter().filter(|(p, t)| *p != own && *p != list_file && names(t, &ty)).map(|(p, _)| p.as_str()).collect();
        assert!(elsewhere.is_empty(), "{family}: {ty} is named outside its own file {own} and the list {list_file}: {elsewhere:?}; a consumer must go through the family's trait");
        let line = list.lines().find(|l| l.contains(&format!("::{v}("))).unwrap_or_else(|| panic!("{family}: the list in {list_file} has no line {v}(...)"));
        assert!(names(line, &ty), "{family}: the list's line {v}(...) in {list_file} does not hold {ty}");
        let path = format!("{enum_name}::{v}");
        let matched: Vec<&str> = files.iter().filter(|(p, t)| *p != list_file && names(t, &path)).map(|(p, _)| p.as_str()).collect();
        assert!(matched.is_empty(), "{family}: {path} is written in {matched:?}; only the list may name the variants");
    }
}

// ---- transports and applications (issue 26 items 1 and 3) -----------------------

#[test]
fn a_transport_is_named_only_in_its_files_and_its_lists() {
    use lossy_core::transport::AnyTransport;
    assert_family_shape("transport", "AnyTransport", AnyTransport::VARIANTS, |v| format!("{v}Transport"), "transport/mod.rs");
}

#[test]
fn an_application_is_named_only_in_its_files_and_its_lists() {
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
