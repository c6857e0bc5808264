//! The scenario's checks against itself that need more than one table: nodes, routes
//! over every topology the run will have, agents on flows' paths, link payloads against
//! segment sizes, adaptive FEC against the links, capture names. Each error names the
//! field path, the value and what is allowed.

use super::flows::{FlowSpec, Origin};
use super::Scenario;
use crate::agents::AgentSpec;
use crate::error::{Error, Result};
use crate::link::config::LinkLayerSpec;
use crate::net::routing::Hop;
use crate::net::Routes;
use crate::packet::NodeId;
use crate::time::SimTime;
use crate::transport::TransportSpec;
use crate::world::{AgentSlot, Flow, NetChange, Port};
use std::collections::{HashMap, HashSet};

/// Node names unique and non-empty, at least one link, a positive duration; the ids
/// by name.
pub(super) fn check_nodes(s: &Scenario) -> Result<HashMap<&str, NodeId>> {
    if s.nodes.len() < 2 {
        return Err(Error::scenario("nodes", format!("{} node(s) given; a network needs at least 2", s.nodes.len())));
    }
    if s.nodes.len() > NodeId::MAX as usize {
        return Err(Error::scenario("nodes", format!("{} nodes given; at most {}", s.nodes.len(), NodeId::MAX)));
    }
    let mut names = HashMap::with_capacity(s.nodes.len());
    for (i, n) in s.nodes.iter().enumerate() {
        if n.is_empty() {
            return Err(Error::scenario(format!("nodes.{i}"), "an empty name is not allowed"));
        }
        if names.insert(n.as_str(), i as NodeId).is_some() {
            return Err(Error::scenario(format!("nodes.{i}"), format!("\"{n}\" is listed twice; node names must be unique")));
        }
    }
    if s.links.is_empty() && s.wlans.is_empty() {
        return Err(Error::scenario("links", "no links given; add at least one [[links]] (or [[wlans]]) table"));
    }
    if s.duration.0.as_nanos() == 0 {
        return Err(Error::scenario("duration", "0 s is not a run; use a positive duration such as \"100 s\""));
    }
    Ok(names)
}

/// Calls `visit` with the routes at the start and after each instant of scheduled
/// changes (those at one instant apply together): every topology the run will have,
/// with the instant it ends (`None`: it lasts to the end of the run).
fn for_each_topology(n_nodes: usize, ports: &[Port], hops: &[Hop], changes: &[NetChange], mut visit: impl FnMut(&Routes, &[Hop], Option<SimTime>)) {
    let mut hops = hops.to_vec();
    let mut k = 0;
    loop {
        visit(&Routes::build(n_nodes, &hops), &hops, changes.get(k).map(|c| c.at));
        if k == changes.len() {
            return;
        }
        let at = changes[k].at;
        while k < changes.len() && changes[k].at == at {
            // The node's ports on that segment follow its attachment.
            let c = changes[k];
            for (p, h) in ports.iter().zip(hops.iter_mut()) {
                if p.segment == c.segment && (h.from == c.node || h.to == c.node) {
                    h.up = c.up;
                }
            }
            k += 1;
        }
    }
}

/// Agents act only on TCP packets they forward (`TransportSpec::agents_act_on_it`, one
/// flag per flow in `acted_on`), so each must sit between the ends of some TCP flow (at
/// the start or after a scheduled change): one on no flow's path would see nothing.
pub(super) fn check_agents_on_paths(s: &Scenario, agents: &[AgentSlot], flows: &[Flow], acted_on: &[bool], ports: &[Port], hops: &[Hop], changes: &[NetChange]) -> Result<()> {
    if agents.is_empty() {
        return Ok(());
    }
    let mut on_path = vec![false; s.nodes.len()];
    for_each_topology(s.nodes.len(), ports, hops, changes, |routes, hops, _| {
        for (f, _) in flows.iter().zip(acted_on).filter(|&(_, &on)| on) {
            let mut at = f.src;
            for _ in 0..s.nodes.len() {
                let Some(p) = routes.next_hop(at, f.dst, hops) else { break };
                at = hops[p as usize].to;
                if at == f.dst {
                    break;
                }
                on_path[at as usize] = true;
            }
        }
    });
    match agents.iter().position(|a| !on_path[a.node as usize]) {
        None => Ok(()),
        Some(i) => Err(Error::scenario(
            format!("agents.{i}.node"),
            format!(
                "\"{}\" is on no TCP flow's path, so the {} agent there would see no traffic; put it on the base station the flows cross",
                s.nodes[agents[i].node as usize],
                s.agents[i].kind()
            ),
        )),
    }
}

