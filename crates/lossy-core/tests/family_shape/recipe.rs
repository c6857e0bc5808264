// ---- the recipe: a new scheme is its file and one line (issue 26, "Done when") ---------
// For every family, each scheme's names — its module (the file named after it), the
// types and value its list line names, and its variants' paths (`LossConfig::Ber`) — are
// read from the family's `family!` list and must appear, outside the scheme's own files,
// on exactly one line: its line in the list. Other schemes' files may build on it (SNR
// on BER, RED on DropTail, sack1 on SACK); nothing else may name it, but for the known
// debts each family lists (consumers that know one existing scheme, which a new scheme
// does not touch). So adding a scheme touches its file and one list line, no more.
use crate::source_reading::{code_of, names, sources};
use std::collections::{BTreeMap, BTreeSet};

/// One line of a `family!` list: `module::Variant(Type, ConfigType) + [parts]`.
#[derive(Debug, PartialEq)]
struct Scheme {
    module: String,
    variant: String,
    /// The types (and value) in the parentheses, `Box<..>` and `_` left out.
    types: Vec<String>,
}

/// The lines of the `family!` list in `code` (comments already cut).
fn schemes(code: &str) -> Vec<Scheme> {
    let body = code.split("schemes {").nth(1).expect("a family! list with `schemes {`");
    let mut out = Vec::new();
    for line in body.lines().map(str::trim) {
        if line == "}" {
            break;
        }
        let Some((module, rest)) = line.split_once("::") else { continue };
        let Some((variant, rest)) = rest.split_once('(') else { continue };
        if !module.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') || module.is_empty() {
            continue;
        }
        let inner = rest.split(')').next().unwrap_or_default();
        let types = inner
            .split(',')
            .map(|t| t.trim().trim_start_matches("Box<").trim_end_matches('>').to_string())
            .filter(|t| !t.is_empty() && t != "_")
            .collect();
        out.push(Scheme { module: module.to_string(), variant: variant.to_string(), types });
    }
    out
}

/// A family: its directory under `src/`, its list file, the module path a file outside
/// writes before a scheme's module (`queue` for `crate::net::queue::red`), its lists'
/// enum names (for variant paths) and their variants (what the list must declare).
struct Family<'a> {
    dir: &'a str,
    list: &'a str,
    parent: &'a str,
    enums: &'a [&'a str],
    variants: Vec<&'a str>,
}

/// Whether `path` is one of `module`'s own files in `dir`: `module.rs`, `module_*.rs`
/// or under `module/`.
fn own(path: &str, dir: &str, module: &str) -> bool {
    let Some(rest) = path.strip_prefix(&format!("{dir}/")) else { return false };
    rest == format!("{module}.rs") || rest.starts_with(&format!("{module}_")) || rest.starts_with(&format!("{module}/"))
}

/// Whether `line` of the file `path` names the module: within the family's directory
/// as a word not after `crate::` (another top-level module), outside as `parent::module`.
fn names_module(line: &str, path: &str, f: &Family, module: &str) -> bool {
    if path.starts_with(&format!("{}/", f.dir)) {
        // As a path (`ber::ErrorGaps`, `super::ber`, `mod ber`), not a variable `ber`.
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        line.match_indices(module).any(|(i, _)| {
            let (before, after) = (&line[..i], &line[i + module.len()..]);
            let as_path = after.starts_with("::") || before.ends_with("super::") || before.trim_end().ends_with("mod");
            !ident(before.chars().next_back()) && !ident(after.chars().next()) && !before.ends_with("crate::") && as_path
        })
    } else {
        names(line, &format!("{}::{module}", f.parent))
    }
}

/// What breaks the recipe, as (file, name) pairs: a name of a scheme on a line
/// outside its files (and other schemes' files) other than its one list line, and a
/// list whose lines are not the enums' variants.
fn recipe(files: &BTreeMap<String, String>, f: &Family) -> BTreeSet<(String, String)> {
    let mut wrong = BTreeSet::new();
    let list = schemes(&files[f.list]);
    let declared: BTreeSet<&str> = list.iter().map(|s| s.variant.as_str()).collect();
    let want: BTreeSet<&str> = f.variants.iter().copied().collect();
    if declared != want {
        wrong.insert((f.list.to_string(), format!("lines {declared:?}, variants {want:?}")));
    }
    for s in &list {
        if !files.keys().any(|p| own(p, f.dir, &s.module) && !p.contains(&format!("{}_", s.module))) {
            wrong.insert((format!("{}/{}.rs", f.dir, s.module), "missing".to_string()));
        }
        let others = |p: &str| list.iter().any(|o| o.module != s.module && own(p, f.dir, &o.module));
        let paths: Vec<String> = f.enums.iter().map(|e| format!("{e}::{}", s.variant)).collect();
        for (path, code) in files.iter().filter(|(p, _)| !own(p, f.dir, &s.module) && !others(p)) {
            for line in code.lines() {
                let mut named: Vec<&str> = s.types.iter().map(String::as_str).chain(paths.iter().map(String::as_str)).filter(|n| names(line, n)).collect();
                if names_module(line, path, f, &s.module) {
                    named.push(&s.module);
                }
                let list_line = path == f.list && line.trim_start().starts_with(&format!("{}::{}(", s.module, s.variant));
                if !named.is_empty() && !list_line {
                    wrong.extend(named.into_iter().map(|n| (path.clone(), n.to_string())));
                }
            }
        }
        let lines = files[f.list].lines().filter(|l| l.trim_start().starts_with(&format!("{}::{}(", s.module, s.variant))).count();
        if lines != 1 {
            wrong.insert((f.list.to_string(), format!("{} list lines for {}", lines, s.variant)));
        }
    }
    wrong
}

