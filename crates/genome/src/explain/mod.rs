//! A genome in plain words for piece designers: per block the steps, the walk and the squares it
//! marks, the outcomes on own, enemy and empty squares, the owners, and then the debuffs. This
//! module walks the genome; the words are each language's (`words.rs`, `en.rs`, `sk.rs`).

mod en;
mod sk;
mod words;

use crate::Language;
use crate::ast::{Block, Content, Debuff, Genome, Outcome};
use std::fmt::Write;
use words::{Case, MoveKind, Words, words};

/// A square offset `(dx, dy)`: `dx` to the right (towards file h), `dy` up (towards rank 8).
type Offset = (i32, i32);

const NORTH: Offset = (0, 1);
const STARTS: [Offset; 4] = [NORTH, (1, 0), (0, -1), (-1, 0)];

impl Genome {
    /// Explains the genome in plain English (rules §2 and §3), one paragraph per block, then the
    /// debuffs.
    pub fn explain(&self) -> String {
        self.explain_in(Language::En)
    }

    /// [`Genome::explain`] in `language`.
    pub fn explain_in(&self, language: Language) -> String {
        let words = words(language);
        if self.blocks.is_empty() {
            return words.empty_genome().to_owned();
        }
        let mut text = String::new();
        let count = self.blocks.len();
        for (index, block) in self.blocks.iter().enumerate() {
            text.push_str(&words.block_heading(index + 1, count));
            text.push_str(&explain_block(block, self.has(Debuff::OneLap), words));
            text.push('\n');
        }
        if count > 1 {
            text.push_str(words.earlier_block_wins());
        }
        text.push_str(&explain_debuffs(self, words));
        text
    }

    /// What the piece's debuffs mean for a player, in plain words, one sentence each, in the
    /// order of [`Debuff::ALL`] (none for a genome without debuffs).
    pub fn traits(&self) -> Vec<&'static str> {
        self.traits_in(Language::En)
    }

    /// [`Genome::traits`] in `language`.
    pub fn traits_in(&self, language: Language) -> Vec<&'static str> {
        let words = words(language);
        self.debuffs()
            .iter()
            .map(|debuff| words.in_plain_words(debuff))
            .collect()
    }
}

impl Content {
    /// What a move leaves when it leaves this, in the words of [`Genome::explain`]; `occupied`
    /// says whether the target square holds a piece.
    pub fn describe(self, occupied: bool) -> &'static str {
        self.describe_in(occupied, Language::En)
    }

    /// [`Content::describe`] in `language`, as [`Genome::explain_in`] says it.
    pub fn describe_in(self, occupied: bool, language: Language) -> &'static str {
        words(language).content(self, occupied)
    }
}

impl Debuff {
    /// What the debuff does, in the words of [`Genome::explain`].
    pub fn effect(self) -> &'static str {
        self.effect_in(Language::En)
    }

    /// [`Debuff::effect`] in `language`, as [`Genome::explain_in`] says it.
    pub fn effect_in(self, language: Language) -> &'static str {
        words(language).debuff_effect(self)
    }

    /// The debuff's short name in `language` (in English, [`Debuff::name`]).
    pub fn name_in(self, language: Language) -> &'static str {
        words(language).debuff_name(self)
    }
}

