//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm, the primal-dual
//! O(n³) form described by Galil, "Efficient algorithms for finding maximum matching in graphs",
//! 1986), over [`Wide`] weights.
//!
//! Written for the Dutch pairing, which solves the same graph many times with a few weights
//! changed: the answer is a plain maximum-weight matching (not of maximum cardinality: the
//! weights themselves make completeness the first goal). Vertex duals are kept doubled, so that
//! with integer weights every quantity stays an integer.

use super::wide::Wide;

const NONE: usize = usize::MAX;

/// The matching of maximum total weight over the edges of positive weight in `weights` (a
/// symmetric n × n matrix; zero is no edge): for each vertex its mate, or itself when unmatched.
pub fn maximum_matching<const N: usize>(weights: &[Vec<Wide<N>>]) -> Vec<usize> {
    let n = weights.len();
    let mut edges = Vec::new();
    for (i, row) in weights.iter().enumerate() {
        for (j, &w) in row.iter().enumerate().skip(i + 1) {
            if !w.is_zero() {
                edges.push((i, j, w));
            }
        }
    }
    let mut solver = Solver::new(n, edges);
    solver.solve();
    (0..n)
        .map(|v| match solver.mate[v] {
            NONE => v,
            p => solver.endpoint[p],
        })
        .collect()
}

