//! A genome in plain English for piece designers: per block the steps, the walk and the squares it
//! marks, the outcomes on own, enemy and empty squares, the owners, and then the debuffs.

use crate::ast::{Block, Content, Debuff, Genome, Outcome, Owner, Step, StepKind};
use std::fmt::Write;

/// A square offset `(dx, dy)`: `dx` to the right (towards file h), `dy` up (towards rank 8).
type Offset = (i32, i32);

const NORTH: Offset = (0, 1);
const STARTS: [(Offset, &str); 4] = [
    (NORTH, "north"),
    ((1, 0), "east"),
    ((0, -1), "south"),
    ((-1, 0), "west"),
];

impl Genome {
    /// Explains the genome in plain English (rules §2 and §3), one paragraph per block, then the
    /// debuffs.
    /// What the piece's debuffs mean for a player, in plain words, one sentence each, in the
    /// order of [`Debuff::ALL`] (none for a genome without debuffs).
    pub fn traits(&self) -> Vec<&'static str> {
        self.debuffs().iter().map(Debuff::in_plain_words).collect()
    }

    pub fn explain(&self) -> String {
        if self.blocks.is_empty() {
            return "The empty genome: this piece has no moves.\n".to_owned();
        }
        let mut text = String::new();
        let count = self.blocks.len();
        for (index, block) in self.blocks.iter().enumerate() {
            let _ = writeln!(text, "Block {} of {count}:", index + 1);
            text.push_str(&explain_block(block, self.has(Debuff::OneLap)));
            text.push('\n');
        }
        if count > 1 {
            text.push_str(
                "Where two blocks reach the same square, the earlier block's move is the one kept.\n\n",
            );
        }
        text.push_str(&explain_debuffs(self));
        text
    }
}

impl Content {
    /// What a move leaves when it leaves this, in the words of [`Genome::explain`]; `occupied`
    /// says whether the target square holds a piece.
    pub fn describe(self, occupied: bool) -> &'static str {
        describe_content(self, occupied)
    }
}

impl Debuff {
    /// What the debuff does, in the words of [`Genome::explain`].
    pub fn effect(self) -> &'static str {
        debuff_effect(self)
    }
}

fn explain_block(block: &Block, one_lap: bool) -> String {
    let mut text =
        String::from("  Steps (after each step the piece turns 90° in the walk's sense):\n");
    for (i, step) in block.steps.iter().enumerate() {
        let _ = writeln!(text, "    {}. {} ({step})", i + 1, describe_step(*step));
    }
    text.push_str(&walk_paragraph(one_lap));
    text.push_str(&marks_paragraph(block, one_lap));
    text.push_str(&outcomes_paragraph(block));
    text.push_str(&owners_paragraph(block));
    text
}

fn describe_step(step: Step) -> String {
    let squares = match step.length() {
        1 => "1 square".to_owned(),
        n => format!("{n} squares"),
    };
    match step.kind {
        StepKind::Marking if step.length() == 0 => {
            "marking step of 0 squares: the square the walk is on is a possible destination".into()
        }
        StepKind::Marking => {
            format!("marking step of {squares}: the square where it ends is a possible destination")
        }
        StepKind::Plain => format!("plain step of {squares}: passes over, whatever stands there"),
        StepKind::Still => "still step: moves 0 squares, only turns".to_owned(),
    }
}

fn walk_paragraph(one_lap: bool) -> String {
    let end = if one_lap {
        "It goes through the steps once only (one lap, debuff HAC), and stops earlier if it leaves \
         the board or a marking step lands on an occupied square."
    } else {
        "It repeats the steps until it leaves the board, comes back to a state it was in before, or \
         a marking step lands on an occupied square."
    };
    format!(
        "  The walk: from the piece's square, clockwise and then counter-clockwise, starting north, \
         east, south and west (eight walks), each step moves its length in the current direction, \
         then the walk turns 90°. {end}\n"
    )
}

/// What one lap of one walk does on an empty board without edges (the piece's own square is the
/// only occupied one).
#[derive(Debug, PartialEq)]
struct Lap {
    marks: Vec<Offset>,
    /// The walk stopped on the piece's own square, which a marking step reached.
    stopped_at_home: bool,
    end: Offset,
    turns: usize,
}

