//! Every flow of a scenario resolved: the `[[flows]]` tables first, then each flow
//! group's flows in index order, with node ids, start times and unique names.

use super::build::lookup;
use super::groups::{start_times, Pattern, StartConfig, MAX_GROUP_FLOWS};
use super::Scenario;
use crate::apps::AppConfig;
use crate::error::{Error, Result};
use crate::packet::NodeId;
use crate::tcp::TcpConfig;
use crate::transport::fectcp::FectcpConfig;
use crate::transport::{AnyTransport, FlowEnds, Transport};
use crate::packet::FlowId;
use crate::time::SimTime;
use crate::time::SimDuration;
use crate::units::MAX_DURATION;
use std::collections::{HashMap, HashSet};

/// Where a flow was declared, for error paths.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Origin {
    Flow(usize),
    /// Group `g`, flow `i` of it.
    Group(usize, u64),
}

impl Origin {
    /// `flows.3.to`, or `flow_groups.1.to` (the group's field).
    pub fn path(self, field: &str) -> String {
        match self {
            Origin::Flow(i) => format!("flows.{i}.{field}"),
            Origin::Group(g, _) => format!("flow_groups.{g}.{field}"),
        }
    }

    /// " for i = 7" for a group's flow, "" for a plain one.
    pub fn which(self) -> String {
        match self {
            Origin::Flow(_) => String::new(),
            Origin::Group(_, i) => format!(" (flow {i} of the group)"),
        }
    }
}

pub(crate) struct FlowSpec<'s> {
    pub name: String,
    pub src: NodeId,
    pub dst: NodeId,
    pub start: SimDuration,
    pub app: &'s AppConfig,
    pub tcp: &'s TcpConfig,
    pub transport: Transport,
    pub fectcp: Option<&'s FectcpConfig>,
    /// Index into `Scenario::flow_groups`.
    pub group: Option<u32>,
    pub origin: Origin,
}

impl FlowSpec<'_> {
    /// The transport that carries it (`Transport::carrier`).
    pub fn carrier(&self) -> AnyTransport {
        self.transport.carrier(self.app)
    }

    /// What its transport builds flow `flow`'s endpoints from; `path` names its fields.
    pub fn ends<'a>(&'a self, flow: FlowId, seed: u64, replication: u64, path: &'a dyn Fn(&str) -> String) -> FlowEnds<'a> {
        FlowEnds {
            flow,
            name: &self.name,
            src: self.src,
            dst: self.dst,
            start: SimTime::ZERO + self.start,
            app: self.app,
            tcp: self.tcp,
            fectcp: self.fectcp,
            asked: self.transport,
            seed,
            replication,
            path,
        }
    }
}

/// `server, bs, mh0 ... mh999` for many nodes; all of them for a few.
fn node_list(s: &Scenario) -> String {
    let n = &s.nodes;
    if n.len() <= 12 {
        n.join(", ")
    } else {
        format!("{} ... {}", n[..3].join(", "), n[n.len() - 1])
    }
}

/// The node that pattern `p` names for flow `i` of group `g`.
fn node_of(names: &HashMap<&str, NodeId>, s: &Scenario, g: usize, field: &str, p: &Pattern, i: u64, buf: &mut String) -> Result<NodeId> {
    p.render(i, buf);
    names.get(buf.as_str()).copied().ok_or_else(|| {
        Error::scenario(
            format!("flow_groups.{g}.{field}"),
            format!("\"{}\" gives \"{buf}\" for i = {i}, which is not a node (nodes: {})", p.text, node_list(s)),
        )
    })
}

