//! Unit tests of the genome crate: check values, one test per error kind, round trips.

use crate::standard::{self, DEFAULT_PRESET};
use crate::{Code, ErrorKind, Genome, GenomeError, preset_code, preset_text};

fn code_of(name: &str) -> Code {
    standard::by_name(name)
        .expect("standard genome parses")
        .code()
}

#[test]
fn check_values_of_the_rules() {
    assert_eq!(code_of("rook").to_string(), "3gbkd6");
    assert_eq!(code_of("pawn").to_string(), "yf459m");
    assert_eq!(code_of("queen").to_string(), "1hapeh");
    let codes: Vec<Code> = DEFAULT_PRESET.iter().map(|name| code_of(name)).collect();
    assert_eq!(
        preset_text(&codes),
        "3gbkd6-zngq39-2zef2n-25x67a-1hapeh-2zef2n-zngq39-3gbkd6"
    );
    assert_eq!(preset_code(&codes).to_string(), "emcym3");
}

#[test]
fn salted_codes_differ_and_salt_zero_is_the_plain_code() {
    let dna = standard::ROOK;
    assert_eq!(Code::salted(dna, 0), Code::of(dna));
    assert_eq!(Code::salted(dna, 1), Code::of(&format!("{dna}#1")));
    assert_ne!(Code::salted(dna, 1), Code::salted(dna, 2));
}

#[test]
fn codes_parse_back_and_reject_other_text() {
    let code = code_of("rook");
    assert_eq!(code.to_string().parse::<Code>(), Ok(code));
    assert_eq!("3GBKD6".parse::<Code>(), Ok(code));
    for bad in ["", "3gbkd", "3gbkd66", "3gbkdi", "3gbkdu", "3gbkd-"] {
        assert!(bad.parse::<Code>().is_err(), "{bad:?} accepted as a code");
    }
}

fn error(dna: &str) -> GenomeError {
    match Genome::parse(dna) {
        Ok(genome) => panic!("{dna:?} was accepted as {genome:?}"),
        Err(err) => err,
    }
}

/// Asserts kind, codon index, offset and what was found.
fn assert_error(dna: &str, kind: ErrorKind, codon: usize, offset: usize, found: &str) {
    let err = error(dna);
    assert_eq!(
        (err.kind, err.codon, err.offset, err.found.as_str()),
        (kind, codon, offset, found)
    );
    let message = err.to_string();
    assert!(message.contains(&format!("codon {codon}")), "{message}");
}

#[test]
fn error_bad_letter_is_reported_first_with_its_offset() {
    // The bad letter comes after a length error and a bad codon: it still wins.
    assert_error("AHH hsh X HAA CHACAA", ErrorKind::BadLetter, 2, 6, "X");
}

#[test]
fn error_bad_length_points_at_the_incomplete_codon() {
    assert_error(
        "AHHHSHHAACHACHACHAHHASASA",
        ErrorKind::BadLength,
        8,
        24,
        "A",
    );
}

#[test]
fn error_missing_start() {
    assert_error(
        "SASAHHHSHHAACHACHACHAHHA",
        ErrorKind::MissingStart,
        0,
        0,
        "SAS",
    );
}

#[test]
fn error_truncated_header() {
    assert_error("AHHHSHHAA", ErrorKind::TruncatedHeader, 3, 9, "");
}

#[test]
fn error_bad_owner() {
    assert_error("AHHSSSHAACHACHACHAHHASAS", ErrorKind::BadOwner, 1, 3, "SSS");
}

#[test]
fn error_bad_outcome_names_the_codon_and_says_h_in_the_middle() {
    assert_error(
        "AHHHSHHAACHACAACHAHHASAS",
        ErrorKind::BadOutcome,
        4,
        12,
        "CAA",
    );
    assert!(
        error("AHHHSHHAACHACAACHAHHASAS")
            .to_string()
            .contains("H in the middle")
    );
}

