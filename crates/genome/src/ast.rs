//! The typed genome: what a DNA string means once it has been parsed.

use std::fmt;

/// One of the nine debuff codons (rules §2.4). Each may appear once per genome and then applies to
/// every block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Debuff {
    /// `HAS`: keep only destinations strictly ahead.
    ForwardOnly,
    /// `HAC`: every walk stops after one pass through the block's steps.
    OneLap,
    /// `HAA`: the left and right edges are not joined for this piece.
    NoWrap,
    /// `HCS`: keep only destinations of the from square's shade.
    SameShade,
    /// `HCA`: keep only destinations of the other shade.
    OtherShade,
    /// `HSS`: keep only destinations next to the from square (no wrap).
    AdjacentOnly,
    /// `HSC`: moving this piece freezes the game.
    Freeze,
    /// `HCC`: moving this piece mutates its genome first.
    Mutation,
    /// `HSA`: the destination drifts to a random neighbour.
    Deviation,
}

impl Debuff {
    /// What it means for a player, in one plain sentence.
    pub const fn in_plain_words(self) -> &'static str {
        match self {
            Debuff::ForwardOnly => "It moves only forward.",
            Debuff::OneLap => "Its lines stop after one pass around the board.",
            Debuff::NoWrap => "It does not wrap around the left and right edges.",
            Debuff::SameShade => "It lands only on squares of its own shade.",
            Debuff::OtherShade => "It lands only on squares of the other shade.",
            Debuff::AdjacentOnly => "It moves only to a neighbouring square.",
            Debuff::Freeze => {
                "Moving it freezes the game for 5 seconds and moves 5 seconds of its side's \
                 clock to the other side's."
            }
            Debuff::Mutation => "It changes its DNA a little each time it moves.",
            Debuff::Deviation => "It may land on a square next to the one it was moved to.",
        }
    }

    pub const ALL: [Debuff; 9] = [
        Debuff::ForwardOnly,
        Debuff::OneLap,
        Debuff::NoWrap,
        Debuff::SameShade,
        Debuff::OtherShade,
        Debuff::AdjacentOnly,
        Debuff::Freeze,
        Debuff::Mutation,
        Debuff::Deviation,
    ];

    pub const fn codon(self) -> &'static str {
        match self {
            Debuff::ForwardOnly => "HAS",
            Debuff::OneLap => "HAC",
            Debuff::NoWrap => "HAA",
            Debuff::SameShade => "HCS",
            Debuff::OtherShade => "HCA",
            Debuff::AdjacentOnly => "HSS",
            Debuff::Freeze => "HSC",
            Debuff::Mutation => "HCC",
            Debuff::Deviation => "HSA",
        }
    }

    pub fn from_codon(codon: &str) -> Option<Debuff> {
        Debuff::ALL.into_iter().find(|d| d.codon() == codon)
    }

    /// The short name the rules give it.
    pub const fn name(self) -> &'static str {
        match self {
            Debuff::ForwardOnly => "forward only",
            Debuff::OneLap => "one lap",
            Debuff::NoWrap => "no wrap",
            Debuff::SameShade => "same shade",
            Debuff::OtherShade => "other shade",
            Debuff::AdjacentOnly => "adjacent only",
            Debuff::Freeze => "freeze",
            Debuff::Mutation => "mutation",
            Debuff::Deviation => "deviation",
        }
    }

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// A set of debuffs, as a bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DebuffSet(u16);

impl DebuffSet {
    pub const EMPTY: DebuffSet = DebuffSet(0);

    pub const fn contains(self, debuff: Debuff) -> bool {
        self.0 & debuff.bit() != 0
    }

    pub fn insert(&mut self, debuff: Debuff) {
        self.0 |= debuff.bit();
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Debuff> {
        Debuff::ALL.into_iter().filter(move |d| self.contains(*d))
    }
}

impl FromIterator<Debuff> for DebuffSet {
    fn from_iter<I: IntoIterator<Item = Debuff>>(iter: I) -> Self {
        let mut set = DebuffSet::EMPTY;
        iter.into_iter().for_each(|d| set.insert(d));
        set
    }
}

/// Who owns what a move leaves on a square: header codons 2 and 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Owner {
    /// `HSH`: the opponent of the mover.
    Opponent,
    /// A debuff codon: the mover, and the debuff joins the genome.
    Mover(Debuff),
}

/// What a square holds after a move: one letter of an outcome codon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Content {
    /// `A`: a copy of the moving piece.
    Mover,
    /// `S`: a copy of the piece that stood on the target square.
    Target,
    /// `C`: nothing.
    Nothing,
}

impl Content {
    pub const fn letter(self) -> char {
        match self {
            Content::Mover => 'A',
            Content::Target => 'S',
            Content::Nothing => 'C',
        }
    }

    pub const fn from_letter(letter: u8) -> Option<Content> {
        match letter {
            b'A' => Some(Content::Mover),
            b'S' => Some(Content::Target),
            b'C' => Some(Content::Nothing),
            _ => None,
        }
    }
}

/// What a move onto a square of one kind (own, opponent's, empty) does: header codons 4 to 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `HHH`: such a move is not allowed.
    Forbidden,
    /// `xHy`: the from square then holds `from`, the to square `to`.
    Leaves { from: Content, to: Content },
}

/// The kind of a step, from the first letter of its codon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// `S`: the square where the step ends is a possible destination.
    Marking,
    /// `C`: the piece passes over the square.
    Plain,
    /// `A`: a plain step of length 0, whatever its other letters.
    Still,
}

/// A step codon. It keeps its two number letters as a base-3 value (`AA` = 0 … `CC` = 8) so that
/// printing a parsed genome gives back exactly its DNA, even where the letters do not matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step {
    pub kind: StepKind,
    pub number: u8,
}

impl Step {
    pub const fn is_marking(self) -> bool {
        matches!(self.kind, StepKind::Marking)
    }

    /// How many squares the step moves.
    pub const fn length(self) -> u8 {
        match self.kind {
            StepKind::Marking => self.number % 3,
            StepKind::Plain => self.number % 5,
            StepKind::Still => 0,
        }
    }
}

/// A block (the reference's spirulateral): a 7-codon header and 1 to 4 steps.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Block {
    pub owner_from: Owner,
    pub owner_to: Owner,
    pub on_own: Outcome,
    pub on_opponent: Outcome,
    pub on_empty: Outcome,
    pub steps: Vec<Step>,
}

impl Block {
    pub const MAX_STEPS: usize = 4;

    /// The debuffs this block's owner codons add to the genome.
    pub fn debuffs(&self) -> impl Iterator<Item = Debuff> + '_ {
        [self.owner_from, self.owner_to]
            .into_iter()
            .filter_map(|owner| match owner {
                Owner::Mover(debuff) => Some(debuff),
                Owner::Opponent => None,
            })
    }
}

/// A parsed, valid genome. The empty genome (no blocks) is a piece with no moves.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Genome {
    pub blocks: Vec<Block>,
}

impl Genome {
    /// Every debuff of the genome; each applies to every block.
    pub fn debuffs(&self) -> DebuffSet {
        self.blocks.iter().flat_map(Block::debuffs).collect()
    }

    pub fn has(&self, debuff: Debuff) -> bool {
        self.debuffs().contains(debuff)
    }
}

impl fmt::Display for Debuff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.codon())
    }
}
