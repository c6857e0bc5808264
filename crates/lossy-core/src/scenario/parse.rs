//! JSON text → `Scenario`, with the field path of any error (serde_path_to_error).

use super::Scenario;
use crate::config::dotted;
use crate::error::{Error, Result};

/// Parses a scenario from JSON (Python converts TOML to JSON first).
pub fn parse_json(text: &str) -> Result<Scenario> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = dotted(e.path());
        let doc: Option<serde_json::Value> = serde_json::from_str(text).ok();
        let (path, message) = super::messages::humanize(doc.as_ref(), &path, &e.into_inner().to_string());
        Error::scenario(if path.is_empty() { "scenario".to_string() } else { path }, message)
    })
}

/// The JSON Schema of a scenario, for editors and `lossy schema`.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Scenario);
    serde_json::to_string_pretty(&schema).expect("schema serialises")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: &str = r#"{"nodes": ["a", "b"], "links": [{"between": ["a", "b"], "rate": "2 Mbps", "delay": "5 ms"}],
        "flows": [{"from": "a", "to": "b"}]}"#;

    #[test]
    fn minimal_scenario_parses_with_defaults() {
        let s = parse_json(MIN).unwrap();
        assert_eq!(s.links[0].rate.unwrap().0, 2_000_000);
        assert_eq!(s.duration.0.as_secs_f64(), 100.0);
    }

    /// `MIN` with the JSON text `from` replaced by `to`.
    fn bad(from: &str, to: &str) -> String {
        let text = MIN.replace(from, to);
        assert_ne!(text, MIN, "{from}");
        match parse_json(&text) {
            Err(e) => e.to_string(),
            Ok(s) => crate::scenario::build_world(&s, 1, 0).err().map(|e| e.to_string()).unwrap_or_else(|| "accepted".into()),
        }
    }

    const F: &str = r#""from": "a""#;
    const L: &str = r#""delay": "5 ms""#;

    #[test]
    fn bad_inputs_name_the_leaf_in_dotted_notation_and_plain_words() {
        let cases: &[(&str, &str, &str)] = &[
            ("2 Mbps", "2 Mbsp", r#"links.0.rate: "2 Mbsp" is not a bit rate; use e.g. "2 Mbps""#),
            (F, r#""from": "a", "speed": 3"#, "flows.0.speed: unknown field `speed`; use one of: name, from, to, start, app, tcp, transport, fectcp"),
            (F, r#""from": "a", "app": {"kind": "bulk", "size": "10 kB"}"#, "flows.0.app.size: unknown field `size`; this table takes no other keys"),
            (F, r#""from": "a", "app": {"kind": "cbr", "rate": "1 Mbps", "packet_size": "1000 B", "colour": 1}"#, "flows.0.app.colour: unknown field `colour`; use one of: rate, packet_size, header, packets"),
            (F, r#""from": "a", "app": {"size": "10 kB"}"#, "flows.0.app.kind: missing; give kind = one of: bulk, file, cbr"),
            (F, r#""from": "a", "app": {"kind": "ftp"}"#, r#"flows.0.app.kind: "ftp" is not allowed; use one of: bulk, file, cbr"#),
            (F, r#""from": "a", "app": "bulk""#, r#"flows.0.app: "bulk" is not allowed; use a table with kind = one of: bulk, file, cbr"#),
            (F, r#""from": "a", "app": {"kind": "file", "size": "lots"}"#, r#"flows.0.app.size: "lots" is not a size in bytes; use e.g. "1000 B""#),
            (F, r#""from": "a", "tcp": {"dupack_threshold": "x"}"#, r#"flows.0.tcp.dupack_threshold: "x" is not allowed; use a whole number from 1 to 4,294,967,295"#),
            (F, r#""from": "a", "tcp": {"dupack_threshold": -1}"#, "flows.0.tcp.dupack_threshold: -1 is not allowed; use a whole number from 1 to 4,294,967,295"),
            (F, r#""from": "a", "tcp": {"limited_transmit": 1}"#, "flows.0.tcp.limited_transmit: 1 is not allowed; use true or false"),
            (F, r#""from": "a", "tcp": {"syndrome": "mobile"}"#, r#"flows.0.tcp.syndrome: "mobile" is not allowed; use one of: downlink, uplink"#),
            (F, r#""from": "a", "tcp": {"variant": "vegas"}"#, r#"flows.0.tcp.variant: "vegas" is not allowed; use one of: tahoe, reno, newreno, sack, sack1"#),
            (L, r#""delay": "5 ms", "loss": {"model": "bernoulli", "p": "x"}"#, r#"links.0.loss.p: "x" is not allowed; use a number from 0 to 1"#),
            // NaN and infinities come from Python as text (JSON has no NaN).
            (L, r#""delay": "5 ms", "loss": {"model": "bernoulli", "p": "nan"}"#, "links.0.loss.p: nan is not a finite number; use a number from 0 to 1"),
            (L, r#""delay": "5 ms", "loss": {"model": "neyman", "errors_per_cluster": "-inf", "clusters_per_unit": 1e-5}"#, "links.0.loss.errors_per_cluster: -inf is not a finite number; use a finite number"),
            (L, r#""delay": "5 ms", "loss": {"model": "bernoulli"}"#, "links.0.loss.p: missing; this key is required"),
            (L, r#""delay": "5 ms", "loss": {"p": 0.1}"#, "links.0.loss.model: missing; give model = one of: none, bernoulli, ber, snr, gilbert_elliott, gilbert, markov, rayleigh, neyman, trace"),
            (L, r#""delay": "5 ms", "loss": {"model": "none", "p": 0.1}"#, "links.0.loss.p: unknown field `p`; this table takes no other keys"),
            (L, r#""delay": "5 ms", "queue": {"kind": "drop_tail"}"#, "links.0.queue.limit: missing; this key is required"),
            (L, r#""delay": "5 ms", "up": "yes""#, r#"links.0.up: "yes" is not allowed; use true or false"#),
            // A table nested in a tagged one: serde's path stops at the tagged table.
            (L, r#""delay": "5 ms", "link_layer": {"kind": "arq", "payload": "32 B", "attempts": 4, "nak": {"delay": "soon"}}"#,
             r#"links.0.link_layer.nak.delay: "soon" is not a duration; use e.g. "5 ms", or "link" (the link's own delay)"#),
            (L, r#""delay": "5 ms", "link_layer": {"kind": "arq", "payload": "32 B", "attempts": 4, "nak": {"los": 0.1}}"#,
             "links.0.link_layer.nak.los: unknown field `los`; use one of: delay, loss, bytes, timeout"),
            (L, r#""delay": "5 ms", "link_layer": {"kind": "arq", "payload": "32 B", "attempts": 4, "nak": {"loss": "high"}}"#,
             r#"links.0.link_layer.nak.loss: "high" is not allowed; use a number from 0 to 1"#),
            (r#""between": ["a", "b"]"#, r#""between": ["a"]"#, "links.0.between: 1 item given; use a list of 2 items"),
            (r#""nodes": ["a", "b"]"#, r#""nodes": "a, b""#, r#"nodes: "a, b" is not allowed; use a list"#),
            (r#"{"nodes""#, r#"{"duration": "1e300 s", "nodes""#, "duration: 1e300 s is out of range; use 0 s to 1,000,000 s"),
            (F, r#""from": "a", "tcp": {"header": "1e19 B"}"#, "flows.0.tcp.header: 1e19 B is out of range; use 0 B to 65,535 B"),
            (F, r#""from": "a", "tcp": {"ack_size": "1e30 B"}"#, "flows.0.tcp.ack_size: 1e30 B is out of range; use 1 B to 65,535 B"),
            (F, r#""from": "a", "app": {"kind": "cbr", "rate": "1 Mbps", "packet_size": "1000 B", "header": "1e19 B"}"#, "flows.0.app.header: 1e19 B is out of range; use 0 B to 65,535 B"),
            (F, r#""from": "a", "app": {"kind": "cbr", "rate": "1 Mbps", "packet_size": "1000 B", "packets": 1.5}"#, "flows.0.app.packets: 1.5 is not allowed; use a whole number >= 1"),
            (L, r#""delay": "5 ms", "queue": "1e10 packets""#, "links.0.queue: 1e10 packets is out of range; use 1 to 1,000,000,000 packets"),
            (r#"{"nodes""#, r#"{"flows": {}, "nodes""#, "flows: a table is not allowed; use a list"),
            ("2 Mbps", "1e30 bps", "links.0.rate: 1e30 bps is out of range; use 1 bps to 1 Tbps"),
            (F, r#""from": "a", "app": {"kind": 5}"#, "flows.0.app.kind: 5 is not allowed; use one of: bulk, file, cbr"),
            (L, r#""delay": "5 ms", "queue": {"kind": 1}"#, "links.0.queue.kind: 1 is not allowed; use one of: drop_tail, red, codel, fq_codel, pie, drop_head"),
            (L, r#""delay": "5 ms", "queue": {"kind": "red", "max_p": "high"}"#, "links.0.queue.max_p: \"high\" is not allowed; use a number from 0 to 1"),
            (L, r#""delay": "5 ms", "queue": {"kind": "red", "mode": "frames"}"#, "links.0.queue.mode: \"frames\" is not allowed; use one of: packets, bytes"),
            (F, r#""from": "a", "tcp": {"variant": "sack", "sack": false}"#, r#"flows.0.tcp.sack: false contradicts variant = "sack", which recovers from SACK blocks; remove sack or pick tahoe, reno or newreno"#),
            (F, r#""from": "a", "tcp": {"variant": "reno", "sack": true}"#, r#"flows.0.tcp.sack: true has no SACK sender with variant = "reno"; use variant = "sack" (RFC 6675) or "sack1" (ns-2's Sack1)"#),
            (F, r#""from": "a", "tcp": {"variant": "sack1", "ack_size": "65530 B"}"#, "flows.0.tcp.ack_size: 65530 B leaves no room for the SACK option (28 B); use at most 65507 B"),
            (F, r#""from": "a", "tcp": {"variant": 1}"#, "flows.0.tcp.variant: 1 is not allowed; use one of: tahoe, reno, newreno, sack, sack1"),
            (F, r#""from": "a", "tcp": {"variant": true}"#, "flows.0.tcp.variant: true is not allowed; use one of: tahoe, reno, newreno, sack, sack1"),
            (r#""flows": ["#, r#""flow_groups": [{"name": "g", "count": 1e12, "from": "a", "to": "b"}], "flows": ["#,
             "flow_groups.0.count: 1000000000000.0 is not allowed; use a whole number from 1 to 1,000,000"),
            (r#""flows": ["#, r#""agents": [{"kind": "snoop", "node": "a", "wireless_neighbor": "z"}], "flows": ["#, r#"agents.0.wireless_neighbor: "z" is not a node; nodes are a, b"#),
            (r#""flows": ["#, r#""agents": [{"kind": "snoop", "node": "z", "wireless_neighbor": "b"}], "flows": ["#, r#"agents.0.node: "z" is not a node; nodes are a, b"#),
            (r#""flows": ["#, r#""agents": [{"kind": "snoop", "node": "a", "wireless_neighbor": "a"}], "flows": ["#, r#"agents.0.wireless_neighbor: "a" is not linked to "a"; name a neighbour of the agent's node"#),
            (r#""flows": ["#, r#""agents": [{"kind": "snoop", "node": "a"}], "flows": ["#, "agents.0.wireless_neighbor: missing; name the neighbour across the wireless hop"),
            (r#""flows": ["#, r#""agents": [{"kind": "snoop", "node": "a", "wireless_neighbor": "b", "cache_packets": 0}], "flows": ["#, "agents.0.cache_packets: 0 caches nothing; use at least 1"),
            (r#""flows": ["#, r#""agents": [{"kind": "snoop", "node": "a", "wireless_neighbor": "b", "eln": "yes"}], "flows": ["#, r#"agents.0.eln: "yes" is not allowed; use true or false"#),
        ];
        let mut wrong = Vec::new();
        let agents = |a: &str| format!(r#"{{"agents": [{a}], "nodes""#);
        let syndrome_rows = [
            (agents(r#"{"kind": "syndrome", "node": "x"}"#), r#"agents.0.node: "x" is not a node; nodes are a, b"#.to_string()),
            (
                agents(r#"{"kind": "syndrome", "node": "a"}"#),
                r#"agents.0.node: "a" is on no TCP flow's path, so the syndrome agent there would see no traffic; put it on the base station the flows cross"#.to_string(),
            ),
            (agents(r#"{"kind": "syndrome", "node": "a", "wireless_neighbor": "c"}"#), r#"agents.0.wireless_neighbor: "c" is not a node; nodes are a, b"#.to_string()),
            (
                agents(r#"{"kind": "syndrome", "node": "a", "wireless_neighbor": "b", "wireless_neighbors": ["b"]}"#),
                "agents.0.wireless_neighbors: give wireless_neighbor or wireless_neighbors, not both".to_string(),
            ),
            (agents(r#"{"kind": "syndrome", "nod": "a"}"#), "agents.0.nod: unknown field `nod`; use one of: node, wireless_neighbor, wireless_neighbors".to_string()),
        ];
        for (to, want) in &syndrome_rows {
            let got = bad(r#"{"nodes""#, to);
            if got != *want {
                wrong.push(format!("  {to}\n    got  {got}\n    want {want}"));
            }
        }
        for (from, to, want) in cases {
            let got = bad(from, to);
            if got != *want {
                wrong.push(format!("  {to}\n    got  {got}\n    want {want}"));
            }
        }
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    /// serde lets a unit variant of an internally tagged enum ignore unknown keys; every
    /// variant of every tagged table here must reject them.
    #[test]
    fn every_variant_of_every_tagged_table_rejects_unknown_keys() {
        use crate::{agents::AgentConfig, apps::AppConfig, channel::LossConfig, net::queue::QueueDiscConfig, scenario::ActionConfig};
        fn rejects<T: serde::de::DeserializeOwned>(table: &str) {
            let with_extra = format!("{}, \"zzz\": 1}}", table.trim_end_matches('}'));
            serde_json::from_str::<T>(table).unwrap_or_else(|e| panic!("{table}: {e}"));
            let e = serde_json::from_str::<T>(&with_extra).err().unwrap_or_else(|| panic!("{with_extra} was accepted")).to_string();
            assert!(e.contains("unknown field `zzz`"), "{e}");
        }
        for t in [r#"{"kind": "bulk"}"#, r#"{"kind": "file", "size": 10}"#, r#"{"kind": "cbr", "rate": 10, "packet_size": 10}"#] {
            rejects::<AppConfig>(t);
        }
        for t in [
            r#"{"model": "none"}"#,
            r#"{"model": "bernoulli", "p": 0.1}"#,
            r#"{"model": "ber", "ber": 0.1}"#,
            r#"{"model": "gilbert_elliott", "p": 0.1, "r": 0.1}"#,
            r#"{"model": "gilbert", "p_ge": 0.1, "p_eg": 0.1}"#,
            r#"{"model": "markov", "mean_a": 1, "mean_b": 1, "loss_a": 0, "loss_b": 1}"#,
            r#"{"model": "trace", "packets": [1]}"#,
            r#"{"model": "neyman", "errors_per_cluster": 3, "clusters_per_unit": 1e-5}"#,
        ] {
            rejects::<LossConfig>(t);
        }
        rejects::<QueueDiscConfig>(r#"{"kind": "drop_tail", "limit": "10 packets"}"#);
        rejects::<AgentConfig>(r#"{"kind": "eln", "node": "bs"}"#);
        rejects::<AgentConfig>(r#"{"kind": "snoop", "node": "bs"}"#);
        rejects::<AgentConfig>(r#"{"kind": "syndrome", "node": "bs"}"#);
        for t in [
            r#"{"kind": "link_down", "at": 1, "link": ["a", "b"]}"#,
            r#"{"kind": "link_up", "at": 1, "link": ["a", "b"]}"#,
            r#"{"kind": "detach", "at": 1, "node": "a"}"#,
            r#"{"kind": "handoff", "at": 1, "node": "a", "from": "b", "to": "c", "outage": 1}"#,
        ] {
            rejects::<ActionConfig>(t);
        }
        rejects::<crate::scenario::FlowGroupConfig>(r#"{"name": "g", "count": 1, "from": "a", "to": "b"}"#);
        let start = r#"{"name": "g", "count": 1, "from": "a", "to": "b", "start": {"every": 1, "zzz": 1}}"#;
        let e = serde_json::from_str::<crate::scenario::FlowGroupConfig>(start).unwrap_err().to_string();
        assert!(e.contains("unknown field `zzz`"), "{e}");
    }

    #[test]
    fn an_empty_scenario_says_it_is_empty() {
        let e = parse_json("{}").unwrap_err().to_string();
        assert_eq!(e, "nodes: missing: the scenario is empty; give nodes = [...], at least one [[links]] and one [[flows]] table");
        let e = parse_json(r#"{"links": []}"#).unwrap_err().to_string();
        assert_eq!(e, "nodes: missing; this key is required");
    }

    #[test]
    fn schema_lists_the_top_level_fields() {
        let s: serde_json::Value = serde_json::from_str(&schema_json()).unwrap();
        for f in ["nodes", "links", "flows", "flow_groups", "agents", "traces", "duration"] {
            assert!(s["properties"][f].is_object(), "{f}");
        }
    }
}
