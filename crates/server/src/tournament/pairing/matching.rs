//! Maximum matching in a general graph (Edmonds' blossom algorithm): the Swiss pairing
//! asks it whether the players not yet paired can all still be paired, so a choice made
//! for the players at the top never leaves the bottom unpairable.
//!
//! Graphs are tiny (at most 65 vertices: 64 players and the bye), so an adjacency matrix
//! and the textbook O(V^3) search are plenty; what matters is that the answer is exact.

/// No vertex.
const NONE: usize = usize::MAX;

/// An undirected graph on vertices `0..n`, some of which may be left out.
#[derive(Debug, Clone)]
pub struct Graph {
    /// `adj[a][b]`: a and b may be matched.
    adj: Vec<Vec<bool>>,
    /// Vertices taking part (the others are ignored).
    alive: Vec<bool>,
}

impl Graph {
    /// `n` vertices, no edges, all taking part.
    pub fn new(n: usize) -> Graph {
        Graph {
            adj: vec![vec![false; n]; n],
            alive: vec![true; n],
        }
    }

    /// Number of vertices (taking part or not).
    pub fn len(&self) -> usize {
        self.adj.len()
    }

    /// Whether the graph has no vertices.
    pub fn is_empty(&self) -> bool {
        self.adj.is_empty()
    }

    /// Allows matching `a` with `b`.
    pub fn connect(&mut self, a: usize, b: usize) {
        if a != b {
            self.adj[a][b] = true;
            self.adj[b][a] = true;
        }
    }

    /// Whether `a` and `b` may be matched.
    pub fn connected(&self, a: usize, b: usize) -> bool {
        self.adj[a][b]
    }

    /// Leaves `v` out (or takes it back in).
    pub fn set_alive(&mut self, v: usize, alive: bool) {
        self.alive[v] = alive;
    }

    /// Whether `v` takes part.
    pub fn alive(&self, v: usize) -> bool {
        self.alive[v]
    }

    /// Whether every vertex taking part can be matched at once.
    pub fn has_perfect_matching(&self) -> bool {
        Matching::maximum(self).is_perfect(self)
    }
}

/// A matching: each vertex's partner, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matching {
    /// Partner of each vertex, or `NONE`.
    mate: Vec<usize>,
}

impl Matching {
    /// A maximum matching of `g`'s vertices taking part.
    pub fn maximum(g: &Graph) -> Matching {
        let n = g.len();
        let mut m = Matching {
            mate: vec![NONE; n],
        };
        // A greedy start, then one augmenting search per vertex left exposed.
        for a in 0..n {
            if !g.alive[a] || m.mate[a] != NONE {
                continue;
            }
            if let Some(b) = (0..n).find(|&b| g.alive[b] && m.mate[b] == NONE && g.adj[a][b]) {
                m.mate[a] = b;
                m.mate[b] = a;
            }
        }
        for v in 0..n {
            if g.alive[v] && m.mate[v] == NONE {
                m.augment(g, v);
            }
        }
        m
    }

    /// The partner of `v`.
    pub fn mate(&self, v: usize) -> Option<usize> {
        (self.mate[v] != NONE).then_some(self.mate[v])
    }

    /// Whether every vertex taking part in `g` is matched.
    pub fn is_perfect(&self, g: &Graph) -> bool {
        (0..g.len()).all(|v| !g.alive[v] || self.mate[v] != NONE)
    }

    /// Removes `v` and its partner from the matching (both become exposed).
    pub fn unmatch(&mut self, v: usize) {
        let w = self.mate[v];
        self.mate[v] = NONE;
        if w != NONE {
            self.mate[w] = NONE;
        }
    }

    /// Matches `a` with `b` (both must be exposed).
    pub fn pair(&mut self, a: usize, b: usize) {
        self.mate[a] = b;
        self.mate[b] = a;
    }

    /// Looks for an augmenting path from the exposed vertex `root` and flips it; returns
    /// whether the matching grew (it is maximum once no exposed vertex can grow it).
    pub fn augment(&mut self, g: &Graph, root: usize) -> bool {
        let mut search = Search::new(g.len());
        let Some(mut v) = search.find_path(g, &self.mate, root) else {
            return false;
        };
        while v != NONE {
            let pv = search.parent[v];
            let next = self.mate[pv];
            self.mate[v] = pv;
            self.mate[pv] = v;
            v = next;
        }
        true
    }
}

