//! DNA → [`Genome`]: first the letters are canonicalised, then nom reads codons, one small parser
//! per grammar rule. nom's errors stay inside this module; callers get a [`GenomeError`].

use crate::ast::{Block, Content, Debuff, DebuffSet, Genome, Outcome, Owner, Step, StepKind};
use crate::error::{ErrorKind, GenomeError};
use nom::bytes::complete::take;
use nom::combinator::cut;
use nom::multi::many_m_n;
use nom::{IResult, Parser};

/// A parse failure inside nom: the rule, and how much input was left where it failed, from which
/// the offset in the canonical DNA is recovered at the entry point.
#[derive(Debug)]
struct Failure {
    kind: ErrorKind,
    rest_len: usize,
    found: String,
}

impl Failure {
    fn at(kind: ErrorKind, input: &str) -> Self {
        let found = input.get(..3).unwrap_or(input).to_owned();
        Failure {
            kind,
            rest_len: input.len(),
            found,
        }
    }
}

impl nom::error::ParseError<&str> for Failure {
    // Only reached through nom's own combinators; ours always say which rule failed.
    fn from_error_kind(input: &str, _: nom::error::ErrorKind) -> Self {
        Failure::at(ErrorKind::TruncatedHeader, input)
    }

    fn append(_: &str, _: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Failure>;

fn fail<T>(kind: ErrorKind, input: &str) -> Res<'_, T> {
    Err(nom::Err::Error(Failure::at(kind, input)))
}

/// Canonical DNA: white space removed, upper-cased; the first letter outside `SACH` and then a
/// length that is not a multiple of 3 are reported before anything else (rules §2.3).
pub fn canonicalize(dna: &str) -> Result<String, GenomeError> {
    let mut canonical = String::with_capacity(dna.len());
    for letter in dna.chars().filter(|c| !c.is_whitespace()) {
        match letter.to_ascii_uppercase() {
            upper @ ('S' | 'A' | 'C' | 'H') => canonical.push(upper),
            _ => {
                let offset = canonical.len();
                return Err(GenomeError::new(ErrorKind::BadLetter, offset, letter));
            }
        }
    }
    let tail = canonical.len() % 3;
    if tail != 0 {
        let offset = canonical.len() - tail;
        return Err(GenomeError::new(
            ErrorKind::BadLength,
            offset,
            &canonical[offset..],
        ));
    }
    Ok(canonical)
}

/// Parses DNA in any accepted spelling (white space, lower case) into a genome.
pub fn parse(dna: &str) -> Result<Genome, GenomeError> {
    let canonical = canonicalize(dna)?;
    genome(&canonical).map_err(|failure| {
        let offset = canonical.len() - failure.rest_len;
        GenomeError::new(failure.kind, offset, failure.found)
    })
}

/// genome := ε | block+   — with each debuff at most once across all headers.
fn genome(input: &str) -> Result<Genome, Failure> {
    let mut blocks = Vec::new();
    let mut seen = DebuffSet::EMPTY;
    let mut rest = input;
    while !rest.is_empty() {
        let (after_header, (owner_from, owner_to, on_own, on_opponent, on_empty)) =
            header(rest).map_err(into_failure)?;
        for (index, owner) in [(1, owner_from), (2, owner_to)] {
            if let Owner::Mover(debuff) = owner {
                if seen.contains(debuff) {
                    return Err(Failure::at(ErrorKind::DuplicateDebuff, &rest[3 * index..]));
                }
                seen.insert(debuff);
            }
        }
        let (after_steps, steps) = cut(steps).parse(after_header).map_err(into_failure)?;
        blocks.push(Block {
            owner_from,
            owner_to,
            on_own,
            on_opponent,
            on_empty,
            steps,
        });
        rest = after_steps;
    }
    Ok(Genome { blocks })
}

fn into_failure(err: nom::Err<Failure>) -> Failure {
    match err {
        nom::Err::Error(f) | nom::Err::Failure(f) => f,
        // Only streaming parsers ask for more input, and this module uses none.
        nom::Err::Incomplete(_) => Failure::at(ErrorKind::TruncatedHeader, ""),
    }
}

type Header = (Owner, Owner, Outcome, Outcome, Outcome);

/// header := AHH owner owner outcome outcome outcome HHA
fn header(input: &str) -> Res<'_, Header> {
    let (rest, _) = block_start(input)?;
    cut((owner, owner, outcome, outcome, outcome, header_end))
        .map(|(from, to, own, opp, empty, _)| (from, to, own, opp, empty))
        .parse(rest)
}