/// Every flow must have a route both ways in some topology in effect at or after its
/// start (the one in effect when it starts counts): a route that exists only before
/// would deliver nothing. A flow that never has one is an error naming it.
pub(super) fn check_routes(s: &Scenario, flows: &[Flow], origins: &[Origin], ports: &[Port], hops: &[Hop], changes: &[NetChange]) -> Result<()> {
    let (mut ever, mut from_start) = (vec![false; flows.len()], vec![false; flows.len()]);
    for_each_topology(s.nodes.len(), ports, hops, changes, |routes, hops, until| {
        for (f, flow) in flows.iter().enumerate() {
            if routes.next_hop(flow.src, flow.dst, hops).is_some() && routes.next_hop(flow.dst, flow.src, hops).is_some() {
                ever[f] = true;
                from_start[f] |= until.is_none_or(|u| u > flow.start);
            }
        }
    });
    let Some(f) = from_start.iter().position(|&o| !o) else { return Ok(()) };
    if !ever[f] {
        if let Some(e) = down_link_on_path(s, &flows[f], origins[f], ports, hops) {
            return Err(e);
        }
    }
    let (when, fix) = if ever[f] {
        (format!("at or after its start at {} s", super::secs(flows[f].start.0)), "connect them with links or start the flow earlier")
    } else {
        ("at any time".to_string(), "connect them with links")
    };
    Err(Error::scenario(
        origins[f].path("to"),
        format!("no route from \"{}\" to \"{}\"{} {when}; {fix}", s.nodes[flows[f].src as usize], s.nodes[flows[f].dst as usize], origins[f].which()),
    ))
}

/// The root cause when a flow never has a route but would with every link up: the
/// first link on that path that starts down (`up = false`) and no action brings up.
/// Its field is named, not the flow's `to` (issue 27: "links.1.up = false" was reported
/// as "flows.0.to: no route").
fn down_link_on_path(s: &Scenario, flow: &Flow, origin: Origin, ports: &[Port], hops: &[Hop]) -> Option<Error> {
    let all_up: Vec<Hop> = hops.iter().map(|h| Hop { up: true, ..*h }).collect();
    let routes = Routes::build(s.nodes.len(), &all_up);
    // Both ways, as check_routes asks: the data's path, then the ACKs'.
    for (from, to) in [(flow.src, flow.dst), (flow.dst, flow.src)] {
        let mut at = from;
        for _ in 0..s.nodes.len() {
            let p = routes.next_hop(at, to, &all_up)? as usize;
            let link = ports[p].segment as usize;
            if !hops[p].up && link < s.links.len() {
                let l = &s.links[link];
                return Some(Error::scenario(
                    format!("links.{link}.up"),
                    format!(
                        "false leaves {} (\"{}\" to \"{}\"){} no route at any time: the link between \"{}\" and \"{}\" is its only path and never comes up; set up = true or add a link_up action",
                        origin.path("to").trim_end_matches(".to"),
                        s.nodes[flow.src as usize],
                        s.nodes[flow.dst as usize],
                        origin.which(),
                        l.between[0],
                        l.between[1]
                    ),
                ));
            }
            at = all_up[p].to;
            if at == to {
                break;
            }
        }
    }
    None
}

/// A Syndrome agent stamps counts that only a receiver with `tcp.syndrome` reads; with
/// none, every flow runs as plain TCP and the experiment measures nothing of Syndrome.
pub(super) fn check_syndrome_receivers(s: &Scenario, any_reader: &bool) -> Result<()> {
    if *any_reader {
        return Ok(());
    }
    match s.agents.iter().position(|a| a.kind() == "syndrome") {
        None => Ok(()),
        Some(i) => Err(Error::scenario(
            format!("agents.{i}.kind"),
            "\"syndrome\" stamps counts that only a receiver with tcp.syndrome reads, and no flow has one, so every flow would run as plain TCP; give the flows tcp.syndrome = \"downlink\" (or \"uplink\")",
        )),
    }
}

