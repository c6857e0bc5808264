//! What a scheme's config is built from: the scenario's nodes and who is linked to whom
//! ([`BuildCtx`]). It sits below both the scenario builder, which makes it, and the
//! agents, which read it, so neither imports the other.

use crate::error::{Error, Result};
use crate::packet::NodeId;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// The id of node `name`, or an error at `path` listing the nodes.
pub fn node_id(ids: &HashMap<&str, NodeId>, path: &str, name: &str, nodes: &[String]) -> Result<NodeId> {
    ids.get(name).copied().ok_or_else(|| {
        let list = if nodes.len() <= 12 { nodes.join(", ") } else { format!("{}, ... ({} in all)", nodes[..12].join(", "), nodes.len()) };
        Error::scenario(path, format!("\"{name}\" is not a node; nodes are {list}"))
    })
}

/// What an agent's config needs from the scenario to build its agent: the nodes, by
/// name and by id, and who is linked to whom.
pub struct BuildCtx<'a> {
    nodes: &'a [String],
    names: &'a HashMap<&'a str, NodeId>,
    /// Every pair of neighbours as (smaller id, larger id), built once: "is linked to"
    /// costs one look-up, not a scan of every link (10,000 hosts: 10^8 comparisons).
    linked: HashSet<(NodeId, NodeId)>,
    /// The pairs across a wireless hop (a link with a loss model or a link layer, a
    /// WLAN), the same way round.
    wireless: HashSet<(NodeId, NodeId)>,
    n_flows: usize,
    /// Legal but almost surely mistaken choices, one line each (`take_warnings`).
    warnings: RefCell<Vec<String>>,
}

impl<'a> BuildCtx<'a> {
    pub fn new(nodes: &'a [String], names: &'a HashMap<&'a str, NodeId>, neighbours: &[(NodeId, NodeId)], n_flows: usize) -> Self {
        let linked = neighbours.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        BuildCtx { nodes, names, linked, wireless: HashSet::new(), n_flows, warnings: RefCell::default() }
    }

    /// Which neighbour pairs are across a wireless hop: a named wireless neighbour must
    /// be one of them when its node has any.
    pub fn with_wireless(mut self, pairs: &[(NodeId, NodeId)]) -> Self {
        self.wireless = pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        self
    }

    /// The warnings the agents' configs gave while building.
    pub fn take_warnings(&self) -> Vec<String> {
        self.warnings.take()
    }

    /// `node`'s neighbours across a wireless hop, by name.
    fn wireless_of(&self, node: NodeId) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .wireless
            .iter()
            .filter_map(|&(a, b)| if a == node { Some(b) } else if b == node { Some(a) } else { None })
            .map(|n| self.nodes[n as usize].as_str())
            .collect();
        out.sort_unstable();
        out
    }

    pub fn n_nodes(&self) -> usize {
        self.nodes.len()
    }

    pub fn n_flows(&self) -> usize {
        self.n_flows
    }

    /// The id of node `name`, or an error at `path` listing the nodes.
    pub fn node(&self, path: &str, name: &str) -> Result<NodeId> {
        node_id(self.names, path, name, self.nodes)
    }

    /// Agent `index`'s wireless neighbours: given in `wireless_neighbor` (`one`) or
    /// `wireless_neighbors` (`many`), not both, each a node linked to the agent's `node`.
    pub fn wireless(&self, index: usize, node: NodeId, one: &Option<String>, many: &[String]) -> Result<Vec<NodeId>> {
        let i = index;
        let given: Vec<(String, &String)> = match (one, many.is_empty()) {
            (Some(w), true) => vec![(format!("agents.{i}.wireless_neighbor"), w)],
            (None, false) => many.iter().enumerate().map(|(k, w)| (format!("agents.{i}.wireless_neighbors.{k}"), w)).collect(),
            (Some(_), false) => return Err(Error::scenario(format!("agents.{i}.wireless_neighbors"), "give wireless_neighbor or wireless_neighbors, not both")),
            (None, true) => return Err(Error::scenario(format!("agents.{i}.wireless_neighbor"), "missing; name the neighbour across the wireless hop")),
        };
        let mut wireless = Vec::with_capacity(given.len());
        for (path, w) in given {
            let id = self.node(&path, w)?;
            if !self.linked.contains(&(node.min(id), node.max(id))) {
                return Err(Error::scenario(path, format!("\"{w}\" is not linked to \"{}\"; name a neighbour of the agent's node", self.nodes[node as usize])));
            }
            // A wired neighbour named where the node has a wireless one: the agent would
            // watch the wired side and act on no wireless loss (ELN would mark nothing).
            // A warning, not an error: it runs, and the test suite's golden random
            // networks do it on purpose.
            // The named neighbour is checked first: listing the node's wireless side
            // (a scan and a sort of every pair) for each of 10,000 neighbours was
            // quadratic, most of a 10,000-host build (issue 28).
            let across = if self.wireless.contains(&(node.min(id), node.max(id))) { Vec::new() } else { self.wireless_of(node) };
            if !across.is_empty() {
                let shown: Vec<String> = across.iter().take(8).map(|n| format!("\"{n}\"")).collect();
                let more = if across.len() > 8 { ", ..." } else { "" };
                self.warnings.borrow_mut().push(crate::error::shorten(&format!(
                    "{path}: \"{w}\" is on the wired side of \"{}\" (no loss model or link layer on their link), so the agent would act on no wireless loss; name a wireless neighbour: {}{more}",
                    self.nodes[node as usize],
                    shown.join(", ")
                )));
            }
            wireless.push(id);
        }
        Ok(wireless)
    }

    /// As [`wireless`](Self::wireless), but naming none is allowed: an empty list, for
    /// an agent that then treats every neighbour alike.
    pub fn wireless_if_named(&self, index: usize, node: NodeId, one: &Option<String>, many: &[String]) -> Result<Vec<NodeId>> {
        if one.is_none() && many.is_empty() {
            return Ok(Vec::new());
        }
        self.wireless(index, node, one, many)
    }
}
