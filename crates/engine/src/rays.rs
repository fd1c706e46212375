//! Rays: a compiled genome's walks regrouped by block, so that what they reach is a few bit
//! operations rather than a loop over squares.
//!
//! A walk stops at the first occupied square it marks, so what it reaches is a prefix of its path.
//! When the path's squares come in increasing square order, that prefix is every path square up
//! to and including the lowest occupied one: one subtraction, the way chess libraries find a
//! slider's first blocker. With decreasing order it is the highest occupied one. A walk that marks
//! a single square reaches it whatever stands there, so a block's one-square walks from a square
//! are one mask (a leaper's). Only paths in neither order (round the joined edges, or turning back)
//! are still walked square by square. Every standard genome's walks are rays or leaps.
//!
//! Which walk a square came from does not matter here: a block's candidates are one set (the
//! first block to emit a destination decides its outcome), so the regrouping changes no move.
//!
//! Each square's blocks are fixed-size records side by side, so that counting a piece's moves reads
//! one short stretch of memory with no decoding.

use crate::compile::Walk;

/// The squares a move may land on for each combination of a block's [`BlockCode::allowed`]
/// bits, given who stands where: made once per side and position, then one load per block.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Targets {
    pub own: u64,
    pub opp: u64,
    by_allowed: [u64; 8],
}

impl Targets {
    #[inline(always)]
    pub fn new(own: u64, opp: u64) -> Targets {
        let empty = !(own | opp);
        let kinds = [own, opp, empty];
        let by_allowed = std::array::from_fn(|bits| {
            (0..3)
                .filter(|kind| bits >> kind & 1 != 0)
                .fold(0, |m, kind| m | kinds[kind])
        });
        Targets {
            own,
            opp,
            by_allowed,
        }
    }
}

/// The walks of one block from one square.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BlockCode {
    pub block: u16,
    /// Bit 0: the block may move onto own pieces, bit 1: onto the opponent's, bit 2: onto empty
    /// squares.
    allowed: u8,
    /// `rays[..ups]` are increasing paths, `rays[ups..ups + downs]` decreasing ones. A block has
    /// at most eight walks from a square (two turning senses, four start directions).
    ups: u8,
    downs: u8,
    /// `Rays::others[others..others + neither]`: indices into the genome's walks of the paths in
    /// neither order.
    neither: u8,
    others: u32,
    /// Every square of the block's one-square walks.
    leap: u64,
    rays: [u64; 8],
}

/// The rays of a genome compiled for one board size.
#[derive(Debug, Clone)]
pub(crate) struct Rays {
    /// The range of `blocks` that starts on each square.
    per_square: [(u32, u32); 64],
    blocks: Vec<BlockCode>,
    others: Vec<u32>,
}

/// The order of a path's squares.
#[derive(PartialEq, Eq)]
enum Order {
    Single,
    Increasing,
    Decreasing,
    Neither,
}

fn order(path: &[u8]) -> Order {
    match path {
        [_] => Order::Single,
        _ if path.is_sorted() => Order::Increasing,
        _ if path.is_sorted_by(|a, b| a > b) => Order::Decreasing,
        _ => Order::Neither,
    }
}

impl Rays {
    /// Regroups `walks` (each square's range in `square_walks`, paths in `path`).
    pub fn new(walks: &[Walk], path: &[u8], square_walks: &[(u32, u32); 64]) -> Rays {
        let mut rays = Rays {
            per_square: [(0, 0); 64],
            blocks: Vec::new(),
            others: Vec::new(),
        };
        for (square, &(first, end)) in square_walks.iter().enumerate() {
            let begin = rays.blocks.len() as u32;
            let mut i = first as usize;
            while i < end as usize {
                let block = walks[i].block;
                let mut j = i;
                while j < end as usize && walks[j].block == block {
                    j += 1;
                }
                rays.push_block(walks, path, i..j);
                i = j;
            }
            rays.per_square[square] = (begin, rays.blocks.len() as u32);
        }
        rays
    }

    /// Adds one block's walks `walks[range]`, all from one square.
    fn push_block(&mut self, walks: &[Walk], path: &[u8], range: std::ops::Range<usize>) {
        let of = |w: &Walk| &path[w.start as usize..(w.start + w.len) as usize];
        let in_order = |wanted: Order| {
            range
                .clone()
                .filter(move |&i| order(of(&walks[i])) == wanted)
        };
        // At most eight walks per block and square, so `rays` holds them all.
        debug_assert!(range.len() <= 8);
        let mut rays = [0u64; 8];
        let ordered = in_order(Order::Increasing).chain(in_order(Order::Decreasing));
        for (slot, i) in rays.iter_mut().zip(ordered) {
            *slot = walks[i].full;
        }
        let others_first = self.others.len() as u32;
        self.others
            .extend(in_order(Order::Neither).map(|i| i as u32));
        let sample = &walks[range.start];
        self.blocks.push(BlockCode {
            block: sample.block,
            allowed: u8::from(sample.own_mask != 0)
                | u8::from(sample.opp_mask != 0) << 1
                | u8::from(sample.empty_mask != 0) << 2,
            ups: in_order(Order::Increasing).count() as u8,
            downs: in_order(Order::Decreasing).count() as u8,
            neither: (self.others.len() as u32 - others_first) as u8,
            others: others_first,
            leap: in_order(Order::Single).fold(0, |m, i| m | walks[i].full),
            rays,
        });
    }

