//! Walk tables: a genome compiled for one board size (rules §3).
//!
//! On an empty board a walk is deterministic, so the squares it marks can be listed once per
//! (block, turning sense, start direction, from square). Occupancy then only decides where the walk
//! stops: at the first marked square that holds a piece. The from square always holds the mover
//! itself, so every walk is cut just after marking it. Plain steps never emit nor stop, so they are
//! resolved away here, and so is the walk's cycle detection. A square marked twice in one walk can
//! only matter the first time (if it is occupied the walk stops there; if empty it emits the same
//! candidate again), so each walk keeps first marks only, and a walk equal to an earlier one of the
//! same block is dropped. None of this changes which candidate comes first for a destination.

use crate::rays::Rays;
use crate::square::{BoardSize, Color, Square};
use gmo_genome::{Block, Code, Content, Debuff, DebuffSet, Genome, Outcome, Owner};

/// Who owns a piece a move leaves behind, relative to the side that moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Party {
    Mover,
    Opponent,
}

impl Party {
    pub const fn side(self, mover: Color) -> Color {
        match self {
            Party::Mover => mover,
            Party::Opponent => mover.opponent(),
        }
    }
}

/// What one square holds after a move, and who owns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Leave {
    pub what: Content,
    pub owner: Party,
}

/// What a move leaves on its from and to squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Effect {
    pub from: Leave,
    pub to: Leave,
}

/// What a destination holds, as the generator sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TargetKind {
    Own = 0,
    Opponent = 1,
    Empty = 2,
}

/// A block's outcomes with its owners folded in: the effect of a move onto each kind of square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlockRule {
    pub effects: [Option<Effect>; 3],
}

impl BlockRule {
    fn new(block: &Block) -> BlockRule {
        let party = |owner: Owner| match owner {
            Owner::Opponent => Party::Opponent,
            Owner::Mover(_) => Party::Mover,
        };
        let effect = |outcome: Outcome| match outcome {
            Outcome::Forbidden => None,
            Outcome::Leaves { from, to } => Some(Effect {
                from: Leave {
                    what: from,
                    owner: party(block.owner_from),
                },
                to: Leave {
                    what: to,
                    owner: party(block.owner_to),
                },
            }),
        };
        BlockRule {
            effects: [
                effect(block.on_own),
                effect(block.on_opponent),
                effect(block.on_empty),
            ],
        }
    }
}

/// One walk: `path[start .. start + len]` are the squares it marks, in order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Walk {
    pub block: u16,
    pub start: u32,
    pub len: u32,
    /// Every square of the path.
    pub full: u64,
    /// All ones if the block allows moves onto own pieces, else zero; same for the others. Masks
    /// rather than flags so that the hot loop has no branches on them.
    pub own_mask: u64,
    pub opp_mask: u64,
    pub empty_mask: u64,
}

/// A genome compiled for one board size.
#[derive(Debug, Clone)]
pub struct CompiledGenome {
    genome: Genome,
    dna: String,
    /// The code of `dna`, hashed once: views show it for every piece.
    code: Code,
    debuffs: DebuffSet,
    size: BoardSize,
    pub(crate) rules: Vec<BlockRule>,
    /// The range of `walks` that starts on each square.
    pub(crate) square_walks: [(u32, u32); 64],
    pub(crate) walks: Vec<Walk>,
    pub(crate) path: Vec<u8>,
    /// The destinations the debuff filters keep, per side and from square.
    pub(crate) filter: [[u64; 64]; 2],
    /// The same walks as rays, for counting and making moves.
    pub(crate) rays: Rays,
}