fn turn((x, y): Offset, clockwise: bool) -> Offset {
    if clockwise { (y, -x) } else { (-y, x) }
}

fn first_lap(block: &Block, start: Offset, clockwise: bool) -> Lap {
    let (mut pos, mut dir, mut marks) = ((0, 0), start, Vec::new());
    for step in &block.steps {
        let length = i32::from(step.length());
        pos = (pos.0 + dir.0 * length, pos.1 + dir.1 * length);
        if step.is_marking() {
            marks.push(pos);
            if pos == (0, 0) {
                return Lap {
                    marks,
                    stopped_at_home: true,
                    end: pos,
                    turns: 0,
                };
            }
        }
        dir = turn(dir, clockwise);
    }
    Lap {
        marks,
        stopped_at_home: false,
        end: pos,
        turns: block.steps.len() % 4,
    }
}

fn marks_paragraph(block: &Block, one_lap: bool) -> String {
    let lap = first_lap(block, NORTH, true);
    let mut text = String::from("  On an empty board, the clockwise walk starting north ");
    if lap.marks.is_empty() {
        text.push_str("marks no square: the block has no marking step, so it gives no moves.\n");
        return text;
    }
    let marks: Vec<String> = lap.marks.iter().map(|&m| describe_offset(m)).collect();
    let _ = writeln!(text, "marks in its first lap: {}.", marks.join("; "));
    if lap.stopped_at_home {
        text.push_str(
            "  That is the piece's own square, which is occupied (by the piece itself), so the \
             walk stops there.\n",
        );
    } else if !one_lap {
        let _ = writeln!(text, "  {}", later_laps(&lap));
    }
    let _ = writeln!(
        text,
        "  All eight walks together mark in their first laps: {}.",
        all_walks(block)
    );
    text
}

fn later_laps(lap: &Lap) -> String {
    let moved = describe_offset(lap.end);
    match (lap.end, lap.turns) {
        ((0, 0), 0) => {
            "A lap ends where it began, facing the same way, so the walk stops after it.".to_owned()
        }
        (_, 0) => format!(
            "A lap moves the walk {moved} and faces it the same way, so later laps repeat the \
             pattern further along that line: the piece slides until it is blocked or leaves the \
             board."
        ),
        (_, turns) => format!(
            "A lap moves the walk {moved} and turns it by {}°, so later laps repeat the pattern \
             turned, until the walk comes back to a state it was in or leaves the board.",
            90 * turns
        ),
    }
}

fn all_walks(block: &Block) -> String {
    let mut marks: Vec<Offset> = Vec::new();
    for clockwise in [true, false] {
        for (start, _) in STARTS {
            for mark in first_lap(block, start, clockwise).marks {
                if !marks.contains(&mark) {
                    marks.push(mark);
                }
            }
        }
    }
    let described: Vec<String> = marks.iter().map(|&m| describe_offset(m)).collect();
    format!("{} square(s): {}", marks.len(), described.join("; "))
}

/// "1 right 2 up", "2 down", "its own square".
fn describe_offset((dx, dy): Offset) -> String {
    let part = |n: i32, plus: &str, minus: &str| match n {
        0 => None,
        n if n > 0 => Some(format!("{n} {plus}")),
        n => Some(format!("{} {minus}", -n)),
    };
    let parts: Vec<String> = [part(dx, "right", "left"), part(dy, "up", "down")]
        .into_iter()
        .flatten()
        .collect();
    if parts.is_empty() {
        "its own square".to_owned()
    } else {
        parts.join(" ")
    }
}

fn outcomes_paragraph(block: &Block) -> String {
    let cases = [
        ("onto one of its own side's pieces", block.on_own, true),
        ("onto an enemy piece", block.on_opponent, true),
        ("onto an empty square", block.on_empty, false),
    ];
    let mut text = String::from("  What a move does:\n");
    for (case, outcome, occupied) in cases {
        let _ = writeln!(
            text,
            "    - {case}: {} ({outcome})",
            describe_outcome(outcome, occupied)
        );
    }
    text
}