/// Every flow, plain ones first; `seed` and `replication` seed random start times.
pub(crate) fn expand<'s>(s: &'s Scenario, names: &HashMap<&str, NodeId>, seed: u64, replication: u64) -> Result<Vec<FlowSpec<'s>>> {
    for (g, grp) in s.flow_groups.iter().enumerate() {
        if grp.name.is_empty() {
            return Err(Error::scenario(format!("flow_groups.{g}.name"), "an empty name is not allowed; name the group, e.g. \"downloads\""));
        }
        if grp.count == 0 || grp.count > MAX_GROUP_FLOWS {
            return Err(Error::scenario(format!("flow_groups.{g}.count"), format!("{} is out of range; use 1 to 1,000,000", grp.count)));
        }
    }
    super::limits::check_flow_count(s)?;
    let total: u64 = s.flows.len() as u64 + s.flow_groups.iter().map(|g| g.count).sum::<u64>();
    if total == 0 {
        return Err(Error::scenario("flows", "no flows given; add a [[flows]] or a [[flow_groups]] table"));
    }
    let mut out = Vec::with_capacity(total.min(u32::MAX as u64) as usize);
    for (i, fc) in s.flows.iter().enumerate() {
        let src = lookup(names, &format!("flows.{i}.from"), &fc.from, s)?;
        let dst = lookup(names, &format!("flows.{i}.to"), &fc.to, s)?;
        let name = fc.name.clone().unwrap_or_else(|| format!("flow{i}"));
        out.push(FlowSpec { name, src, dst, start: fc.start.0, app: &fc.app, tcp: &fc.tcp, transport: fc.transport, fectcp: fc.fectcp.as_ref(), group: None, origin: Origin::Flow(i) });
    }
    for (g, grp) in s.flow_groups.iter().enumerate() {
        let from = Pattern::parse(&format!("flow_groups.{g}.from"), &grp.from)?;
        let to = Pattern::parse(&format!("flow_groups.{g}.to"), &grp.to)?;
        let starts = start_times(g, grp, seed, replication, MAX_DURATION)?;
        let mut buf = String::new();
        for (i, start) in (0..grp.count).zip(starts) {
            let src = node_of(names, s, g, "from", &from, i, &mut buf)?;
            let dst = node_of(names, s, g, "to", &to, i, &mut buf)?;
            let name = format!("{}.{i}", grp.name);
            out.push(FlowSpec { name, src, dst, start, app: &grp.app, tcp: &grp.tcp, transport: grp.transport, fectcp: grp.fectcp.as_ref(), group: Some(g as u32), origin: Origin::Group(g, i) });
        }
    }
    if out.len() > u32::MAX as usize / 2 {
        return Err(Error::scenario("flow_groups", format!("{} flows in all; use at most {}", out.len(), u32::MAX / 2)));
    }
    check_unique_names(s, &out)?;
    check_starts_before_the_end(s, &out)?;
    Ok(out)
}

/// A flow that starts at or after the run's end sends nothing and reports 0 b/s, which
/// reads as a result; it is refused, naming the field that sets its start.
fn check_starts_before_the_end(s: &Scenario, flows: &[FlowSpec]) -> Result<()> {
    let end = s.duration.0;
    let Some(f) = flows.iter().find(|f| f.start >= end) else { return Ok(()) };
    let (t, end_s) = (super::secs(f.start.as_nanos()), super::secs(end.as_nanos()));
    let fix = "start it earlier or lengthen the run (duration)";
    let (path, message) = match f.origin {
        Origin::Flow(i) => (format!("flows.{i}.start"), format!("{t} s is at or after the run's end at {end_s} s; {fix}")),
        Origin::Group(g, i) => match &s.flow_groups[g].start {
            StartConfig::At(_) => (format!("flow_groups.{g}.start"), format!("{t} s is at or after the run's end at {end_s} s; {fix}")),
            StartConfig::Every { .. } => (
                format!("flow_groups.{g}.start.every"),
                format!("flow {i} of the group would start at {t} s, at or after the run's end at {end_s} s; use a shorter spacing, fewer flows or a longer run"),
            ),
            StartConfig::Uniform { range: [a, b], .. } => (
                format!("flow_groups.{g}.start.uniform"),
                format!(
                    "[{} s, {} s] reaches the run's end at {end_s} s (flow {i} of the group would start at {t} s); end the range before the run ends",
                    super::secs(a.0.as_nanos()),
                    super::secs(b.0.as_nanos())
                ),
            ),
        },
    };
    Err(Error::scenario(path, message))
}

/// Flow names and group names must be unique (results are looked up by them).
fn check_unique_names(s: &Scenario, flows: &[FlowSpec]) -> Result<()> {
    let mut groups = HashSet::new();
    for (g, grp) in s.flow_groups.iter().enumerate() {
        if !groups.insert(grp.name.as_str()) {
            return Err(Error::scenario(format!("flow_groups.{g}.name"), format!("\"{}\" names two groups; group names must be unique", grp.name)));
        }
    }
    let mut seen: HashMap<&str, Origin> = HashMap::with_capacity(flows.len());
    for f in flows {
        if let Some(first) = seen.insert(f.name.as_str(), f.origin) {
            let (path, first) = match (f.origin, first) {
                (Origin::Flow(i), Origin::Flow(_)) | (Origin::Flow(i), Origin::Group(..)) => (format!("flows.{i}.name"), first),
                (Origin::Group(g, _), _) => (format!("flow_groups.{g}.name"), first),
            };
            let other = match first {
                Origin::Flow(j) => format!("flows.{j}"),
                Origin::Group(h, i) => format!("flow {i} of flow_groups.{h}"),
            };
            return Err(Error::scenario(path, format!("\"{}\" is also the name of {other}; flow names must be unique", f.name)));
        }
    }
    Ok(())
}