/// A link packet larger than every TCP segment the flows send is a mistake: ARQ's link
/// packets cut segments into pieces (Chockalingam: N_L < N_T).
pub(super) fn check_link_payloads(s: &Scenario, specs: &[FlowSpec]) -> Result<()> {
    let Some(largest) = largest_tcp_packet(specs) else {
        return Ok(());
    };
    for (i, l) in s.links.iter().enumerate() {
        for (field, ll) in [("link_layer", &l.link_layer), ("reverse_link_layer", &l.reverse_link_layer)] {
            ll.check_payload(largest).map_err(|m| Error::nested(&format!("links.{i}.{field}"), m))?;
        }
    }
    Ok(())
}

/// A sender's adaptive FEC needs a link that reads its requests, with as many codes as
/// its thresholds step between.
pub(super) fn check_adaptive_fec(s: &Scenario, specs: &[FlowSpec]) -> Result<()> {
    let links: Vec<(usize, &str, usize)> = s
        .links
        .iter()
        .enumerate()
        .flat_map(|(i, l)| [(i, "link_layer", &l.link_layer), (i, "reverse_link_layer", &l.reverse_link_layer)])
        .filter_map(|(i, field, ll)| ll.sender_chosen_codes().map(|n| (i, field, n)))
        .collect();
    for f in specs.iter().filter(|f| f.carrier().reads_tcp_options()) {
        let Some(fec) = &f.tcp.adaptive_fec else { continue };
        let path = f.origin.path("tcp.adaptive_fec");
        // Its own fields first: a count compared with the links' means nothing otherwise.
        fec.validate().map_err(|m| Error::nested(&path, m))?;
        if links.is_empty() {
            return Err(Error::scenario(
                path,
                "no link reads the requested code; give the wireless link link_layer = { kind = \"adaptive_fec\", codes = [...] } without its own control",
            ));
        }
        if let Some((i, field, n)) = links.iter().copied().find(|&(_, _, n)| n != fec.codes()) {
            return Err(Error::scenario(
                format!("{path}.up"),
                format!("thresholds for {} codes ({}), but links.{i}.{field} has {n} codes; give {}", fec.codes(), count(fec.up.len(), "threshold"), n - 1),
            ));
        }
    }
    Ok(())
}

/// "1 threshold", "3 thresholds".
fn count(n: usize, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}

/// The biggest TCP data packet on the wire (segment and header), if any flow reads
/// the `tcp` table (TCP, and FECTCP whose segments it sizes).
pub(super) fn largest_tcp_packet(specs: &[FlowSpec]) -> Option<u64> {
    specs.iter().filter(|f| f.carrier().reads_tcp_options()).map(|f| f.tcp.mss.0 + f.tcp.header.0).max()
}

/// Every name in `capture.links` is a link direction, "A->B".
pub(super) fn check_capture(s: &Scenario, links: &[(NodeId, NodeId)]) -> Result<()> {
    let name = |a: NodeId, b: NodeId| format!("{}->{}", s.nodes[a as usize], s.nodes[b as usize]);
    let dirs: Vec<String> = links.iter().flat_map(|&(a, b)| [name(a, b), name(b, a)]).collect();
    let known: HashSet<&str> = dirs.iter().map(String::as_str).collect();
    match s.capture.links.iter().position(|l| !known.contains(l.as_str())) {
        None => Ok(()),
        Some(i) => {
            let shown: Vec<String> = dirs.iter().take(8).map(|d| format!("\"{d}\"")).collect();
            let more = if dirs.len() > 8 { ", ..." } else { "" };
            Err(Error::scenario(
                format!("capture.links.{i}"),
                format!("\"{}\" is not a link direction; use one of {}{more}", s.capture.links[i], shown.join(", ")),
            ))
        }
    }
}