fn describe_outcome(outcome: Outcome, occupied: bool) -> String {
    let Outcome::Leaves { from, to } = outcome else {
        return "not allowed".to_owned();
    };
    let summary = match (from, to, occupied) {
        (Content::Nothing, Content::Mover, true) => "allowed, it captures the piece there: ",
        (Content::Nothing, Content::Mover, false) => "allowed, an ordinary move: ",
        _ => "allowed: ",
    };
    format!(
        "{summary}leaves {} on the from square and {} on the to square",
        describe_content(from, occupied),
        describe_content(to, occupied)
    )
}

fn describe_content(content: Content, occupied: bool) -> &'static str {
    match (content, occupied) {
        (Content::Mover, _) => "a copy of the moving piece",
        (Content::Target, true) => "a copy of the piece that stood there",
        (Content::Target, false) => "nothing (a copy of the empty target is nothing)",
        (Content::Nothing, _) => "nothing",
    }
}

fn owners_paragraph(block: &Block) -> String {
    let leaves_on_from = [block.on_own, block.on_opponent, block.on_empty]
        .into_iter()
        .any(|o| {
            matches!(
                o,
                Outcome::Leaves {
                    from: Content::Mover | Content::Target,
                    ..
                }
            )
        });
    let note = match (leaves_on_from, block.owner_from) {
        (true, _) => "",
        (false, Owner::Opponent) => " (nothing is ever left there, so this never matters)",
        (false, Owner::Mover(_)) => " (nothing is ever left there, so only the debuff matters)",
    };
    format!(
        "  Who owns what the move leaves: on the from square {}{note}; on the to square {}.\n",
        describe_owner(block.owner_from),
        describe_owner(block.owner_to)
    )
}

fn describe_owner(owner: Owner) -> String {
    match owner {
        Owner::Opponent => "the opponent of the mover (HSH)".to_owned(),
        Owner::Mover(debuff) => {
            format!(
                "the mover ({debuff}, which also adds the debuff \"{}\")",
                debuff.name()
            )
        }
    }
}

fn explain_debuffs(genome: &Genome) -> String {
    let debuffs = genome.debuffs();
    if debuffs.is_empty() {
        return "Debuffs: none.\n".to_owned();
    }
    let mut text = String::from("Debuffs (each applies to every block):\n");
    for debuff in debuffs.iter() {
        let _ = writeln!(
            text,
            "  - {} ({debuff}): {}",
            debuff.name(),
            debuff_effect(debuff)
        );
    }
    text
}

