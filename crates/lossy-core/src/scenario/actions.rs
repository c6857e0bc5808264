//! Scheduled network actions (docs/architecture.md#actions): links going down or up, a
//! node detaching, and the `handoff` shorthand for a mobile host moving between base
//! stations (Chen §6, Fig. 14: an outage of about 1.2 s during which its packets are
//! lost). Each action becomes changes of one node's attachment to one link.

use super::{secs, Scenario};
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
}

/// The links by their ends, built once: a scenario may have thousands of links and
/// actions, and a scan per action would cost their product.
struct LinkIndex {
    /// (lower id, higher id) → the links joining the two nodes.
    between: HashMap<(NodeId, NodeId), Vec<u32>>,
    /// Node → its links.
    of_node: HashMap<NodeId, Vec<u32>>,
}

impl LinkIndex {
    fn new(links: &[(NodeId, NodeId)]) -> Self {
        let (mut between, mut of_node) = (HashMap::<_, Vec<u32>>::new(), HashMap::<_, Vec<u32>>::new());
        for (i, &(a, b)) in links.iter().enumerate() {
            between.entry((a.min(b), a.max(b))).or_default().push(i as u32);
            of_node.entry(a).or_default().push(i as u32);
            of_node.entry(b).or_default().push(i as u32);
        }
        LinkIndex { between, of_node }
    }

    /// The links joining `a` and `b`, or an error naming the field.
    fn between(&self, path: &str, a: NodeId, b: NodeId, why: &str) -> Result<&[u32]> {
        self.between.get(&(a.min(b), a.max(b))).map(Vec::as_slice).ok_or_else(|| Error::scenario(path, why.to_string()))
    }
}

/// A hand-off's attachment to its new base station: `links` come up at `rejoin`.
struct Join {
    action: usize,
    links: Vec<u32>,
    leave: SimTime,
    rejoin: SimTime,
}

/// The changes the scenario's actions make, in time order (scenario order at equal times).
pub(super) fn compile(s: &Scenario, names: &Names) -> Result<Vec<NetChange>> {
    let index = LinkIndex::new(names.links);
    let end = secs(s.duration.0.as_nanos());
    // Each change with the action that makes it.
    let mut out: Vec<(NetChange, usize)> = Vec::new();
    let mut joins = Vec::new();
    for (i, a) in s.actions.iter().enumerate() {
        let p = |f: &str| format!("actions.{i}.{f}");
        let at = |d: &Duration| -> Result<SimTime> {
            if d.0 > s.duration.0 {
                let t = secs(d.0.as_nanos());
                return Err(Error::scenario(p("at"), format!("{t} s is after the run ends at {end} s; remove the action or lengthen the run")));
            }
            Ok(SimTime::ZERO + d.0)
        };
        let mut push = |at: SimTime, segs: &[u32], node: NodeId, up: bool| out.extend(segs.iter().map(|&segment| (NetChange { at, segment, node, up }, i)));
        match a {
            ActionConfig::LinkDown { at: t, link } | ActionConfig::LinkUp { at: t, link } => {
                let up = matches!(a, ActionConfig::LinkUp { .. });
                let x = names.node(&format!("{}.0", p("link")), &link[0], s)?;
                let y = names.node(&format!("{}.1", p("link")), &link[1], s)?;
                let why = format!("no link joins \"{}\" and \"{}\"; name the two ends of a link", link[0], link[1]);
                let segs = index.between(&p("link"), x, y, &why)?;
                push(at(t)?, segs, x, up);
            }
            ActionConfig::Detach { at: t, node } => {
                let n = names.node(&p("node"), node, s)?;
                let Some(segs) = index.of_node.get(&n) else {
                    return Err(Error::scenario(p("node"), format!("\"{node}\" has no links to detach from")));
                };
                push(at(t)?, segs, n, false);
            }
            ActionConfig::Handoff { at: t, node, from, to, outage } => {
                let n = names.node(&p("node"), node, s)?;
                let f = names.node(&p("from"), from, s)?;
                let g = names.node(&p("to"), to, s)?;
                if f == g {
                    return Err(Error::scenario(p("to"), format!("\"{to}\" is also `from`; hand off to another base station")));
                }
                let not_bs = |bs: &str| format!("\"{bs}\" is not a base station of \"{node}\": no link joins them; add one (with up = false until the hand-off)");
                let leave = index.between(&p("from"), n, f, &not_bs(from))?;
                let join = index.between(&p("to"), n, g, &not_bs(to))?;
                let t0 = at(t)?;
                // The outage is what must fit: `at` is within the run already.
                if t.0 + outage.0 > s.duration.0 {
                    let (o, back, most) = (secs(outage.0.as_nanos()), secs((t.0 + outage.0).as_nanos()), secs((s.duration.0 - t.0).as_nanos()));
                    return Err(Error::scenario(
                        p("outage"),
                        format!("{o} s ends the outage at {back} s, after the run ends at {end} s; use at most {most} s or lengthen the run"),
                    ));
                }
                let t1 = t0 + outage.0;
                push(t0, leave, n, false);
                push(t1, join, n, true);
                joins.push(Join { action: i, links: join.to_vec(), leave: t0, rejoin: t1 });
            }
        }
    }
    check_outages(s, names)?;
    // Stable: scenario order at equal times.
    out.sort_by_key(|c| c.0.at);
    check_joins(s, &joins, &out)?;
    Ok(out.into_iter().map(|(c, _)| c).collect())
}

/// A hand-off attaches to links that are down from `at` until it rejoins: one already
/// up, or brought up by another action meanwhile, would keep the mobile host attached
/// and the outage (Chen §6) would not happen. Changes at one instant apply together, so
/// a link taken down at `at` itself counts; BS1 → BS2 → BS1 is valid because the first
/// hand-off takes BS1's link down.
fn check_joins(s: &Scenario, joins: &[Join], changes: &[(NetChange, usize)]) -> Result<()> {
    let mut of_link: HashMap<u32, Vec<(NetChange, usize)>> = HashMap::new();
    for &(c, i) in changes {
        of_link.entry(c.segment).or_default().push((c, i));
    }
    for j in joins {
        for &seg in &j.links {
            // Every other change of the link, in time order.
            let others = || of_link.get(&seg).into_iter().flatten().filter(|&&(_, i)| i != j.action).map(|&(c, _)| c);
            let up_at_leave = others().take_while(|c| c.at <= j.leave).fold(s.links[seg as usize].up, |_, c| c.up);
            let up_at = if up_at_leave { Some(j.leave) } else { others().find(|c| c.at > j.leave && c.at < j.rejoin && c.up).map(|c| c.at) };
            if let Some(t) = up_at {
                let ActionConfig::Handoff { node, to, .. } = &s.actions[j.action] else { unreachable!("joins come from hand-offs") };
                let (t, t0, t1) = (secs(t.0), secs(j.leave.0), secs(j.rejoin.0));
                return Err(Error::scenario(
                    format!("actions.{}.to", j.action),
                    format!(
                        "the link between \"{node}\" and \"{to}\" is up at {t} s, in the outage from {t0} s to {t1} s; \
                         it must be down until the hand-off attaches it (up = false, or taken down by an earlier action)"
                    ),
                ));
            }
        }
    }
    Ok(())
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
                    secs(s1.0),
                    secs(s0.0),
                    secs(e0.0)
                ),
            ));
        }
    }
    Ok(())
}