    /// Calls `f(block, emitted)` for each block with walks from the square of index `from`, in DNA
    /// order: `emitted` are the squares the block's walks reach that it may move onto.
    /// `walk_reach(i, occupied)` is what walk `i` of the genome reaches, for the paths in neither
    /// order.
    #[inline(always)]
    pub fn emits(
        &self,
        from: usize,
        targets: &Targets,
        walk_reach: impl Fn(usize, u64) -> u64,
        mut f: impl FnMut(u16, u64),
    ) {
        let occupied = targets.own | targets.opp;
        let (a, b) = self.per_square[from & 63];
        for code in &self.blocks[a as usize..b as usize] {
            let mut reach = code.leap;
            let (ups, downs) = code.rays.split_at(usize::from(code.ups));
            for &full in ups {
                let blockers = full & occupied;
                // Every bit up to and including the lowest blocker; all bits if there is none.
                reach |= full & (blockers ^ blockers.wrapping_sub(1));
            }
            for &full in &downs[..usize::from(code.downs)] {
                // Every bit from the highest blocker up; with none, from bit 0 (the 1 added),
                // which is all of the path.
                let highest = (full & occupied | 1).ilog2();
                reach |= full & (u64::MAX << highest);
            }
            if code.neither != 0 {
                let first = code.others as usize;
                for &walk in &self.others[first..first + usize::from(code.neither)] {
                    reach |= walk_reach(walk as usize, occupied);
                }
            }
            f(
                code.block,
                reach & targets.by_allowed[usize::from(code.allowed & 7)],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_sorted_by_their_order() {
        assert!(order(&[5]) == Order::Single);
        assert!(order(&[8, 16, 24]) == Order::Increasing);
        assert!(order(&[24, 23]) == Order::Decreasing);
        assert!(order(&[1, 0, 7, 6]) == Order::Neither);
    }

    #[test]
    fn targets_combine_the_kinds_of_square() {
        let targets = Targets::new(0b0011, 0b0100);
        let empty = !0b0111u64;
        assert_eq!(targets.by_allowed[0], 0);
        assert_eq!(targets.by_allowed[0b001], 0b0011);
        assert_eq!(targets.by_allowed[0b110], 0b0100 | empty);
        assert_eq!(targets.by_allowed[0b111], !0);
    }

    /// A genome with one block, allowed everywhere, whose only walk from square 0 is `full`.
    fn ray(full: u64, increasing: bool) -> Rays {
        let mut per_square = [(0, 0); 64];
        per_square[0] = (0, 1);
        let mut rays = [0; 8];
        rays[0] = full;
        let code = BlockCode {
            block: 0,
            allowed: 0b111,
            ups: u8::from(increasing),
            downs: u8::from(!increasing),
            neither: 0,
            others: 0,
            leap: 0,
            rays,
        };
        Rays {
            per_square,
            blocks: vec![code],
            others: Vec::new(),
        }
    }

    fn reach(rays: &Rays, occupied: u64) -> u64 {
        let mut all = 0;
        let targets = Targets::new(0, occupied);
        rays.emits(0, &targets, |_, _| 0, |_, emitted| all |= emitted);
        all
    }

    #[test]
    fn a_ray_reaches_up_to_its_first_blocker() {
        // The file above a1: a2 … a8 (bits 8, 16, … 56).
        let file = 0x0101_0101_0101_0100u64;
        let rays = ray(file, true);
        assert_eq!(reach(&rays, 0), file);
        assert_eq!(reach(&rays, 1 << 24), (1 << 8) | (1 << 16) | (1 << 24));
        assert_eq!(reach(&rays, (1 << 24) | (1 << 8)), 1 << 8);
        assert_eq!(reach(&rays, !file), file);
        // The same squares walked downwards, from a8's side.
        let rays = ray(file, false);
        assert_eq!(reach(&rays, 0), file);
        assert_eq!(reach(&rays, 1 << 24), file & !((1 << 24) - 1));
        assert_eq!(reach(&rays, (1 << 24) | (1 << 48)), (1 << 48) | (1 << 56));
        assert_eq!(reach(&rays, 1 << 56), 1 << 56);
        assert_eq!(reach(&rays, 1 << 63), file);
    }
}
