//! Typed genome → DNA: the canonical form (`Display`) and a spaced form for people.

use crate::ast::{Block, Content, Genome, Outcome, Owner, Step, StepKind};
use std::fmt::{self, Write};

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Opponent => f.write_str("HSH"),
            Owner::Mover(debuff) => f.write_str(debuff.codon()),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Forbidden => f.write_str("HHH"),
            Outcome::Leaves { from, to } => write!(f, "{}H{}", from.letter(), to.letter()),
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            StepKind::Marking => 'S',
            StepKind::Plain => 'C',
            StepKind::Still => 'A',
        };
        let digit = |d: u8| [Content::Mover, Content::Target, Content::Nothing][usize::from(d)];
        f.write_char(kind)?;
        f.write_char(digit(self.number / 3).letter())?;
        f.write_char(digit(self.number % 3).letter())
    }
}

impl Block {
    /// The block's codons in DNA order.
    pub fn codons(&self) -> Vec<String> {
        let mut codons = vec!["AHH".to_owned()];
        codons.extend([self.owner_from, self.owner_to].map(|o| o.to_string()));
        codons.extend([self.on_own, self.on_opponent, self.on_empty].map(|o| o.to_string()));
        codons.push("HHA".to_owned());
        codons.extend(self.steps.iter().map(Step::to_string));
        codons
    }
}

/// The canonical DNA: upper case, no white space.
impl fmt::Display for Genome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.blocks
            .iter()
            .flat_map(Block::codons)
            .try_for_each(|c| f.write_str(&c))
    }
}

/// The DNA one block a line, codons separated by spaces; see [`Genome::spaced`].
#[derive(Debug, Clone, Copy)]
pub struct Spaced<'a>(&'a Genome);

impl fmt::Display for Spaced<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, block) in self.0.blocks.iter().enumerate() {
            if i > 0 {
                f.write_char('\n')?;
            }
            f.write_str(&block.codons().join(" "))?;
        }
        Ok(())
    }
}

impl Genome {
    /// The DNA spelled for reading: one block a line, codons separated. It parses back to the same
    /// genome.
    pub fn spaced(&self) -> Spaced<'_> {
        Spaced(self)
    }
}