/// The state of one augmenting-path search.
struct Search {
    /// Tree parent of each odd vertex.
    parent: Vec<usize>,
    /// The base of the blossom each vertex is in.
    base: Vec<usize>,
    /// Vertices reached as even (in the queue).
    used: Vec<bool>,
    /// Scratch: vertices of the blossom being contracted.
    blossom: Vec<bool>,
}

impl Search {
    fn new(n: usize) -> Search {
        Search {
            parent: vec![NONE; n],
            base: (0..n).collect(),
            used: vec![false; n],
            blossom: vec![false; n],
        }
    }

    /// The lowest common ancestor of `a` and `b` in the alternating tree (by bases).
    fn lca(&self, mate: &[usize], mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; mate.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if mate[a] == NONE {
                break;
            }
            a = self.parent[mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[mate[b]];
        }
    }

    /// Marks the blossom's vertices on the path from `v` to base `b`, pointing the
    /// parents back through `child`.
    fn mark_path(&mut self, mate: &[usize], mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[mate[v]]] = true;
            self.parent[v] = child;
            child = mate[v];
            v = self.parent[mate[v]];
        }
    }

    /// Breadth-first search for an exposed vertex reachable from `root` by an
    /// alternating path; returns its end.
    fn find_path(&mut self, g: &Graph, mate: &[usize], root: usize) -> Option<usize> {
        let n = g.len();
        self.used[root] = true;
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(v) = queue.pop_front() {
            for to in 0..n {
                if !g.adj[v][to] || !g.alive[to] {
                    continue;
                }
                if self.base[v] == self.base[to] || mate[v] == to {
                    continue;
                }
                if to == root || mate[to] != NONE && self.parent[mate[to]] != NONE {
                    // An odd cycle: contract the blossom into its base.
                    let base = self.lca(mate, v, to);
                    self.blossom.fill(false);
                    self.mark_path(mate, v, base, to);
                    self.mark_path(mate, to, base, v);
                    for i in 0..n {
                        if self.blossom[self.base[i]] {
                            self.base[i] = base;
                            if !self.used[i] {
                                self.used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if mate[to] == NONE {
                        return Some(to);
                    }
                    let next = mate[to];
                    self.used[next] = true;
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift) for the random graphs.
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// The size of a maximum matching by trying everything.
    fn brute(g: &Graph, free: &mut Vec<usize>) -> usize {
        let Some(a) = free.pop() else {
            return 0;
        };
        // Either `a` stays unmatched …
        let mut best = brute(g, free);
        // … or it takes one of the others.
        for i in 0..free.len() {
            let b = free[i];
            if g.connected(a, b) {
                let mut rest = free.clone();
                rest.remove(i);
                best = best.max(1 + brute(g, &mut rest));
            }
        }
        free.push(a);
        best
    }

    #[test]
    fn maximum_matching_agrees_with_brute_force() {
        let mut seed = 0x2545_F491_4F6C_DD1D;
        for _ in 0..400 {
            let n = (next(&mut seed) % 10) as usize + 1;
            let density = next(&mut seed) % 100;
            let mut g = Graph::new(n);
            for a in 0..n {
                for b in a + 1..n {
                    if next(&mut seed) % 100 < density {
                        g.connect(a, b);
                    }
                }
                if next(&mut seed).is_multiple_of(10) {
                    g.set_alive(a, false);
                }
            }
            let m = Matching::maximum(&g);
            let size = (0..n).filter(|&v| m.mate(v).is_some()).count() / 2;
            let mut free: Vec<usize> = (0..n).filter(|&v| g.alive(v)).collect();
            assert_eq!(size, brute(&g, &mut free), "{g:?}");
            for v in 0..n {
                if let Some(w) = m.mate(v) {
                    assert!(g.connected(v, w) && g.alive(v) && g.alive(w));
                    assert_eq!(m.mate(w), Some(v));
                }
            }
        }
    }

    #[test]
    fn an_odd_cycle_with_a_tail_needs_a_blossom() {
        // A triangle 0-1-2 with 3 hanging off 2 and 4 off 0: perfect only as 4-0, 1-2 …
        // impossible (5 vertices); add 5 off 1: 4-0, 5-1, 2-3.
        let mut g = Graph::new(6);
        for (a, b) in [(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (1, 5)] {
            g.connect(a, b);
        }
        assert!(g.has_perfect_matching());
        g.set_alive(5, false);
        g.set_alive(4, false);
        assert!(g.has_perfect_matching(), "0-1, 2-3");
        g.set_alive(3, false);
        assert!(!g.has_perfect_matching(), "three vertices");
    }
}
