//! Why a DNA string is not a genome, and where (rules §2.3).

use std::fmt;

/// What rule a rejected DNA broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A letter outside `S A C H`.
    BadLetter,
    /// The canonical DNA's length is not a multiple of 3.
    BadLength,
    /// The first codon is not `AHH`.
    MissingStart,
    /// The DNA ends inside a block header.
    TruncatedHeader,
    /// An owner codon that is neither `HSH` nor a debuff.
    BadOwner,
    /// An outcome codon that is neither `HHH` nor `?H?` with `?` in `SAC`.
    BadOutcome,
    /// The seventh header codon is not `HHA`.
    UnclosedHeader,
    /// A step codon containing `H`.
    HInStep,
    /// A block with no step codon.
    NoSteps,
    /// A block with a fifth step codon.
    TooManySteps,
    /// A debuff codon that already appeared in the genome.
    DuplicateDebuff,
}

impl ErrorKind {
    /// Every kind, in declaration order (for an API's list of error codes).
    pub const ALL: [ErrorKind; 11] = [
        ErrorKind::BadLetter,
        ErrorKind::BadLength,
        ErrorKind::MissingStart,
        ErrorKind::TruncatedHeader,
        ErrorKind::BadOwner,
        ErrorKind::BadOutcome,
        ErrorKind::UnclosedHeader,
        ErrorKind::HInStep,
        ErrorKind::NoSteps,
        ErrorKind::TooManySteps,
        ErrorKind::DuplicateDebuff,
    ];

    /// This kind's place in [`ErrorKind::ALL`]; the exhaustive match makes a new kind fail to
    /// compile here until it is listed.
    pub const fn index(self) -> usize {
        match self {
            ErrorKind::BadLetter => 0,
            ErrorKind::BadLength => 1,
            ErrorKind::MissingStart => 2,
            ErrorKind::TruncatedHeader => 3,
            ErrorKind::BadOwner => 4,
            ErrorKind::BadOutcome => 5,
            ErrorKind::UnclosedHeader => 6,
            ErrorKind::HInStep => 7,
            ErrorKind::NoSteps => 8,
            ErrorKind::TooManySteps => 9,
            ErrorKind::DuplicateDebuff => 10,
        }
    }

    /// A stable machine-readable name, for APIs.
    pub const fn code(self) -> &'static str {
        match self {
            ErrorKind::BadLetter => "bad_letter",
            ErrorKind::BadLength => "bad_length",
            ErrorKind::MissingStart => "missing_start",
            ErrorKind::TruncatedHeader => "truncated_header",
            ErrorKind::BadOwner => "bad_owner",
            ErrorKind::BadOutcome => "bad_outcome",
            ErrorKind::UnclosedHeader => "unclosed_header",
            ErrorKind::HInStep => "h_in_step",
            ErrorKind::NoSteps => "no_steps",
            ErrorKind::TooManySteps => "too_many_steps",
            ErrorKind::DuplicateDebuff => "duplicate_debuff",
        }
    }

    /// What would have been accepted at that place.
    pub const fn expected(self) -> &'static str {
        match self {
            ErrorKind::BadLetter => "one of the letters S, A, C, H (or white space)",
            ErrorKind::BadLength => "a whole number of three-letter codons",
            ErrorKind::MissingStart => "the block start codon AHH",
            ErrorKind::TruncatedHeader => "the rest of the 7-codon block header",
            ErrorKind::BadOwner => {
                "an owner codon: HSH (the opponent) or a debuff codon \
                 (HAS, HAC, HAA, HCS, HCA, HSS, HSC, HCC, HSA: the mover)"
            }
            ErrorKind::BadOutcome => {
                "an outcome codon: HHH (not allowed) or H in the middle with S, A or C either side"
            }
            ErrorKind::UnclosedHeader => "the header end codon HHA",
            ErrorKind::HInStep => {
                "a step codon of the letters S, A, C only, or AHH to start a block"
            }
            ErrorKind::NoSteps => "at least one step codon (letters S, A, C) after the header",
            ErrorKind::TooManySteps => "at most 4 step codons per block, then AHH or the end",
            ErrorKind::DuplicateDebuff => "a debuff not used before in this genome, or HSH",
        }
    }

    /// The rule that was broken, as a sentence.
    pub const fn problem(self) -> &'static str {
        match self {
            ErrorKind::BadLetter => "DNA may only use the letters S, A, C and H",
            ErrorKind::BadLength => "the DNA's length is not a multiple of three",
            ErrorKind::MissingStart => "a genome must begin with the block start codon AHH",
            ErrorKind::TruncatedHeader => "the DNA ends inside a block header",
            ErrorKind::BadOwner => "an owner codon must be HSH or a debuff codon",
            ErrorKind::BadOutcome => "an outcome codon needs H in the middle (or is HHH)",
            ErrorKind::UnclosedHeader => "a block header must close with HHA",
            ErrorKind::HInStep => "a step codon cannot contain H",
            ErrorKind::NoSteps => "a block needs at least one step codon",
            ErrorKind::TooManySteps => "a block has at most 4 step codons",
            ErrorKind::DuplicateDebuff => "each debuff may appear only once in a genome",
        }
    }
}

/// A rejected DNA: which rule, where, and what stood there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenomeError {
    pub kind: ErrorKind,
    /// 0-based index of the offending codon in the canonical DNA.
    pub codon: usize,
    /// 0-based character offset in the canonical DNA (upper case, white space removed).
    pub offset: usize,
    /// What was found there: a letter, a codon, or the empty string for the end of the DNA.
    pub found: String,
}

impl GenomeError {
    pub(crate) fn new(kind: ErrorKind, offset: usize, found: impl Into<String>) -> Self {
        GenomeError {
            kind,
            codon: offset / 3,
            offset,
            found: found.into(),
        }
    }

    pub fn expected(&self) -> &'static str {
        self.kind.expected()
    }
}

impl fmt::Display for GenomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (codon, offset, problem) = (self.codon, self.offset, self.kind.problem());
        write!(f, "codon {codon} (offset {offset}): {problem}; found ")?;
        match self.found.as_str() {
            "" => f.write_str("the end of the DNA")?,
            found => write!(f, "\"{found}\"")?,
        }
        write!(f, ", expected {}", self.kind.expected())
    }
}

impl std::error::Error for GenomeError {}