fn check(f: Family, known: &[(&str, &str)]) {
    let found = recipe(&sources(), &f);
    let known: BTreeSet<(String, String)> = known.iter().map(|(p, n)| (p.to_string(), n.to_string())).collect();
    let new: Vec<_> = found.difference(&known).collect();
    let paid: Vec<_> = known.difference(&found).collect();
    assert!(new.is_empty(), "{}: a scheme named outside its file and its one list line (a new scheme must touch only those): {new:?}", f.dir);
    assert!(paid.is_empty(), "{}: no longer found, remove from the known debts: {paid:?}", f.dir);
}

fn union<'a>(lists: &[&'a [&'a str]]) -> Vec<&'a str> {
    let mut all: Vec<&str> = lists.iter().flat_map(|l| l.iter().copied()).collect();
    all.sort();
    all.dedup();
    all
}

#[test]
fn recipe_a_loss_model_is_its_file_and_one_line() {
    use lossy_core::channel::{Channel, LossConfig};
    let f = Family { dir: "channel", list: "channel/mod.rs", parent: "channel", enums: &["LossConfig", "Channel"], variants: union(&[LossConfig::VARIANTS, Channel::VARIANTS]) };
    // The consumers that know one model (`markov_fit` of a Rayleigh channel into a
    // Gilbert chain; `lossy.loss`'s Neyman closed form), as the shape test lists them.
    check(f, &[
        ("scenario/build.rs", "Gilbert"),
        ("scenario/build.rs", "LossConfig::Gilbert"),
        ("scenario/build.rs", "Rayleigh"),
        ("scenario/build.rs", "LossConfig::Rayleigh"),
        ("scenario/markov_fit.rs", "GilbertConfig"),
        ("scenario/markov_fit.rs", "RayleighConfig"),
        ("scenario/markov_fit.rs", "gilbert"),
        ("channel/fit.rs", "LossConfig::Rayleigh"),
        ("channel/fit.rs", "Rayleigh"),
        ("channel/fit.rs", "RayleighConfig"),
        ("channel/sequence.rs", "LossConfig::Neyman"),
        ("channel/sequence.rs", "Neyman"),
        // A bad `unit` is explained from Gilbert's own enum.
        ("scenario/messages.rs", "gilbert"),
    ]);
}

#[test]
fn recipe_an_agent_is_its_file_and_one_line() {
    use lossy_core::agents::{AgentConfig, AnyAgent};
    check(Family { dir: "agents", list: "agents/mod.rs", parent: "agents", enums: &["AgentConfig", "AnyAgent"], variants: union(&[AgentConfig::VARIANTS, AnyAgent::VARIANTS]) }, &[]);
}

#[test]
fn recipe_a_link_layer_is_its_file_and_one_line() {
    use lossy_core::link::{AnyLinkLayer, LinkLayerConfig};
    check(Family { dir: "link", list: "link/mod.rs", parent: "link", enums: &["LinkLayerConfig", "AnyLinkLayer"], variants: union(&[LinkLayerConfig::VARIANTS, AnyLinkLayer::VARIANTS]) }, &[]);
}

#[test]
fn recipe_a_queue_discipline_is_its_file_and_one_line() {
    use lossy_core::net::queue::{AnyQueueDisc, QueueDiscConfig};
    check(Family { dir: "net/queue", list: "net/queue/mod.rs", parent: "queue", enums: &["QueueDiscConfig", "AnyQueueDisc"], variants: union(&[QueueDiscConfig::VARIANTS, AnyQueueDisc::VARIANTS]) }, &[]);
}

#[test]
fn recipe_a_loss_recovery_is_its_file_and_one_line() {
    use lossy_core::tcp::recovery::{AnyLossRecovery, LossRecoveryConfig};
    let variants = union(&[LossRecoveryConfig::VARIANTS, AnyLossRecovery::VARIANTS]);
    // `reno` is also the window rule of that name (Linux's), on its line in tcp/cc.
    check(Family { dir: "tcp/recovery", list: "tcp/recovery/mod.rs", parent: "recovery", enums: &["LossRecoveryConfig", "AnyLossRecovery"], variants }, &[("tcp/cc/mod.rs", "Reno")]);
}

#[test]
fn recipe_a_congestion_control_is_its_file_and_one_line() {
    use lossy_core::tcp::cc::{AnyCongestionControl, CongestionControlConfig};
    let variants = union(&[CongestionControlConfig::VARIANTS, AnyCongestionControl::VARIANTS]);
    check(Family { dir: "tcp/cc", list: "tcp/cc/mod.rs", parent: "cc", enums: &["CongestionControlConfig", "AnyCongestionControl"], variants }, &[]);
}

#[test]
fn recipe_a_transport_is_its_file_and_one_line() {
    use lossy_core::transport::{AnyTransport, Transport};
    let f = Family { dir: "transport", list: "transport/mod.rs", parent: "transport", enums: &["Transport", "AnyTransport"], variants: union(&[Transport::VARIANTS, AnyTransport::VARIANTS]) };
    // UDP is the datagram carrier whatever a flow asks (`Transport::carrier`), not a
    // choice; FECTCP's own table is a field of a flow (`fectcp = {...}`), which the
    // scenario's flow tables declare and `FlowEnds` hands over.
    check(f, &[
        ("transport/mod.rs", "UdpTransport"),
        ("transport/mod.rs", "fectcp"),
        ("scenario/mod.rs", "fectcp"),
        ("scenario/groups.rs", "fectcp"),
        ("scenario/flows.rs", "fectcp"),
        ("scenario/limits.rs", "fectcp"),
        ("scenario/limits.rs", "Transport::Fectcp"),
    ]);
}

#[test]
fn recipe_an_app_is_its_file_and_one_line() {
    use lossy_core::apps::AppConfig;
    check(Family { dir: "apps", list: "apps/mod.rs", parent: "apps", enums: &["AppConfig"], variants: AppConfig::VARIANTS.to_vec() }, &[]);
}

#[test]
fn recipe_a_capacity_is_its_file_and_one_line() {
    use lossy_core::capacity::AnyCapacity;
    let f = Family { dir: "capacity", list: "capacity/mod.rs", parent: "capacity", enums: &["CapacityConfig", "AnyCapacity"], variants: AnyCapacity::VARIANTS.to_vec() };
    // A link direction without a capacity table gets a constant rate from `rate`
    // (scenario/mod.rs) and a WLAN station's queue gets its PHY rate (net/wlan/mod.rs,
    // past the reader's `#[cfg(test)]` cut).
    check(f, &[("scenario/mod.rs", "ConstantRate")]);
}

#[test]
fn recipe_the_check_catches_a_second_line_and_a_consumer() {
    let mut files = BTreeMap::new();
    let list = "family! {\n    schemes {\n        /// doc\n        red::Red(Box<Red>, RedConfig),\n        drop_tail::DropTail(DropTail, DropTailConfig),\n    }\n}\n";
    files.insert("net/queue/mod.rs".to_string(), code_of(list));
    files.insert("net/queue/red.rs".to_string(), code_of("pub struct Red; use super::drop_tail::DropTail;"));
    files.insert("net/queue/drop_tail.rs".to_string(), code_of("pub struct DropTail;"));
    let f = || Family { dir: "net/queue", list: "net/queue/mod.rs", parent: "queue", enums: &["QueueDiscConfig", "AnyQueueDisc"], variants: vec!["Red", "DropTail"] };
    assert_eq!(schemes(&files["net/queue/mod.rs"])[0], Scheme { module: "red".into(), variant: "Red".into(), types: vec!["Red".into(), "RedConfig".into()] });
    assert!(recipe(&files, &f()).is_empty(), "{:?}", recipe(&files, &f()));
    // A hand-written arm in the list file, a consumer and a path from outside.
    files.insert("net/queue/mod.rs".to_string(), code_of(&format!("{list}fn f(q: &QueueDiscConfig) {{ if let QueueDiscConfig::Red(_) = q {{}} }} // Red")));
    files.insert("net/p2p.rs".to_string(), code_of("use super::queue::red::RedConfig;\nlet x = \"Red\";"));
    let found: Vec<(String, String)> = recipe(&files, &f()).into_iter().collect();
    assert_eq!(found, [("net/p2p.rs", "RedConfig"), ("net/p2p.rs", "red"), ("net/queue/mod.rs", "QueueDiscConfig::Red"), ("net/queue/mod.rs", "Red")].map(|(p, n)| (p.to_string(), n.to_string())));
    // A scheme with no line, or no file.
    files.remove("net/queue/drop_tail.rs");
    let f2 = Family { variants: vec!["Red", "DropTail", "Codel"], ..f() };
    let found = recipe(&files, &f2);
    assert!(found.iter().any(|(_, n)| n.starts_with("lines")) && found.contains(&("net/queue/drop_tail.rs".to_string(), "missing".to_string())), "{found:?}");
}
