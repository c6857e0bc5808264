//! Shortest-path routing over the ports that are up: fewest hops, ties to the port
//! listed first (links in scenario order). Rebuilt whenever a link goes down or up.
//!
//! Only routers keep a row. A node with at most one port up (a host, a mobile host
//! behind its base station) sends everything through that port, and its neighbour's
//! row says whether the destination is reachable; so 10,000 hosts behind one base
//! station cost one row of 10,000 entries, not 10⁸.

use crate::packet::NodeId;
use std::collections::VecDeque;

/// Index of a port in the world's port table.
pub type PortId = u32;
const NONE: u32 = u32::MAX;

/// A port as routing sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    pub from: NodeId,
    pub to: NodeId,
    pub up: bool,
}

pub struct Routes {
    n: usize,
    /// Row of each router, `NONE` for a host.
    row_of: Vec<u32>,
    /// A host's one port up, `NONE` if it has none (or is a router).
    host_port: Vec<PortId>,
    /// `rows[row * n + to]`: the port a router takes toward `to`.
    rows: Vec<PortId>,
}

impl Routes {
    /// Routes over `ports` (in scenario order) among `n_nodes` nodes.
    pub fn build(n_nodes: usize, ports: &[Hop]) -> Self {
        let mut out: Vec<Vec<PortId>> = vec![Vec::new(); n_nodes];
        for (i, p) in ports.iter().enumerate().filter(|(_, p)| p.up) {
            out[p.from as usize].push(i as PortId);
        }
        let mut row_of = vec![NONE; n_nodes];
        let mut host_port = vec![NONE; n_nodes];
        let mut routers = Vec::new();
        for (node, o) in out.iter().enumerate() {
            match o.len() {
                0 => {}
                1 => host_port[node] = o[0],
                _ => {
                    row_of[node] = routers.len() as u32;
                    routers.push(node);
                }
            }
        }
        let mut rows = vec![NONE; routers.len() * n_nodes];
        let mut seen = vec![false; n_nodes];
        let mut queue = VecDeque::new();
        for (r, &src) in routers.iter().enumerate() {
            let row = &mut rows[r * n_nodes..(r + 1) * n_nodes];
            bfs(src, ports, &out, row, &mut seen, &mut queue);
        }
        Routes { n: n_nodes, row_of, host_port, rows }
    }

    /// The port to take from `from` toward `to`, if `to` is reachable.
    #[inline]
    pub fn next_hop(&self, from: NodeId, to: NodeId, ports: &[Hop]) -> Option<PortId> {
        if from == to {
            return None;
        }
        let row = self.row_of[from as usize];
        if row != NONE {
            let p = self.rows[row as usize * self.n + to as usize];
            return (p != NONE).then_some(p);
        }
        let p = self.host_port[from as usize];
        if p == NONE {
            return None;
        }
        // A host: its one port, if the neighbour is the destination or a router that can
        // reach it (a route from the router never comes back through a host).
        let nb = ports[p as usize].to;
        let nb_row = self.row_of[nb as usize];
        (nb == to || (nb_row != NONE && self.rows[nb_row as usize * self.n + to as usize] != NONE)).then_some(p)
    }

    /// Bytes the tables take (a scale metric).
    pub fn table_bytes(&self) -> usize {
        4 * (self.rows.len() + self.row_of.len() + self.host_port.len())
    }
}

/// Breadth-first search from `src`, writing into `row` the first port used to reach
/// each node.
fn bfs(src: usize, ports: &[Hop], out: &[Vec<PortId>], row: &mut [PortId], seen: &mut [bool], queue: &mut VecDeque<(usize, PortId)>) {
    seen.fill(false);
    seen[src] = true;
    queue.push_back((src, NONE));
    while let Some((u, first)) = queue.pop_front() {
        for &p in &out[u] {
            let to = ports[p as usize].to as usize;
            if !seen[to] {
                seen[to] = true;
                // Leaving the source, the port itself is the first hop.
                let first = if first == NONE { p } else { first };
                row[to] = first;
                queue.push_back((to, first));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hops(pairs: &[(NodeId, NodeId)]) -> Vec<Hop> {
        pairs.iter().map(|&(from, to)| Hop { from, to, up: true }).collect()
    }

    #[test]
    fn chain_routes_through_the_middle() {
        // 0 <-> 1 <-> 2, ports: 0:0->1, 1:1->0, 2:1->2, 3:2->1
        let p = hops(&[(0, 1), (1, 0), (1, 2), (2, 1)]);
        let r = Routes::build(3, &p);
        assert_eq!(r.next_hop(0, 2, &p), Some(0));
        assert_eq!(r.next_hop(1, 2, &p), Some(2));
        assert_eq!(r.next_hop(2, 0, &p), Some(3));
        assert_eq!(r.next_hop(0, 0, &p), None);
    }

    #[test]
    fn shortest_path_wins_over_a_detour() {
        // 0->1->2 and a direct 0->2 listed last.
        let p = hops(&[(0, 1), (1, 2), (0, 2)]);
        let r = Routes::build(3, &p);
        assert_eq!(r.next_hop(0, 2, &p), Some(2));
    }

    #[test]
    fn unreachable_is_none() {
        let p = hops(&[(0, 1)]);
        let r = Routes::build(3, &p);
        assert_eq!(r.next_hop(1, 0, &p), None);
        assert_eq!(r.next_hop(0, 2, &p), None);
    }

    #[test]
    fn a_port_down_reroutes_and_a_detached_host_has_no_route() {
        // Star: hub 0 with hosts 1, 2, 3; host 3 also has a link to 2 (down).
        let mut p = hops(&[(0, 1), (1, 0), (0, 2), (2, 0), (0, 3), (3, 0), (2, 3), (3, 2)]);
        p[6].up = false;
        p[7].up = false;
        let r = Routes::build(4, &p);
        assert_eq!(r.next_hop(1, 3, &p), Some(1));
        assert_eq!(r.next_hop(3, 1, &p), Some(5));
        // Host 3 hands over from 0 to 2.
        for i in [4, 5] {
            p[i].up = false;
        }
        for i in [6, 7] {
            p[i].up = true;
        }
        let r = Routes::build(4, &p);
        assert_eq!(r.next_hop(1, 3, &p), Some(1));
        assert_eq!(r.next_hop(0, 3, &p), Some(2));
        assert_eq!(r.next_hop(3, 1, &p), Some(7));
        // Detached entirely.
        p[6].up = false;
        p[7].up = false;
        let r = Routes::build(4, &p);
        assert_eq!(r.next_hop(3, 1, &p), None);
        assert_eq!(r.next_hop(1, 3, &p), None);
    }

    #[test]
    fn hosts_keep_no_rows() {
        let n = 10_002;
        let mut pairs = vec![(0, 1), (1, 0)];
        for h in 2..n as NodeId {
            pairs.extend([(1, h), (h, 1)]);
        }
        let p = hops(&pairs);
        let r = Routes::build(n, &p);
        assert!(r.table_bytes() < 200_000, "{}", r.table_bytes());
        assert_eq!(r.next_hop(5, 0, &p), Some(2 * 5 - 1));
        assert_eq!(r.next_hop(0, 9_000, &p), Some(0));
    }
}
