//! Scheduled network actions (DESIGN.md "actions"): links going down or up, a node
//! detaching, and the `handoff` shorthand for a mobile host moving between base
//! stations (Chen §6, Fig. 14: an outage of about 1.2 s during which its packets are
//! lost). Each action becomes changes of one node's attachment to one link.

use super::Scenario;
use crate::error::{Error, Result};
use crate::packet::NodeId;
use crate::time::SimTime;
use crate::units::Duration;
use crate::world::NetChange;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ActionConfig {
    /// The link between two nodes goes down: both directions stop and what they hold
    /// (queued, on the air, propagating) is dropped and counted (`link_down`).
    LinkDown {
        /// When, from the start of the run.
        at: Duration,
        /// The two nodes the link joins (every link between them).
        link: [String; 2],
    },
    /// The link between two nodes comes up.
    LinkUp {
        /// When, from the start of the run.
        at: Duration,
        /// The two nodes the link joins (every link between them).
        link: [String; 2],
    },
    /// Every link of `node` goes down: the node leaves the network.
    Detach {
        /// When, from the start of the run.
        at: Duration,
        /// The node that leaves.
        node: String,
    },
    /// `node` leaves base station `from` at `at` and attaches to base station `to`
    /// after `outage`; in between its packets have no route and are dropped. Give `node`
    /// a link to each base station, the one to `to` with `up = false`.
    Handoff {
        /// When the node leaves `from`, from the start of the run.
        at: Duration,
        /// The mobile host.
        node: String,
        /// The base station it leaves.
        from: String,
        /// The base station it attaches to.
        to: String,
        /// Time without any attachment (Chen et al. measured about 1.2 s).
        outage: Duration,
    },
}

/// Node names to ids and the links' ends (link `i` is segment `i`).
pub(super) struct Names<'a> {
    pub nodes: &'a HashMap<&'a str, NodeId>,
    pub links: &'a [(NodeId, NodeId)],
}

impl Names<'_> {
    fn node(&self, path: &str, name: &str, s: &Scenario) -> Result<NodeId> {
        super::build::lookup(self.nodes, path, name, s)
    }

    /// The links joining `a` and `b`, or an error naming the field.
    fn links_between(&self, path: &str, a: NodeId, b: NodeId, why: &str) -> Result<Vec<u32>> {
        let found: Vec<u32> =
            (0..self.links.len()).filter(|&i| matches!(self.links[i], (x, y) if (x, y) == (a, b) || (x, y) == (b, a))).map(|i| i as u32).collect();
        if found.is_empty() {
            return Err(Error::scenario(path, why.to_string()));
        }
        Ok(found)
    }
}

/// The changes the scenario's actions make, in time order (scenario order at equal times).
pub(super) fn compile(s: &Scenario, names: &Names) -> Result<Vec<NetChange>> {
    let mut out = Vec::new();
    for (i, a) in s.actions.iter().enumerate() {
        let p = |f: &str| format!("actions.{i}.{f}");
        let at = |d: &Duration| -> Result<SimTime> {
            if d.0 > s.duration.0 {
                let (t, end) = (d.0.as_secs_f64(), s.duration.0.as_secs_f64());
                return Err(Error::scenario(p("at"), format!("{t} s is after the run ends at {end} s; remove the action or lengthen the run")));
            }
            Ok(SimTime::ZERO + d.0)
        };
        match a {
            ActionConfig::LinkDown { at: t, link } | ActionConfig::LinkUp { at: t, link } => {
                let up = matches!(a, ActionConfig::LinkUp { .. });
                let x = names.node(&format!("{}.0", p("link")), &link[0], s)?;
                let y = names.node(&format!("{}.1", p("link")), &link[1], s)?;
                let why = format!("no link joins \"{}\" and \"{}\"; name the two ends of a link", link[0], link[1]);
                for seg in names.links_between(&p("link"), x, y, &why)? {
                    out.push(NetChange { at: at(t)?, segment: seg, node: x, up });
                }
            }
            ActionConfig::Detach { at: t, node } => {
                let n = names.node(&p("node"), node, s)?;
                let segs: Vec<u32> = (0..names.links.len() as u32).filter(|&k| matches!(names.links[k as usize], (x, y) if x == n || y == n)).collect();
                if segs.is_empty() {
                    return Err(Error::scenario(p("node"), format!("\"{node}\" has no links to detach from")));
                }
                let t = at(t)?;
                out.extend(segs.into_iter().map(|seg| NetChange { at: t, segment: seg, node: n, up: false }));
            }
            ActionConfig::Handoff { at: t, node, from, to, outage } => {
                let n = names.node(&p("node"), node, s)?;
                let f = names.node(&p("from"), from, s)?;
                let g = names.node(&p("to"), to, s)?;
                if f == g {
                    return Err(Error::scenario(p("to"), format!("\"{to}\" is also `from`; hand off to another base station")));
                }
                let not_bs = |bs: &str| format!("\"{bs}\" is not a base station of \"{node}\": no link joins them; add one (with up = false until the hand-off)");
                let leave = names.links_between(&p("from"), n, f, &not_bs(from))?;
                let join = names.links_between(&p("to"), n, g, &not_bs(to))?;
                let (t0, t1) = (at(t)?, at(&Duration(t.0 + outage.0))?);
                out.extend(leave.into_iter().map(|seg| NetChange { at: t0, segment: seg, node: n, up: false }));
                out.extend(join.into_iter().map(|seg| NetChange { at: t1, segment: seg, node: n, up: true }));
            }
        }
    }
    check_outages(s, names)?;
    out.sort_by_key(|c| c.at);
    Ok(out)
}

/// Hand-offs of one node must not overlap: the next starts after the last outage ends.
fn check_outages(s: &Scenario, names: &Names) -> Result<()> {
    let mut spans: Vec<(NodeId, SimTime, SimTime, usize)> = Vec::new();
    for (i, a) in s.actions.iter().enumerate() {
        if let ActionConfig::Handoff { at, node, outage, .. } = a {
            let n = names.node(&format!("actions.{i}.node"), node, s)?;
            spans.push((n, SimTime::ZERO + at.0, SimTime::ZERO + at.0 + outage.0, i));
        }
    }
    spans.sort_by_key(|&(n, start, _, i)| (n, start, i));
    for w in spans.windows(2) {
        let ((n0, s0, e0, i), (n1, s1, _, j)) = (w[0], w[1]);
        if n0 == n1 && s1 < e0 {
            return Err(Error::scenario(
                format!("actions.{j}.at"),
                format!(
                    "{} s falls in the hand-off of actions.{i} ({} s to {} s); hand-offs of one node must not overlap",
                    s1.as_secs_f64(),
                    s0.as_secs_f64(),
                    e0.as_secs_f64()
                ),
            ));
        }
    }
    Ok(())
}