/// North, east, south, west: clockwise order.
const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl CompiledGenome {
    pub fn new(genome: Genome, size: BoardSize) -> CompiledGenome {
        let debuffs = genome.debuffs();
        let rules: Vec<BlockRule> = genome.blocks.iter().map(BlockRule::new).collect();
        let mut square_walks = [(0u32, 0u32); 64];
        let mut walks = Vec::new();
        let mut path = Vec::new();
        let mut filter = [[0u64; 64]; 2];
        let mut seen = [0u64; 16];
        for from in size.squares() {
            let first = walks.len() as u32;
            for (b, block) in genome.blocks.iter().enumerate() {
                let rule = &rules[b];
                if rule.effects.iter().all(Option::is_none) {
                    continue;
                }
                let block_first = walks.len();
                for turn in [1usize, 3] {
                    for start in 0..4 {
                        let begin = path.len();
                        let full = trace(
                            block, debuffs, size, from, start, turn, &mut seen, &mut path,
                        );
                        let len = path.len() - begin;
                        let duplicate = walks[block_first..].iter().any(|w: &Walk| {
                            w.len as usize == len
                                && path[w.start as usize..w.start as usize + len] == path[begin..]
                        });
                        if len == 0 || duplicate {
                            path.truncate(begin);
                            continue;
                        }
                        let mask = |effect: Option<Effect>| if effect.is_some() { !0 } else { 0 };
                        walks.push(Walk {
                            block: b as u16,
                            start: begin as u32,
                            len: len as u32,
                            full,
                            own_mask: mask(rule.effects[TargetKind::Own as usize]),
                            opp_mask: mask(rule.effects[TargetKind::Opponent as usize]),
                            empty_mask: mask(rule.effects[TargetKind::Empty as usize]),
                        });
                    }
                }
            }
            square_walks[from.index()] = (first, walks.len() as u32);
            for color in Color::BOTH {
                filter[color.index()][from.index()] = filter_mask(debuffs, size, from, color);
            }
        }
        let dna = genome.to_string();
        let rays = Rays::new(&walks, &path, &square_walks);
        CompiledGenome {
            code: Code::of(&dna),
            dna,
            genome,
            debuffs,
            size,
            rules,
            square_walks,
            walks,
            path,
            filter,
            rays,
        }
    }

    pub fn genome(&self) -> &Genome {
        &self.genome
    }

    /// The canonical DNA.
    pub fn dna(&self) -> &str {
        &self.dna
    }

    /// The genome's code (the same as `genome().code()`, without hashing again).
    pub fn code(&self) -> Code {
        self.code
    }

    pub fn debuffs(&self) -> DebuffSet {
        self.debuffs
    }

    pub fn has(&self, debuff: Debuff) -> bool {
        self.debuffs.contains(debuff)
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    #[inline]
    pub(crate) fn walks_from(&self, from: Square) -> &[Walk] {
        let (a, b) = self.square_walks[from.index()];
        &self.walks[a as usize..b as usize]
    }

    #[inline]
    pub(crate) fn path_of(&self, walk: &Walk) -> &[u8] {
        &self.path[walk.start as usize..(walk.start + walk.len) as usize]
    }
}

/// Walks one block on an empty board (the mover on `from`), appending the first marks to `path`
/// and returning them as a mask. The walk is cut after it marks `from`, which is never empty.
#[allow(clippy::too_many_arguments)]
fn trace(
    block: &Block,
    debuffs: DebuffSet,
    size: BoardSize,
    from: Square,
    start: usize,
    turn: usize,
    seen: &mut [u64; 16],
    path: &mut Vec<u8>,
) -> u64 {
    let wrap = !debuffs.contains(Debuff::NoWrap);
    let one_lap = debuffs.contains(Debuff::OneLap);
    let width = i32::from(size.width());
    let steps = &block.steps;
    *seen = [0; 16];
    let mut marked = 0u64;
    let (mut x, mut y) = (i32::from(from.x()), i32::from(from.y()));
    let mut dir = start;
    let mut i = 0usize;
    while let Some(step) = steps.get(i) {
        let length = i32::from(step.length());
        let (dx, dy) = DIRECTIONS[dir];
        x += dx * length;
        y += dy * length;
        if wrap {
            x = x.rem_euclid(width);
        }
        let Some(pos) = size.square_i(x, y) else {
            break;
        };
        // The state (square, direction, step) as one of 64 × 4 × 4 bits.
        let state = (pos.index() * 4 + dir) * 4 + i;
        if seen[state / 64] & (1 << (state % 64)) != 0 {
            break;
        }
        seen[state / 64] |= 1 << (state % 64);
        if step.is_marking() {
            if marked & pos.bit() == 0 {
                marked |= pos.bit();
                path.push(pos.index() as u8);
            }
            if pos == from {
                break;
            }
        }
        i = (i + 1) % steps.len();
        dir = (dir + turn) % 4;
        if one_lap && i == 0 {
            break;
        }
    }
    marked
}

/// The destinations the filters `HAS`, `HCS`, `HCA`, `HSS` keep for a piece of `color` on `from`.
fn filter_mask(debuffs: DebuffSet, size: BoardSize, from: Square, color: Color) -> u64 {
    size.squares()
        .filter(|to| {
            let forward = match color {
                Color::White => to.y() > from.y(),
                Color::Black => to.y() < from.y(),
            };
            let same_shade = to.shade() == from.shade();
            let adjacent = to.x().abs_diff(from.x()) <= 1 && to.y().abs_diff(from.y()) <= 1;
            (!debuffs.contains(Debuff::ForwardOnly) || forward)
                && (!debuffs.contains(Debuff::SameShade) || same_shade)
                && (!debuffs.contains(Debuff::OtherShade) || !same_shade)
                && (!debuffs.contains(Debuff::AdjacentOnly) || adjacent)
        })
        .fold(0, |m, s| m | s.bit())
}
