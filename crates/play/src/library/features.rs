//! What a piece does, read from its genome once, at publication, and stored as bits so that the
//! library's search filters on them (docs/library.md, "What a piece does"). Each is a property of
//! the DNA as rules §3 walks it, not of a position:
//!
//! - **leaps**: some walk marks a square more than one square (king's distance) from the square
//!   it last marked or started on: the squares between are passed over, never looked at.
//! - **slides**: some walk goes on after its first lap (no `HAC`) and the lap moved it: the
//!   pattern repeats further along until blocked, as a rook's does.
//! - **wraps**: it moves (some walk marks a square) and has neither `HAA` nor `HSS`: its walks go
//!   round the left and right edges.
//! - **copies**: some outcome leaves a copy of the moving piece on the square it left.
//! - **debuff**: it carries a debuff; each debuff also has a bit of its own.

use gmo_genome::{Block, Content, Debuff, Genome, Outcome};

/// The bits, as stored and as the API names them.
pub const LEAPS: i64 = 1;
pub const SLIDES: i64 = 2;
pub const WRAPS: i64 = 4;
pub const COPIES: i64 = 8;
pub const DEBUFF: i64 = 16;

/// The names the API filters by (`does=`): the five above, then one per debuff.
pub fn named(name: &str) -> Option<i64> {
    match name {
        "leaps" => Some(LEAPS),
        "slides" => Some(SLIDES),
        "wraps" => Some(WRAPS),
        "copies" => Some(COPIES),
        "debuff" => Some(DEBUFF),
        other => Debuff::ALL
            .into_iter()
            .find(|debuff| debuff.name().replace(' ', "_") == other)
            .map(debuff_bit),
    }
}

/// Every name [`named`] knows, in order.
pub fn names() -> Vec<String> {
    let mut names: Vec<String> = ["leaps", "slides", "wraps", "copies", "debuff"]
        .map(String::from)
        .to_vec();
    names.extend(Debuff::ALL.map(|debuff| debuff.name().replace(' ', "_")));
    names
}

/// The names of the bits set in `features`.
pub fn names_of(features: i64) -> Vec<String> {
    names()
        .into_iter()
        .filter(|name| named(name).is_some_and(|bit| features & bit != 0))
        .collect()
}

fn debuff_bit(debuff: Debuff) -> i64 {
    32 << (debuff as i64)
}

/// The bits of what `genome` does.
pub fn of(genome: &Genome) -> i64 {
    let debuffs = genome.debuffs();
    let mut bits = debuffs.iter().map(debuff_bit).fold(0, |all, bit| all | bit);
    if !debuffs.is_empty() {
        bits |= DEBUFF;
    }
    let one_lap = genome.has(Debuff::OneLap);
    let mut marks_any = false;
    for block in &genome.blocks {
        for clockwise in [true, false] {
            for start in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                let lap = first_lap(block, start, clockwise);
                marks_any |= lap.marks;
                if lap.leaps {
                    bits |= LEAPS;
                }
                if lap.marks && !lap.home && !one_lap && lap.end != (0, 0) {
                    bits |= SLIDES;
                }
            }
        }
        let copies = [block.on_own, block.on_opponent, block.on_empty]
            .into_iter()
            .any(|outcome| {
                matches!(
                    outcome,
                    Outcome::Leaves {
                        from: Content::Mover,
                        ..
                    }
                )
            });
        if copies {
            bits |= COPIES;
        }
    }
    if marks_any && !genome.has(Debuff::NoWrap) && !genome.has(Debuff::AdjacentOnly) {
        bits |= WRAPS;
    }
    bits
}

/// What one walk's first lap did.
struct Lap {
    marks: bool,
    leaps: bool,
    /// It marked its own square and stopped there.
    home: bool,
    end: (i32, i32),
}

fn first_lap(block: &Block, start: (i32, i32), clockwise: bool) -> Lap {
    let (mut pos, mut dir, mut last) = ((0, 0), start, (0, 0));
    let mut lap = Lap {
        marks: false,
        leaps: false,
        home: false,
        end: (0, 0),
    };
    for step in &block.steps {
        let length = i32::from(step.length());
        pos = (pos.0 + dir.0 * length, pos.1 + dir.1 * length);
        if step.is_marking() {
            lap.marks = true;
            let (dx, dy): (i32, i32) = (pos.0 - last.0, pos.1 - last.1);
            lap.leaps |= dx.abs().max(dy.abs()) > 1;
            last = pos;
            if pos == (0, 0) {
                lap.home = true;
                return lap;
            }
        }
        dir = if clockwise {
            (dir.1, -dir.0)
        } else {
            (-dir.1, dir.0)
        };
    }
    lap.end = pos;
    lap
}

#[cfg(test)]
mod tests {
    use super::*;
    use gmo_genome::standard::STANDARD;

    fn standard(name: &str) -> i64 {
        let (_, dna) = STANDARD.iter().find(|(n, _)| *n == name).expect("a name");
        of(&Genome::parse(dna).expect("parses"))
    }

    #[test]
    fn the_standard_pieces_do_what_chess_players_expect() {
        let rook = standard("rook");
        assert!(rook & SLIDES != 0 && rook & LEAPS == 0 && rook & WRAPS == 0);
        let knight = standard("knight");
        assert!(knight & LEAPS != 0 && knight & SLIDES == 0);
        let bishop = standard("bishop");
        assert!(bishop & SLIDES != 0 && bishop & LEAPS == 0);
        let king = standard("king");
        assert!(king & SLIDES == 0 && king & LEAPS == 0);
        let queen = standard("queen");
        assert!(queen & SLIDES != 0 && queen & named("freeze").expect("a bit") != 0);
        for name in ["rook", "knight", "bishop", "king", "queen", "pawn"] {
            assert!(standard(name) & COPIES == 0, "{name} leaves no copy");
            assert!(standard(name) & DEBUFF != 0, "{name} has a debuff");
        }
    }

    #[test]
    fn a_rook_without_no_wrap_wraps_and_names_read_back() {
        // The rook without its HAA wraps; with HSS (adjacent only) it does not.
        let plain = Genome::parse("AHH HSH HSH CHA CHA CHA HHA SAS AAA AAA AAA").expect("valid");
        assert!(of(&plain) & WRAPS != 0 && of(&plain) & DEBUFF == 0);
        let adjacent = Genome::parse("AHH HSH HSS CHA CHA CHA HHA SAS AAA AAA AAA").expect("valid");
        assert!(of(&adjacent) & WRAPS == 0);
        assert!(of(&adjacent) & named("adjacent_only").expect("a bit") != 0);
        for name in names() {
            let bit = named(&name).expect("a known name");
            assert_eq!(names_of(bit), vec![name.clone()], "{name}");
        }
        assert_eq!(named("flies"), None);
    }

    #[test]
    fn a_piece_that_stays_behind_leaves_copies() {
        // The rook's block with own-outcome "A H A": a copy of the mover stays on the from square.
        let copier = Genome::parse("AHH HSH HAA AHA CHA CHA HHA SAS AAA AAA AAA").expect("valid");
        assert!(of(&copier) & COPIES != 0);
    }
}
