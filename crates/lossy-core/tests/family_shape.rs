//! Issue 26 item 1, family by family: a scheme is named only in its own file and its
//! family's lists (the closed lists in `mod.rs`/`config.rs`), so adding one touches
//! nothing else. Each block reads the crate's source (`source_reading`: test code,
//! comments and strings left out) and fails on a consumer that names or dispatches on one.

#[path = "common/source_reading.rs"]
mod source_reading;

// ---- congestion control and loss recovery (tcp/cc, tcp/recovery) ------------------------
mod tcp_families {
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
}

// ---- transports and apps (transport/, apps/) ----------------------------------------
// Per-family shape tests (issue 26 item 1): a new scheme of a family is one file and
// one line in the family's list. Each test reads the crate's sources and checks that
// every scheme of its family is named only in its own file and in the family's list
// file, so that a consumer (`scenario/build.rs`, `tcp/sender.rs`, ...) that names a
// scheme, or matches on the list's variants, fails it. Test code is not read.
mod transport_and_app_families {
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
}

mod result_metrics {
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
}

// ---- link layers and queue disciplines (link/, net/queue/) ----------------------------
mod link_families {
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
}

// ---- loss models, agents and capacity (channel/, agents/, capacity/) ------------------
mod channel_agent_capacity_families {
    use lossy_core::agents::{AgentConfig, AnyAgent};
    use lossy_core::capacity::AnyCapacity;
    use crate::source_reading::{code_of, names, sources};
    use lossy_core::channel::{Channel, LossConfig};
    use std::collections::{BTreeMap, BTreeSet};

    /// The type on each variant's line of the closed list `enum_name` in `list`
    /// (`Variant(path::Type),` gives `Type`), read from the list itself so that a type
    /// not named as its variant (`None(NoLoss)`) is checked too.
    fn list_types(list: &str, enum_name: &str, variants: &[&str]) -> Vec<String> {
        assert!(list.contains(&format!("enum {enum_name} via")), "no closed list {enum_name}");
        // The family's one list (`closed::family!`): `module::Variant(Type, ConfigType),`.
        let body = list.split("schemes {").nth(1).unwrap_or_else(|| panic!("no family! list for {enum_name}"));
        let lines: Vec<&str> = body.lines().take_while(|l| l.trim() != "}").collect();
        variants
            .iter()
            .flat_map(|v| {
                let line = lines.iter().find(|l| l.contains(&format!("::{v}("))).unwrap_or_else(|| panic!("{enum_name} has no line {v}(...)"));
                let inner = line.split_once(&format!("::{v}(")).unwrap().1.split(')').next().unwrap();
                // A variant boxed to keep the enum small (`Box<Gilbert>`) holds its type.
                inner.split(',').map(|t| t.trim().trim_start_matches("Box<").trim_end_matches('>').to_string()).filter(|t| !t.is_empty() && t != "_").collect::<Vec<_>>()
            })
            .collect()
    }

    /// What breaks a family's shape, as (file, what it names): a scheme's type (from the
    /// list lines of `lists`, each `(enum name, its variants)`, in `list_file`) that is
    /// not defined in one file under `dir/`, or is named outside `dir/` except in `extra`
    /// (where a scenario chooses a scheme); and any file but `list_file` that writes a
    /// list's variant path (`Enum::Variant`) or its `each_` macro, i.e. dispatches on it.
    fn shape(files: &BTreeMap<String, String>, dir: &str, list_file: &str, lists: &[(&str, &[&str])], extra: &[&str]) -> BTreeSet<(String, String)> {
        let mut wrong = BTreeSet::new();
        let in_dir = |p: &str| p.starts_with(&format!("{dir}/"));
        for (enum_name, variants) in lists {
            for ty in list_types(&files[list_file], enum_name, variants) {
                let defined: Vec<&String> = files.iter().filter(|(_, c)| names(c, &format!("struct {ty}"))).map(|(p, _)| p).collect();
                if defined.len() != 1 || !in_dir(defined[0]) {
                    wrong.insert((format!("{defined:?}"), format!("defines {ty}")));
                }
                for (path, code) in files.iter().filter(|(p, _)| !in_dir(p) && !extra.contains(&p.as_str())) {
                    if code.lines().any(|l| names(l, &ty)) {
                        wrong.insert((path.clone(), ty.clone()));
                    }
                }
            }
            let via = files[list_file].split(&format!("enum {enum_name} via ")).nth(1).and_then(|r| r.split_whitespace().next()).unwrap_or("?").trim_end_matches(';').to_string();
            for (path, code) in files.iter().filter(|(p, _)| p.as_str() != list_file) {
                for v in *variants {
                    if code.lines().any(|l| names(l, &format!("{enum_name}::{v}"))) {
                        wrong.insert((path.clone(), format!("{enum_name}::{v}")));
                    }
                }
                if code.contains(&format!("{via}!")) {
                    wrong.insert((path.clone(), format!("{via}!")));
                }
            }
        }
        wrong
    }

    fn pairs(list: &[(&str, &str)]) -> BTreeSet<(String, String)> {
        list.iter().map(|(p, w)| (p.to_string(), w.to_string())).collect()
    }