struct Solver<const N: usize> {
    n: usize,
    /// The edges, their weights doubled.
    edges: Vec<(usize, usize, Wide<N>)>,
    /// endpoint[p]: the vertex at end p of edge p / 2.
    endpoint: Vec<usize>,
    /// Per vertex, the ends p whose edge leaves it toward endpoint[p].
    neighbend: Vec<Vec<usize>>,
    /// Per vertex, the end p (toward the mate) of its matched edge, or NONE.
    mate: Vec<usize>,
    /// Per top-level blossom or vertex: 0 free, 1 S, 2 T (5 while scanning).
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<Wide<N>>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<const N: usize> Solver<N> {
    fn new(n: usize, edges: Vec<(usize, usize, Wide<N>)>) -> Solver<N> {
        let maxweight = edges.iter().map(|e| e.2).max().unwrap_or(Wide::ZERO);
        // Kept doubled: the slack reads 2 w.
        let edges: Vec<(usize, usize, Wide<N>)> = edges
            .into_iter()
            .map(|(i, j, w)| (i, j, w.add(w)))
            .collect();
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(Wide::ZERO, n));
        let mut blossombase: Vec<usize> = (0..n).collect();
        blossombase.extend(std::iter::repeat_n(NONE, n));
        let edge_count = edges.len();
        Solver {
            n,
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase,
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).rev().collect(),
            dualvar,
            allowedge: vec![false; edge_count],
            queue: Vec::new(),
        }
    }

    /// u_i + u_j − 2 w_ij, never negative while the duals are feasible.
    fn slack(&self, k: usize) -> Wide<N> {
        let (i, j, doubled) = self.edges[k];
        self.dualvar[i].add(self.dualvar[j]).sub(doubled)
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.blossombase[b];
            let mate = self.mate[base];
            self.assign_label(self.endpoint[mate], 1, mate ^ 1);
        }
    }

    /// The base of the blossom that an edge between S-vertices v and w closes, or NONE when the
    /// edge joins two trees (an augmenting path).
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = Wide::ZERO;
        for leaf in self.leaves_of_list(&path) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &child in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[child].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(child)
                    .iter()
                    .map(|&leaf| self.neighbend[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[child] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(best);
        self.blossomchilds[b] = path;
        self.blossomendps[b] = endps;
    }

    fn leaves_of_list(&self, path: &[usize]) -> Vec<usize> {
        let mut out = Vec::new();
        for &t in path {
            self.leaves(t, &mut out);
        }
        out
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let children = self.blossomchilds[b].clone();
        for &s in &children {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s].is_zero() {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = children.len() as isize;
            let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = children
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                self.label[self.endpoint[endps[at(j - endptrick as isize)] ^ endptrick ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[endps[at(j - endptrick as isize)] / 2] = true;
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = children[at(j)];
            self.label[self.endpoint[p ^ 1]] = 2;
            self.label[bv] = 2;
            self.labelend[self.endpoint[p ^ 1]] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while children[at(j)] != entrychild {
                let bv = children[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let labelled = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = labelled {
                    self.label[v] = 0;
                    let base_mate = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[base_mate]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = u8::MAX;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("child");
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            let p = self.blossomendps[b][at(j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if self.scan(v) {
                        augmented = true;
                        break;
                    }
                }
                if augmented {
                    break;
                }
                if self.dual_step() {
                    break;
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b].is_zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }

    /// Looks at the edges of S-vertex v; true when it augmented the matching.
    fn scan(&mut self, v: usize) -> bool {
        for idx in 0..self.neighbend[v].len() {
            let p = self.neighbend[v][idx];
            let k = p / 2;
            let w = self.endpoint[p];
            if self.inblossom[v] == self.inblossom[w] {
                continue;
            }
            let mut kslack = Wide::ZERO;
            if !self.allowedge[k] {
                kslack = self.slack(k);
                if kslack.is_zero() {
                    self.allowedge[k] = true;
                }
            }
            if self.allowedge[k] {
                if self.label[self.inblossom[w]] == 0 {
                    self.assign_label(w, 2, p ^ 1);
                } else if self.label[self.inblossom[w]] == 1 {
                    let base = self.scan_blossom(v, w);
                    if base != NONE {
                        self.add_blossom(base, k);
                    } else {
                        self.augment_matching(k);
                        return true;
                    }
                } else if self.label[w] == 0 {
                    self.label[w] = 2;
                    self.labelend[w] = p ^ 1;
                }
            } else if self.label[self.inblossom[w]] == 1 {
                let b = self.inblossom[v];
                if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                    self.bestedge[b] = k;
                }
            } else if self.label[w] == 0
                && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
            {
                self.bestedge[w] = k;
            }
        }
        false
    }

    /// Changes the duals by the largest step that keeps them feasible; true when the stage ends
    /// without an augmenting path (the matching is optimal).
    fn dual_step(&mut self) -> bool {
        let n = self.n;
        let mut deltatype = 1;
        let mut delta = (0..n).map(|v| self.dualvar[v]).min().unwrap_or(Wide::ZERO);
        let mut deltaedge = NONE;
        let mut deltablossom = NONE;
        for v in 0..n {
            if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                let d = self.slack(self.bestedge[v]);
                if d < delta {
                    delta = d;
                    deltatype = 2;
                    deltaedge = self.bestedge[v];
                }
            }
        }
        for b in 0..2 * n {
            if self.blossomparent[b] == NONE && self.label[b] == 1 && self.bestedge[b] != NONE {
                let d = self.slack(self.bestedge[b]).half();
                if d < delta {
                    delta = d;
                    deltatype = 3;
                    deltaedge = self.bestedge[b];
                }
            }
        }
        for b in n..2 * n {
            if self.blossombase[b] != NONE
                && self.blossomparent[b] == NONE
                && self.label[b] == 2
                && self.dualvar[b] < delta
            {
                delta = self.dualvar[b];
                deltatype = 4;
                deltablossom = b;
            }
        }
        for v in 0..n {
            match self.label[self.inblossom[v]] {
                1 => self.dualvar[v] = self.dualvar[v].sub(delta),
                2 => self.dualvar[v] = self.dualvar[v].add(delta),
                _ => {}
            }
        }
        for b in n..2 * n {
            if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                match self.label[b] {
                    1 => self.dualvar[b] = self.dualvar[b].add(delta),
                    2 => self.dualvar[b] = self.dualvar[b].sub(delta),
                    _ => {}
                }
            }
        }
        match deltatype {
            2 => {
                self.allowedge[deltaedge] = true;
                let (mut i, j, _) = self.edges[deltaedge];
                if self.label[self.inblossom[i]] == 0 {
                    i = j;
                }
                self.queue.push(i);
                false
            }
            3 => {
                self.allowedge[deltaedge] = true;
                let (i, _, _) = self.edges[deltaedge];
                self.queue.push(i);
                false
            }
            4 => {
                self.expand_blossom(deltablossom, false);
                false
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    type Wide = super::Wide<2>;

    fn graph(n: usize, edges: &[(usize, usize, u64)]) -> Vec<Vec<Wide>> {
        let mut w = vec![vec![Wide::ZERO; n]; n];
        for &(i, j, x) in edges {
            w[i][j] = Wide::from_u64(x);
            w[j][i] = Wide::from_u64(x);
        }
        w
    }

    fn total(weights: &[Vec<Wide>], mates: &[usize]) -> u64 {
        (0..mates.len())
            .filter(|&v| mates[v] > v)
            .map(|v| weights[v][mates[v]].low())
            .sum()
    }

    /// The best total by trying every matching (small graphs).
    fn brute(weights: &[Vec<Wide>], free: &mut Vec<bool>) -> u64 {
        let Some(v) = free.iter().position(|&f| f) else {
            return 0;
        };
        free[v] = false;
        let mut best = brute(weights, free);
        for u in v + 1..free.len() {
            if free[u] && !weights[v][u].is_zero() {
                free[u] = false;
                best = best.max(weights[v][u].low() + brute(weights, free));
                free[u] = true;
            }
        }
        free[v] = true;
        best
    }

    #[test]
    fn small_known_cases() {
        let g = graph(3, &[(0, 1, 1), (1, 2, 2)]);
        assert_eq!(maximum_matching(&g), vec![0, 2, 1]);
        // A blossom: the odd triangle 0-1-2 with a pendant 3.
        let g = graph(4, &[(0, 1, 6), (1, 2, 6), (0, 2, 6), (2, 3, 7)]);
        let m = maximum_matching(&g);
        assert_eq!(total(&g, &m), 13);
    }

    #[test]
    fn agrees_with_brute_force_on_pseudo_random_graphs() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..400 {
            let n = 2 + (case % 9) as usize;
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if next() % 3 != 0 {
                        edges.push((i, j, 1 + next() % 20));
                    }
                }
            }
            let g = graph(n, &edges);
            let m = maximum_matching(&g);
            for v in 0..n {
                assert_eq!(m[m[v]], v, "case {case}: mates are mutual");
                if m[v] != v {
                    assert!(!g[v][m[v]].is_zero(), "case {case}: an edge");
                }
            }
            assert_eq!(total(&g, &m), brute(&g, &mut vec![true; n]), "case {case}");
        }
    }
}
