//! Static shortest-path routing: a next-hop table built once by breadth-first search
//! (fewest hops; ties go to the link listed first in the scenario).

use crate::packet::NodeId;
use std::collections::VecDeque;

/// `next[from][to]` = index of the link direction to take, `None` if unreachable.
pub struct Routes {
    next: Vec<Vec<Option<usize>>>,
}

impl Routes {
    /// `dirs[i] = (from, to)` for each link direction, in scenario order.
    pub fn build(n_nodes: usize, dirs: &[(NodeId, NodeId)]) -> Self {
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); n_nodes];
        for (i, &(a, _)) in dirs.iter().enumerate() {
            out[a as usize].push(i);
        }
        let mut next = vec![vec![None; n_nodes]; n_nodes];
        for (src, row) in next.iter_mut().enumerate() {
            // BFS from src, remembering the first hop used to reach each node.
            let mut seen = vec![false; n_nodes];
            seen[src] = true;
            let mut q = VecDeque::new();
            for &d in &out[src] {
                let to = dirs[d].1 as usize;
                if !seen[to] {
                    seen[to] = true;
                    row[to] = Some(d);
                    q.push_back((to, d));
                }
            }
            while let Some((u, first)) = q.pop_front() {
                for &d in &out[u] {
                    let to = dirs[d].1 as usize;
                    if !seen[to] {
                        seen[to] = true;
                        row[to] = Some(first);
                        q.push_back((to, first));
                    }
                }
            }
        }
        Routes { next }
    }

    pub fn next_hop(&self, from: NodeId, to: NodeId) -> Option<usize> {
        self.next[from as usize][to as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_routes_through_the_middle() {
        // 0 <-> 1 <-> 2, directions: 0:0->1, 1:1->0, 2:1->2, 3:2->1
        let r = Routes::build(3, &[(0, 1), (1, 0), (1, 2), (2, 1)]);
        assert_eq!(r.next_hop(0, 2), Some(0));
        assert_eq!(r.next_hop(1, 2), Some(2));
        assert_eq!(r.next_hop(2, 0), Some(3));
        assert_eq!(r.next_hop(0, 0), None);
    }

    #[test]
    fn shortest_path_wins_over_a_detour() {
        // 0->1->2 and a direct 0->2 listed last.
        let r = Routes::build(3, &[(0, 1), (1, 2), (0, 2)]);
        assert_eq!(r.next_hop(0, 2), Some(2));
    }

    #[test]
    fn unreachable_is_none() {
        let r = Routes::build(3, &[(0, 1)]);
        assert_eq!(r.next_hop(1, 0), None);
        assert_eq!(r.next_hop(0, 2), None);
    }
}
