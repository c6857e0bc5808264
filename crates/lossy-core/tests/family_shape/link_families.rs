// ---- link layers and queue disciplines (link/, net/queue/) ----------------------------
use crate::source_reading::{code_of, names as names_word, snake, sources};

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
                    // A list line: `module::Variant(Type, ConfigType),`.
                    let list_line = lists.contains(&path.as_str()) && line.trim_start().starts_with(&format!("{}::{v}(", snake(v)));
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
fn a_link_layer_is_named_only_in_its_files_and_its_lists() {
    use lossy_core::link::config::LinkLayerConfig;
    use lossy_core::link::AnyLinkLayer;
    assert_eq!(LinkLayerConfig::VARIANTS, AnyLinkLayer::VARIANTS, "every table builds its own link layer");
    let wrong = family_shape("link", &["link/mod.rs", "link/config.rs"], AnyLinkLayer::VARIANTS);
    assert!(wrong.is_empty(), "link layers named outside their own files:\n{}", wrong.join("\n"));
}

#[test]
fn a_queue_discipline_is_named_only_in_its_files_and_its_lists() {
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