#[test]
fn error_unclosed_header() {
    assert_error(
        "AHHHSHHAACHACHACHAHHHSAS",
        ErrorKind::UnclosedHeader,
        6,
        18,
        "HHH",
    );
}

#[test]
fn error_h_in_step() {
    assert_error("AHHHSHHAACHACHACHAHHASAH", ErrorKind::HInStep, 7, 21, "SAH");
    assert_error(
        "AHHHSHHAACHACHACHAHHASASHSH",
        ErrorKind::HInStep,
        8,
        24,
        "HSH",
    );
}

#[test]
fn error_no_steps_at_the_end_or_before_the_next_block() {
    assert_error("AHHHSHHAACHACHACHAHHA", ErrorKind::NoSteps, 7, 21, "");
    let dna = "AHHHSHHAACHACHACHAHHAAHHHSHHACCHACHACHAHHASAS";
    assert_error(dna, ErrorKind::NoSteps, 7, 21, "AHH");
}

#[test]
fn error_too_many_steps_points_at_the_fifth() {
    assert_error(
        "AHHHSHHAACHACHACHAHHASASAAAAAAAAAAAA",
        ErrorKind::TooManySteps,
        11,
        33,
        "AAA",
    );
}

#[test]
fn error_duplicate_debuff_in_one_header_and_across_blocks() {
    assert_error(
        "AHHHAAHAACHACHACHAHHASAS",
        ErrorKind::DuplicateDebuff,
        2,
        6,
        "HAA",
    );
    let dna = "AHHHSHHAACHACHACHAHHASASAHHHSHHAACHACHACHAHHASAS";
    assert_error(dna, ErrorKind::DuplicateDebuff, 10, 30, "HAA");
}

#[test]
fn duplicate_debuff_is_reported_before_a_later_error_in_the_block() {
    assert_error(
        "AHHHAAHAACHACHACHAHHASAH",
        ErrorKind::DuplicateDebuff,
        2,
        6,
        "HAA",
    );
}

#[test]
fn white_space_and_lower_case_are_canonicalised() {
    let spaced = Genome::parse("ahh hsh\thaa\ncha cha cha hha sas aaa aaa aaa").expect("valid");
    assert_eq!(spaced.to_string(), standard::ROOK);
    assert_eq!(spaced.code().to_string(), "3gbkd6");
}

#[test]
fn the_empty_dna_is_a_genome_without_blocks() {
    let empty = Genome::parse(" \n").expect("empty DNA is valid");
    assert!(empty.blocks.is_empty());
    assert_eq!(empty.to_string(), "");
}

#[test]
fn spaced_form_is_one_block_a_line_and_parses_back() {
    let queen = standard::by_name("queen").expect("queen");
    let spaced = queen.spaced().to_string();
    assert_eq!(spaced.lines().count(), 2);
    assert!(spaced.starts_with("AHH HSH HAA HHH CHA CHA HHA CAS SAS ASS ACS\nAHH HSH HSC"));
    assert_eq!(Genome::parse(&spaced), Ok(queen));
}

#[test]
fn step_lengths_follow_mod_3_and_mod_5() {
    let genome = Genome::parse("AHHHSHHAACHACHACHAHHASCCCCCAAC").expect("valid");
    let lengths: Vec<u8> = genome.blocks[0].steps.iter().map(|s| s.length()).collect();
    // SCC = 8 mod 3, CCC = 8 mod 5, AAC: a still step.
    assert_eq!(lengths, [2, 3, 0]);
}

#[test]
fn all_error_kinds_are_listed_once_in_order_with_distinct_codes() {
    for (place, kind) in ErrorKind::ALL.into_iter().enumerate() {
        assert_eq!(kind.index(), place, "{kind:?}");
    }
    let mut codes: Vec<&str> = ErrorKind::ALL.iter().map(|kind| kind.code()).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), ErrorKind::ALL.len());
}