#[cfg(test)]
mod tests {
    use crate::scenario::{build_world, parse_json};
    use serde_json::{json, Value};

    /// S —wired— BS —lossy— MH, one Reno flow S → MH and an ELN agent at BS.
    fn last_hop() -> Value {
        json!({
            "duration": "10 s",
            "nodes": ["S", "BS", "MH"],
            "links": [
                {"between": ["S", "BS"], "rate": "10 Mbps", "delay": "20 ms"},
                {"between": ["BS", "MH"], "rate": "2 Mbps", "delay": "5 ms", "loss": {"model": "bernoulli", "p": 0.01}}
            ],
            "flows": [{"from": "S", "to": "MH"}],
            "agents": [{"kind": "eln", "node": "BS", "wireless_neighbor": "MH"}]
        })
    }

    fn error(v: &Value) -> String {
        let s = parse_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}"));
        build_world(&s, 1, 0).err().map(|e| e.to_string()).unwrap_or_else(|| "accepted".into())
    }

    #[test]
    fn the_base_scenario_is_accepted() {
        assert_eq!(error(&last_hop()), "accepted");
    }

    #[test]
    fn a_syndrome_agent_needs_a_receiver_that_reads_it() {
        let mut v = last_hop();
        v["agents"][0]["kind"] = json!("syndrome");
        assert!(error(&v).starts_with(r#"agents.0.kind: "syndrome" stamps counts that only a receiver with tcp.syndrome reads"#), "{}", error(&v));
        v["flows"][0]["tcp"] = json!({"syndrome": "downlink"});
        assert_eq!(error(&v), "accepted");
    }

    fn warnings(v: &Value) -> Vec<String> {
        let s = parse_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}"));
        crate::scenario::build_world_unfitted(&s, 1, 0).unwrap_or_else(|e| panic!("{e}")).warnings
    }

    #[test]
    fn a_wireless_neighbour_on_the_wired_side_is_warned_about_naming_the_wireless_ones() {
        let mut v = last_hop();
        assert!(warnings(&v).is_empty());
        v["agents"][0]["wireless_neighbor"] = json!("S");
        assert_eq!(
            warnings(&v),
            [r#"agents.0.wireless_neighbor: "S" is on the wired side of "BS" (no loss model or link layer on their link), so the agent would act on no wireless loss; name a wireless neighbour: "MH""#]
        );
        // With no lossy hop at the node there is nothing to tell the sides apart by.
        v["links"][1]["loss"] = json!({"model": "none"});
        assert!(warnings(&v).is_empty());
    }

    #[test]
    fn a_second_link_between_the_same_nodes_is_refused_naming_both() {
        let mut v = last_hop();
        v["links"].as_array_mut().unwrap().push(json!({"between": ["MH", "BS"], "rate": "1 Mbps", "delay": "1 ms"}));
        assert!(error(&v).starts_with(r#"links.2.between: "MH" and "BS" are already joined by links.1;"#), "{}", error(&v));
    }

    #[test]
    fn a_flow_starting_at_or_after_the_end_is_refused() {
        let mut v = last_hop();
        v["flows"][0]["start"] = json!("10 s");
        assert_eq!(error(&v), "flows.0.start: 10 s is at or after the run's end at 10 s; start it earlier or lengthen the run (duration)");
        v["flows"][0]["start"] = json!("9.5 s");
        assert_eq!(error(&v), "accepted");
        v["flows"] = json!([]);
        v["flow_groups"] = json!([{"name": "g", "count": 3, "from": "S", "to": "MH", "start": {"uniform": ["0 s", "20 s"], "stream": "s"}}]);
        assert!(error(&v).starts_with("flow_groups.0.start.uniform: [0 s, 20 s] reaches the run's end at 10 s"), "{}", error(&v));
    }

    #[test]
    fn a_link_that_is_down_for_good_on_the_only_path_is_named() {
        let mut v = last_hop();
        v["links"][1]["up"] = json!(false);
        v["agents"] = json!([]);
        assert!(error(&v).starts_with(r#"links.1.up: false leaves flows.0 ("S" to "MH") no route at any time"#), "{}", error(&v));
    }
}