fn debuff_effect(debuff: Debuff) -> &'static str {
    match debuff {
        Debuff::ForwardOnly => {
            "keeps only destinations strictly ahead (up the board for White, down for Black)"
        }
        Debuff::OneLap => "every walk stops after one pass through the block's steps",
        Debuff::NoWrap => {
            "the left and right edges of the board are not joined for this piece (no wrap-around)"
        }
        Debuff::SameShade => "keeps only destinations of the same shade as the from square",
        Debuff::OtherShade => "keeps only destinations of the other shade than the from square",
        Debuff::AdjacentOnly => {
            "keeps only destinations next to the from square (at most 1 file and 1 rank away, \
             without wrap-around)"
        }
        Debuff::Freeze => {
            "moving this piece freezes the game: the mover's clock loses 5 s, the opponent's gains \
             5 s, and for 5 s no move or promotion is accepted"
        }
        Debuff::Mutation => {
            "moving this piece first mutates its genome: one random letter of its DNA changes, if \
             that still gives a valid genome (up to 20 tries)"
        }
        Debuff::Deviation => {
            "the destination drifts to a random neighbouring square (or stays), if that is on the \
             board; the move keeps the outcome of the square it aimed at"
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn traits_say_in_plain_words_what_debuffs_do() {
        let traits = |dna: &str| Genome::parse(dna).expect("a genome").traits();
        assert_eq!(
            traits(crate::standard::ROOK),
            ["It does not wrap around the left and right edges."]
        );
        assert!(traits(crate::standard::QUEEN)[1].contains("freezes the game"));
        // One step each way onto an enemy piece, freezing the game (HSC) and drifting (HSA).
        let odd = Genome::parse("AHH HSC HSA HHH CHA HHH HHA SAS AAA AAA AAA").expect("test DNA");
        let traits = odd.traits();
        assert_eq!(traits.len(), 2, "{traits:?}");
        assert!(
            traits.iter().any(|t| t.contains("freezes the game")),
            "{traits:?}"
        );
        assert!(
            traits.iter().any(|t| t.contains("next to the one")),
            "{traits:?}"
        );
    }

    use super::*;
    use crate::standard::{self, STANDARD};

    fn explain(name: &str) -> String {
        standard::by_name(name).expect("standard genome").explain()
    }

    fn assert_mentions(text: &str, phrases: &[&str]) {
        for phrase in phrases {
            assert!(text.contains(phrase), "missing {phrase:?} in:\n{text}");
        }
    }

    #[test]
    fn the_empty_genome_has_no_moves() {
        assert_mentions(&Genome::default().explain(), &["no moves"]);
    }

    #[test]
    fn the_rook_slides_and_may_capture_its_own_pieces() {
        let text = explain("rook");
        assert_mentions(
            &text,
            &[
                "onto one of its own side's pieces: allowed, it captures the piece there",
                "marks in its first lap: 1 up.",
                "the piece slides",
                "no wrap",
                "on the from square the opponent of the mover (HSH) (nothing is ever left there",
            ],
        );
        assert!(!text.contains("one lap"), "{text}");
    }

    #[test]
    fn the_knight_jumps_one_lap_to_eight_squares() {
        assert_mentions(
            &explain("knight"),
            &[
                "one lap",
                "marks in its first lap: 1 right 2 up.",
                "8 square(s)",
                "onto one of its own side's pieces: not allowed (HHH)",
                "plain step of 2 squares",
            ],
        );
    }

    #[test]
    fn the_queen_freezes_the_game_and_has_two_blocks() {
        assert_mentions(
            &explain("queen"),
            &[
                "Block 1 of 2:",
                "Block 2 of 2:",
                "freeze (HSC)",
                "earlier block's move",
            ],
        );
    }

    #[test]
    fn the_pawn_moves_forward_only_and_its_block_owners_are_named() {
        assert_mentions(
            &explain("pawn"),
            &[
                "forward only (HAS)",
                "the mover (HAC",
                "onto an empty square: not allowed",
            ],
        );
    }

    #[test]
    fn every_step_codon_and_debuff_of_every_standard_genome_is_shown() {
        for (name, dna) in STANDARD {
            let genome = Genome::parse(dna).expect("standard genome");
            let text = genome.explain();
            for step in genome.blocks.iter().flat_map(|b| &b.steps) {
                assert!(text.contains(&format!("({step})")), "{name}: no {step}");
            }
            for debuff in genome.debuffs().iter() {
                assert!(
                    text.contains(&format!("({debuff}): ")),
                    "{name}: no {debuff}"
                );
            }
        }
    }

    #[test]
    fn a_lap_marks_once_per_marking_step_unless_it_comes_home() {
        for (_, dna) in STANDARD {
            for block in Genome::parse(dna).expect("standard genome").blocks {
                let marking = block.steps.iter().filter(|s| s.is_marking()).count();
                for clockwise in [true, false] {
                    for (start, _) in STARTS {
                        let lap = first_lap(&block, start, clockwise);
                        assert!(lap.stopped_at_home || lap.marks.len() == marking);
                    }
                }
            }
        }
    }

    #[test]
    fn a_marking_step_back_home_stops_the_walk() {
        // Marks 1 north, passes 2 east, marks 1 south, then marks 2 west: the piece's own square.
        let genome =
            Genome::parse("AHH HSH HSH CHA CHA CHA HHA SAS CAC SAS SAC").expect("valid genome");
        let lap = first_lap(&genome.blocks[0], NORTH, true);
        assert!(lap.stopped_at_home, "{lap:?}");
        assert_eq!(lap.marks.last(), Some(&(0, 0)));
        assert_mentions(
            &genome.explain(),
            &["its own square", "the walk stops there"],
        );
    }

    #[test]
    fn offsets_read_as_right_left_up_down() {
        assert_eq!(describe_offset((1, 2)), "1 right 2 up");
        assert_eq!(describe_offset((-3, 0)), "3 left");
        assert_eq!(describe_offset((0, -1)), "1 down");
        assert_eq!(describe_offset((0, 0)), "its own square");
    }
}