fn explain_block(block: &Block, one_lap: bool, words: &dyn Words) -> String {
    let mut text = words.steps_heading().to_owned();
    for (i, step) in block.steps.iter().enumerate() {
        let described = words.step(step.kind, step.length());
        let _ = writeln!(text, "    {}. {described} ({step})", i + 1);
    }
    text.push_str(&words.walk(one_lap));
    text.push_str(&marks_paragraph(block, one_lap, words));
    text.push_str(&outcomes_paragraph(block, words));
    text.push_str(&owners_paragraph(block, words));
    text
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

fn marks_paragraph(block: &Block, one_lap: bool, words: &dyn Words) -> String {
    let lap = first_lap(block, NORTH, true);
    if lap.marks.is_empty() {
        return words.marks_nothing().to_owned();
    }
    let mut text = words.first_lap_marks(&list(&lap.marks, words));
    if lap.stopped_at_home {
        text.push_str(words.stops_at_home());
    } else if !one_lap {
        let _ = writeln!(text, "  {}", later_laps(&lap, words));
    }
    let marks = all_walks(block);
    text.push_str(&words.all_walks_mark(marks.len(), &list(&marks, words)));
    text
}

fn later_laps(lap: &Lap, words: &dyn Words) -> String {
    let moved = describe_offset(lap.end, words);
    match (lap.end, lap.turns) {
        ((0, 0), 0) => words.lap_comes_home().to_owned(),
        (_, 0) => words.lap_slides(&moved),
        (_, turns) => words.lap_turns(&moved, 90 * turns),
    }
}

/// The squares the eight walks mark in their first laps, each once, in the order first marked.
fn all_walks(block: &Block) -> Vec<Offset> {
    let mut marks: Vec<Offset> = Vec::new();
    for clockwise in [true, false] {
        for start in STARTS {
            for mark in first_lap(block, start, clockwise).marks {
                if !marks.contains(&mark) {
                    marks.push(mark);
                }
            }
        }
    }
    marks
}

/// Offsets described and separated by semicolons.
fn list(marks: &[Offset], words: &dyn Words) -> String {
    let described: Vec<String> = marks.iter().map(|&m| describe_offset(m, words)).collect();
    described.join("; ")
}

/// "1 right 2 up", "2 down", "its own square".
fn describe_offset((dx, dy): Offset, words: &dyn Words) -> String {
    let [right, left, up, down] = words.directions();
    let part = |n: i32, plus: &str, minus: &str| match n {
        0 => None,
        n if n > 0 => Some(format!("{n} {plus}")),
        n => Some(format!("{} {minus}", -n)),
    };
    let parts: Vec<String> = [part(dx, right, left), part(dy, up, down)]
        .into_iter()
        .flatten()
        .collect();
    if parts.is_empty() {
        words.own_square().to_owned()
    } else {
        parts.join(" ")
    }
}

fn outcomes_paragraph(block: &Block, words: &dyn Words) -> String {
    let cases = [
        (Case::Own, block.on_own, true),
        (Case::Opponent, block.on_opponent, true),
        (Case::Empty, block.on_empty, false),
    ];
    let mut text = words.outcomes_heading().to_owned();
    for (case, outcome, occupied) in cases {
        let _ = writeln!(
            text,
            "    - {}: {} ({outcome})",
            words.case(case),
            describe_outcome(outcome, occupied, words)
        );
    }
    text
}

fn describe_outcome(outcome: Outcome, occupied: bool, words: &dyn Words) -> String {
    let Outcome::Leaves { from, to } = outcome else {
        return words.not_allowed().to_owned();
    };
    let kind = match (from, to, occupied) {
        (Content::Nothing, Content::Mover, true) => MoveKind::Capture,
        (Content::Nothing, Content::Mover, false) => MoveKind::Ordinary,
        _ => MoveKind::Other,
    };
    words.allowed(
        kind,
        words.content(from, occupied),
        words.content(to, occupied),
    )
}

fn owners_paragraph(block: &Block, words: &dyn Words) -> String {
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
    let note = if leaves_on_from {
        ""
    } else {
        words.nothing_left_note(block.owner_from)
    };
    words.owners(
        &words.owner(block.owner_from),
        note,
        &words.owner(block.owner_to),
    )
}

fn explain_debuffs(genome: &Genome, words: &dyn Words) -> String {
    let debuffs = genome.debuffs();
    if debuffs.is_empty() {
        return words.no_debuffs().to_owned();
    }
    let mut text = words.debuffs_heading().to_owned();
    for debuff in debuffs.iter() {
        let _ = writeln!(
            text,
            "  - {} ({debuff}): {}",
            words.debuff_name(debuff),
            words.debuff_effect(debuff)
        );
    }
    text
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
                    for start in STARTS {
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
        assert_eq!(describe_offset((1, 2), &en::English), "1 right 2 up");
        assert_eq!(describe_offset((-3, 0), &en::English), "3 left");
        assert_eq!(describe_offset((0, -1), &en::English), "1 down");
        assert_eq!(describe_offset((0, 0), &en::English), "its own square");
    }
}