    #[test]
    fn a_loss_model_is_named_only_in_its_files_and_its_lists() {
        let files = sources();
        let found = shape(&files, "channel", "channel/mod.rs", &[("LossConfig", LossConfig::VARIANTS), ("Channel", Channel::VARIANTS)], &[]);
        // Known debts, each a consumer that knows one model (issue 26 item 1 leaves them):
        // `markov_fit = true` replaces a Rayleigh channel by its fitted Gilbert chain
        // (scenario/build.rs, scenario/markov_fit.rs, channel/fit.rs), and `lossy.loss`
        // shows a Neyman table with its implied values solved (channel/sequence.rs). A
        // new one fails here; so does one paid off (then shorten this list).
        let known = pairs(&[
            ("scenario/build.rs", "Gilbert"),
            ("scenario/build.rs", "LossConfig::Gilbert"),
            ("scenario/build.rs", "Rayleigh"),
            ("scenario/build.rs", "LossConfig::Rayleigh"),
            ("scenario/markov_fit.rs", "GilbertConfig"),
            ("scenario/markov_fit.rs", "RayleighConfig"),
            ("channel/fit.rs", "LossConfig::Rayleigh"),
            ("channel/sequence.rs", "LossConfig::Neyman"),
        ]);
        let new: Vec<_> = found.difference(&known).collect();
        let paid: Vec<_> = known.difference(&found).collect();
        assert!(new.is_empty(), "loss models named or dispatched on outside their family (go through LossProcess/ModelConfig): {new:?}");
        assert!(paid.is_empty(), "no longer found, remove from the known list: {paid:?}");
    }

    #[test]
    fn an_agent_is_named_only_in_its_files_and_its_lists() {
        let files = sources();
        let found = shape(&files, "agents", "agents/mod.rs", &[("AgentConfig", AgentConfig::VARIANTS), ("AnyAgent", AnyAgent::VARIANTS)], &[]);
        assert!(found.is_empty(), "agents named or dispatched on outside their family (go through Agent/AgentSpec): {found:?}");
        assert_eq!(AgentConfig::VARIANTS, AnyAgent::VARIANTS, "every table builds its own agent");
    }

    #[test]
    fn a_capacity_is_named_only_in_its_files_and_its_lists() {
        let files = sources();
        // A link's capacity is chosen by `LinkConfig::capacity` (scenario/mod.rs, from
        // `rate`) and a WLAN station's queue gets its PHY rate (net/wlan/mod.rs).
        let found = shape(&files, "capacity", "capacity/mod.rs", &[("AnyCapacity", AnyCapacity::VARIANTS)], &["scenario/mod.rs", "net/wlan/mod.rs"]);
        assert!(found.is_empty(), "capacities named or dispatched on outside their family (go through Capacity): {found:?}");
    }

    #[test]
    fn the_shape_check_catches_a_consumer_that_dispatches_on_a_model() {
        let mut files = BTreeMap::new();
        let list = "family! {\n    config {\n        pub enum LossConfig via each_loss;\n    }\n    schemes {\n        /// doc\n        no_loss::None(_, NoLossConfig),\n        ber::Ber(_, BerConfig),\n    }\n}\nfn f(c: &LossConfig) { each_loss!(c, m => m.validate()) }";
        files.insert("channel/mod.rs".to_string(), code_of(list));
        files.insert("channel/no_loss.rs".to_string(), code_of("pub struct NoLossConfig {}"));
        files.insert("channel/ber.rs".to_string(), code_of("pub struct BerConfig { ber: f64 }"));
        let lists: &[(&str, &[&str])] = &[("LossConfig", &["None", "Ber"])];
        assert!(shape(&files, "channel", "channel/mod.rs", lists, &[]).is_empty());
        files.insert("scenario/build.rs".to_string(), code_of("if let LossConfig::Ber(b) = loss { each_loss!(loss, m => m.x()) } // BerConfig \"NoLossConfig\""));
        files.insert("net/wlan.rs".to_string(), code_of("let c = NoLossConfig {};"));
        let found = shape(&files, "channel", "channel/mod.rs", lists, &[]);
        assert_eq!(found, pairs(&[("scenario/build.rs", "LossConfig::Ber"), ("scenario/build.rs", "each_loss!"), ("net/wlan.rs", "NoLossConfig")]));
        assert_eq!(shape(&files, "channel", "channel/mod.rs", lists, &["net/wlan.rs"]).len(), 2);
        files.remove("channel/ber.rs");
        assert!(shape(&files, "channel", "channel/mod.rs", lists, &[]).contains(&("[]".to_string(), "defines BerConfig".to_string())));
    }
    // ---- end of loss models, agents and capacity --------------------------------------
}

// ---- the recipe: a new scheme is its file and one line (issue 26, "Done when") ---------
// For every family, each scheme's names — its module (the file named after it), the
// types and value its list line names, and its variants' paths (`LossConfig::Ber`) — are
// read from the family's `family!` list and must appear, outside the scheme's own files,
// on exactly one line: its line in the list. Other schemes' files may build on it (SNR
// on BER, RED on DropTail, sack1 on SACK); nothing else may name it, but for the known
// debts each family lists (consumers that know one existing scheme, which a new scheme
// does not touch). So adding a scheme touches its file and one list line, no more.
mod recipe {
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
        let f = Family { dir: "capacity", list: "capacity/mod.rs", parent: "capacity", enums: &["AnyCapacity"], variants: AnyCapacity::VARIANTS.to_vec() };
        // A link's capacity is made from `rate` (scenario/mod.rs) and a WLAN station's
        // queue gets its PHY rate (net/wlan/mod.rs, past the reader's `#[cfg(test)]` cut):
        // no scenario table chooses a kind yet.
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
}