/// One codon, or the given error at the end of the DNA.
fn codon(at_end: ErrorKind) -> impl Fn(&str) -> Res<'_, &str> {
    move |input| match take::<_, _, Failure>(3usize).parse(input) {
        Ok(done) => Ok(done),
        Err(_) => fail(at_end, input),
    }
}

fn block_start(input: &str) -> Res<'_, ()> {
    match codon(ErrorKind::MissingStart)(input)? {
        (rest, "AHH") => Ok((rest, ())),
        _ => fail(ErrorKind::MissingStart, input),
    }
}

/// owner := HSH | debuff
fn owner(input: &str) -> Res<'_, Owner> {
    let (rest, codon) = codon(ErrorKind::TruncatedHeader)(input)?;
    match (codon, Debuff::from_codon(codon)) {
        ("HSH", _) => Ok((rest, Owner::Opponent)),
        (_, Some(debuff)) => Ok((rest, Owner::Mover(debuff))),
        _ => fail(ErrorKind::BadOwner, input),
    }
}

/// outcome := HHH | [SAC] H [SAC]
fn outcome(input: &str) -> Res<'_, Outcome> {
    let (rest, codon) = codon(ErrorKind::TruncatedHeader)(input)?;
    let outcome = match codon.as_bytes() {
        b"HHH" => Some(Outcome::Forbidden),
        &[from, b'H', to] => Content::from_letter(from)
            .zip(Content::from_letter(to))
            .map(|(from, to)| Outcome::Leaves { from, to }),
        _ => None,
    };
    match outcome {
        Some(outcome) => Ok((rest, outcome)),
        None => fail(ErrorKind::BadOutcome, input),
    }
}

fn header_end(input: &str) -> Res<'_, ()> {
    match codon(ErrorKind::TruncatedHeader)(input)? {
        (rest, "HHA") => Ok((rest, ())),
        _ => fail(ErrorKind::UnclosedHeader, input),
    }
}

/// steps := step{1,4} followed by the next block or the end
fn steps(input: &str) -> Res<'_, Vec<Step>> {
    let (rest, steps) = many_m_n(1, Block::MAX_STEPS, step).parse(input)?;
    match rest.get(..3) {
        None | Some("AHH") => Ok((rest, steps)),
        Some(next) if !next.contains('H') => fail(ErrorKind::TooManySteps, rest),
        Some(_) => fail(ErrorKind::HInStep, rest),
    }
}

/// step := [SAC] [SAC] [SAC]
fn step(input: &str) -> Res<'_, Step> {
    let (rest, codon) = codon(ErrorKind::NoSteps)(input)?;
    let kind = match codon.as_bytes()[0] {
        _ if codon == "AHH" => return fail(ErrorKind::NoSteps, input),
        _ if codon.contains('H') => return fail(ErrorKind::HInStep, input),
        b'S' => StepKind::Marking,
        b'C' => StepKind::Plain,
        _ => StepKind::Still,
    };
    let digit = |letter: u8| match letter {
        b'A' => 0,
        b'S' => 1,
        _ => 2,
    };
    let number = 3 * digit(codon.as_bytes()[1]) + digit(codon.as_bytes()[2]);
    Ok((rest, Step { kind, number }))
}
