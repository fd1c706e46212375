//! `gmo genome breed A B [--seed N] [--children K]`: children of two genomes (gmo-genome's
//! `breed`), each printed with its code, canonical DNA and explanation. It works offline, so a
//! parent is the name or code of a standard genome, DNA, a file holding DNA, or `-` (standard
//! input). `run` only does the I/O; [`respond`] decides what is printed, for the tests.

use crate::genome_cmd::{INVALID_DNA, Output, UNREADABLE, render_error};
use clap::Args;
use gmo_genome::breeding::{DEFAULT_CHILDREN, MAX_CHILDREN};
use gmo_genome::{Breeding, Genome, standard};
use std::io::{Read, Write};
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct BreedArgs {
    /// The first parent: a standard name (rook) or its code, DNA, a file of DNA, or `-`.
    a: String,
    /// The second parent, as the first.
    b: String,
    /// The seed of the random draws: the same parents, seed and count give the same children
    /// (default: a random seed, printed).
    #[arg(long)]
    seed: Option<u64>,
    /// How many children (1 to 16); fewer come out when the parents have fewer distinct ones.
    #[arg(long, default_value_t = DEFAULT_CHILDREN as u8,
          value_parser = clap::value_parser!(u8).range(1..=MAX_CHILDREN as i64))]
    children: u8,
}

pub fn run(args: BreedArgs) -> ExitCode {
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut stdin = std::io::stdin().lock();
    let output = respond(
        &args.a,
        &args.b,
        seed,
        usize::from(args.children),
        &mut stdin,
    );
    let _ = std::io::stdout().write_all(output.stdout.as_bytes());
    let _ = std::io::stderr().write_all(output.stderr.as_bytes());
    ExitCode::from(output.status)
}

/// A parent as given on the command line, read and parsed.
enum Parent {
    Genome(Genome),
    /// DNA that does not parse: its text, for the report with carets.
    Invalid(String, gmo_genome::GenomeError),
    Unreadable(String),
}

/// What the command prints for these parents, seed and count.
fn respond(a: &str, b: &str, seed: u64, children: usize, stdin: &mut impl Read) -> Output {
    if a == "-" && b == "-" {
        return failure(
            "only one parent can come from standard input".into(),
            UNREADABLE,
        );
    }
    let mut parents = Vec::with_capacity(2);
    for given in [a, b] {
        match parent(given, stdin) {
            Parent::Genome(genome) => parents.push(genome),
            Parent::Invalid(dna, error) => {
                return failure_text(
                    format!("parent {given:.40}: {}", render_error(&dna, &error)),
                    INVALID_DNA,
                );
            }
            Parent::Unreadable(message) => return failure(message, UNREADABLE),
        }
    }
    let breeding = Breeding {
        seed,
        children,
        max_letters: gmo_server::MAX_DNA_LETTERS,
    };
    let bred = gmo_genome::breed(&parents[0], &parents[1], breeding);
    let mut stdout = format!(
        "{} × {}, seed {seed}: {} of {children} children\n",
        parents[0].code(),
        parents[1].code(),
        bred.len()
    );
    for (i, child) in bred.iter().enumerate() {
        stdout.push_str(&format!(
            "\nchild {}: {}\n{child}\n\n{}",
            i + 1,
            child.code(),
            child.explain()
        ));
    }
    Output {
        stdout,
        stderr: String::new(),
        status: 0,
    }
}

/// A standard name or code, DNA (only the letters S, A, C, H and white space), `-` for standard
/// input, or else a file's path.
fn parent(given: &str, stdin: &mut impl Read) -> Parent {
    let key = given.trim().to_ascii_lowercase();
    if let Some(genome) = standard::by_name(&key) {
        return Parent::Genome(genome);
    }
    let known = standard::STANDARD
        .iter()
        .filter_map(|(_, dna)| Genome::parse(dna).ok())
        .find(|genome| genome.code().to_string() == key);
    if let Some(genome) = known {
        return Parent::Genome(genome);
    }
    let dna_like = given
        .chars()
        .all(|c| c.is_whitespace() || "SACHsach".contains(c));
    let text = if dna_like && !given.trim().is_empty() {
        given.to_owned()
    } else if given == "-" {
        let mut bytes = Vec::new();
        if let Err(error) = stdin.read_to_end(&mut bytes) {
            return Parent::Unreadable(format!("cannot read standard input: {error}"));
        }
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        match std::fs::read(given) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(error) => {
                return Parent::Unreadable(format!(
                    "{given:.40} is not a standard genome's name or code, nor DNA, nor a file \
                     ({error}); other codes are known to the server only: give their DNA"
                ));
            }
        }
    };
    match Genome::parse(&text) {
        Ok(genome) => Parent::Genome(genome),
        Err(error) => Parent::Invalid(text, error),
    }
}

