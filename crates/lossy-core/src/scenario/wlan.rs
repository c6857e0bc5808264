//! `[[wlans]]` tables → WLAN segments: each checked (its own fields, then its stations
//! against the nodes), built with its own named streams, and its ports (every ordered
//! pair of stations) joined to routing like link directions.

use super::build::lookup;
use super::Scenario;
use crate::engine::KeyedTimer;
use crate::error::{Error, Result};
use crate::net::routing::Hop;
use crate::net::{Segment, Wlan};
use crate::packet::NodeId;
use crate::rng::RngStream;
use crate::world::{Port, SegmentSlot};
use std::collections::HashMap;

/// Appends a segment per WLAN (after the links'), with its ports and hops; returns the
/// pairs of stations that hear each other (neighbours for agents).
pub(super) fn build_wlans(
    s: &Scenario,
    names: &HashMap<&str, NodeId>,
    streams: &dyn Fn(&str) -> RngStream,
    segments: &mut Vec<SegmentSlot>,
    ports: &mut Vec<Port>,
    hops: &mut Vec<Hop>,
) -> Result<Vec<(NodeId, NodeId)>> {
    let mut neighbours = Vec::new();
    for (w, cfg) in s.wlans.iter().enumerate() {
        let path = format!("wlans.{w}");
        cfg.validate().map_err(|m| Error::nested(&path, m))?;
        let n = cfg.stations.len();
        if n < 2 {
            return Err(Error::scenario(format!("{path}.stations"), format!("{n} station(s) given; a WLAN needs at least 2")));
        }
        let mut stations: Vec<(NodeId, &str)> = Vec::with_capacity(n);
        for (k, name) in cfg.stations.iter().enumerate() {
            let id = lookup(names, &format!("{path}.stations.{k}"), name, s)?;
            if stations.iter().any(|&(i, _)| i == id) {
                return Err(Error::scenario(format!("{path}.stations.{k}"), format!("\"{name}\" is listed twice; a station joins a WLAN once")));
            }
            stations.push((id, name));
        }
        let mut wlan = Wlan::from_config(cfg, w, &stations, streams).map_err(|m| Error::nested(&format!("{path}.queue"), m))?;
        if s.traces.sojourn {
            wlan.trace_sojourns();
        }
        let (segment, first_port) = (segments.len() as u32, ports.len() as u32);
        for (iface, e) in wlan.ports().into_iter().enumerate() {
            ports.push(Port { segment, iface: iface as u32 });
            hops.push(Hop { from: e.from, to: e.to, up: true });
            if e.from < e.to {
                neighbours.push((e.from, e.to));
            }
        }
        segments.push(SegmentSlot { seg: wlan.into(), timer: KeyedTimer::default(), first_port });
    }
    Ok(neighbours)
}