fn failure(message: String, status: u8) -> Output {
    failure_text(format!("{message}\n"), status)
}

fn failure_text(text: String, status: u8) -> Output {
    Output {
        stdout: String::new(),
        stderr: format!("gmo genome breed: {text}"),
        status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breed(a: &str, b: &str, seed: u64, children: usize) -> Output {
        respond(a, b, seed, children, &mut std::io::empty())
    }

    /// The children printed: (code, DNA, explanation) each.
    fn printed(stdout: &str) -> Vec<(String, String, String)> {
        stdout
            .split("\nchild ")
            .skip(1)
            .map(|part| {
                let (head, rest) = part.split_once('\n').expect("a head line");
                let (_, code) = head.split_once(": ").expect("child n: code");
                let (dna, explanation) = rest.split_once("\n\n").expect("dna then explanation");
                (code.to_owned(), dna.to_owned(), explanation.to_owned())
            })
            .collect()
    }

    #[test]
    fn breed_prints_each_child_with_its_code_dna_and_explanation() {
        let out = breed("knight", "queen", 11, 5);
        assert_eq!((out.stderr.as_str(), out.status), ("", 0));
        let knight = standard::by_name("knight").expect("knight").code();
        assert!(
            out.stdout
                .starts_with(&format!("{knight} × 1hapeh, seed 11: 5 of 5")),
            "{}",
            out.stdout
        );
        let children = printed(&out.stdout);
        let expected = gmo_genome::breed(
            &standard::by_name("knight").expect("knight"),
            &standard::by_name("queen").expect("queen"),
            Breeding {
                seed: 11,
                children: 5,
                max_letters: gmo_server::MAX_DNA_LETTERS,
            },
        );
        assert_eq!(children.len(), expected.len());
        for ((code, dna, explanation), genome) in children.iter().zip(&expected) {
            assert_eq!(code, &genome.code().to_string());
            assert_eq!(dna, &genome.to_string());
            assert_eq!(explanation, &genome.explain());
        }
        assert_eq!(breed("knight", "queen", 11, 5), out, "the seed repeats");
        assert_ne!(breed("knight", "queen", 12, 5).stdout, out.stdout);
    }

    #[test]
    fn parents_are_names_codes_dna_files_or_standard_input() {
        let by_name = breed("Rook", "bishop", 3, 4);
        assert_eq!(by_name.status, 0, "{}", by_name.stderr);
        let rook = standard::by_name("rook").expect("rook");
        let by_code = breed(&rook.code().to_string(), "bishop", 3, 4);
        assert_eq!(by_code, by_name);
        let by_dna = breed(&rook.spaced().to_string().to_lowercase(), "bishop", 3, 4);
        assert_eq!(by_dna, by_name);

        let path = std::env::temp_dir().join(format!("gmo-breed-{}.dna", std::process::id()));
        std::fs::write(&path, rook.spaced().to_string()).expect("a temp file");
        let by_file = breed(path.to_str().expect("utf-8"), "bishop", 3, 4);
        let _ = std::fs::remove_file(&path);
        assert_eq!(by_file, by_name);

        let mut stdin = standard::ROOK.as_bytes();
        let by_stdin = respond("-", "bishop", 3, 4, &mut stdin);
        assert_eq!(by_stdin, by_name);
    }

    #[test]
    fn a_bad_parent_is_reported_and_nothing_is_bred() {
        let invalid = breed("rook", "AHH HSH HAA CHA", 1, 4);
        assert_eq!((invalid.stdout.as_str(), invalid.status), ("", INVALID_DNA));
        assert!(
            invalid.stderr.contains("ends inside a block header"),
            "{}",
            invalid.stderr
        );
        assert!(invalid.stderr.contains('^'), "{}", invalid.stderr);

        let unknown = breed("zzzzzz", "rook", 1, 4);
        assert_eq!((unknown.stdout.as_str(), unknown.status), ("", UNREADABLE));
        assert!(unknown.stderr.contains("zzzzzz"), "{}", unknown.stderr);
        assert!(unknown.stderr.contains("DNA"), "{}", unknown.stderr);

        let twice = breed("-", "-", 1, 4);
        assert_eq!(twice.status, UNREADABLE);
    }
}
