//! `gmo genome check|code|explain|diagram [FILE|-]` and `breed` (in `breed_cmd`): the designer's
//! tools. `run` only does the I/O;
//! what is printed and the exit status come from [`respond`], which the tests drive directly.

use clap::{Args, Subcommand};
use gmo_engine::Color;
use gmo_genome::{ErrorKind, Genome, GenomeError, Language};
use std::io::{Read, Write};
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct GenomeArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Check DNA and print its canonical and spaced forms.
    Check(Source),
    /// Print the 6-character code of a DNA.
    Code(Source),
    /// Explain in plain words (English, or Slovak with `--lang sk`) what a DNA makes a piece do.
    Explain(ExplainArgs),
    /// Draw the piece alone on an empty board, its moves marked, as SVG on standard output.
    Diagram(DiagramArgs),
    /// Breed two genomes: children by block crossover (and now and then a mutation), each with
    /// its code, DNA and explanation.
    Breed(crate::breed_cmd::BreedArgs),
}

#[derive(Debug, Args)]
struct ExplainArgs {
    /// The language of the explanation: en or sk.
    #[arg(long, default_value = "en")]
    lang: Language,
    #[command(flatten)]
    source: Source,
}

#[derive(Debug, Args)]
struct DiagramArgs {
    /// Files of the board (4 to 8).
    #[arg(long, default_value_t = gmo_diagram::Options::DEFAULT_SIZE)]
    width: u8,
    /// Ranks of the board (4 to 8).
    #[arg(long, default_value_t = gmo_diagram::Options::DEFAULT_SIZE)]
    height: u8,
    /// Whose piece it is, and so from which side the board is seen.
    #[arg(long, default_value = "white")]
    color: Color,
    /// The language of the picture's text: en or sk.
    #[arg(long, default_value = "en")]
    lang: Language,
    #[command(flatten)]
    source: Source,
}

#[derive(Debug, Args)]
struct Source {
    /// A file holding the DNA; `-` or nothing reads standard input.
    file: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tool {
    Check,
    Code,
    Explain(Language),
    Diagram(gmo_diagram::Options),
}

/// What a command prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Output {
    pub stdout: String,
    pub stderr: String,
    pub status: u8,
}

pub(crate) const INVALID_DNA: u8 = 1;
pub(crate) const UNREADABLE: u8 = 2;

pub fn run(args: GenomeArgs) -> ExitCode {
    let (tool, source) = match args.action {
        Action::Check(source) => (Tool::Check, source),
        Action::Code(source) => (Tool::Code, source),
        Action::Explain(args) => (Tool::Explain(args.lang), args.source),
        Action::Diagram(args) => {
            let options = gmo_diagram::Options {
                width: args.width,
                height: args.height,
                color: args.color,
                label: None,
                language: args.lang,
            };
            (Tool::Diagram(options), args.source)
        }
        Action::Breed(args) => return crate::breed_cmd::run(args),
    };
    let output = execute(tool, source.file.as_deref(), std::io::stdin().lock());
    // A closed pipe on the other end is no reason to fail louder than the tool itself.
    let _ = std::io::stdout().write_all(output.stdout.as_bytes());
    let _ = std::io::stderr().write_all(output.stderr.as_bytes());
    ExitCode::from(output.status)
}

/// Reads the DNA from `file` (or `stdin` for none or `-`) and responds to it.
fn execute(tool: Tool, file: Option<&str>, stdin: impl Read) -> Output {
    match read_input(file, stdin) {
        Ok(text) => respond(tool, &text),
        Err(message) => Output {
            stdout: String::new(),
            stderr: format!("gmo genome: {message}\n"),
            status: UNREADABLE,
        },
    }
}

fn read_input(file: Option<&str>, mut stdin: impl Read) -> Result<String, String> {
    let mut bytes = Vec::new();
    match file {
        None | Some("-") => stdin
            .read_to_end(&mut bytes)
            .map_err(|err| format!("cannot read standard input: {err}"))?,
        Some(path) => {
            bytes = std::fs::read(path).map_err(|err| format!("cannot read {path}: {err}"))?;
            bytes.len()
        }
    };
    // Bytes that are not UTF-8 become a bad-letter error with its place, not an I/O failure.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// What the tool prints for this DNA text, and its exit status.
fn respond(tool: Tool, dna: &str) -> Output {
    match Genome::parse(dna) {
        Ok(genome) => match report(&tool, &genome) {
            Ok(stdout) => Output {
                stdout,
                stderr: String::new(),
                status: 0,
            },
            Err(message) => Output {
                stdout: String::new(),
                stderr: format!("gmo genome: {message}\n"),
                status: UNREADABLE,
            },
        },
        Err(err) => Output {
            stdout: String::new(),
            stderr: render_error(dna, &err),
            status: INVALID_DNA,
        },
    }
}

fn report(tool: &Tool, genome: &Genome) -> Result<String, String> {
    Ok(match tool {
        Tool::Check if genome.blocks.is_empty() => "\n\n(the empty genome: no moves)\n".to_owned(),
        Tool::Check => format!("{genome}\n\n{}\n", genome.spaced()),
        Tool::Code => format!("{}\n", genome.code()),
        Tool::Explain(language) => genome.explain_in(*language),
        Tool::Diagram(options) => {
            gmo_diagram::render(genome, options).map_err(|e| e.to_string())?
        }
    })
}

/// The error, the DNA as far as it can be canonicalised (codons separated) with carets under the
/// offending codon (or letter), and what was expected.
pub(crate) fn render_error(dna: &str, err: &GenomeError) -> String {
    let letters: Vec<char> = dna
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let shown: Vec<String> = letters.chunks(3).map(String::from_iter).collect();
    let width = match err.kind {
        ErrorKind::BadLetter => 1,
        ErrorKind::BadLength => err.found.chars().count(),
        _ => 3,
    };
    // Each codon before the offending one takes its 3 letters and a space.
    let column = err.offset + err.codon;
    let found = match err.found.as_str() {
        "" => "the end of the DNA".to_owned(),
        found => format!("\"{found}\""),
    };
    format!(
        "invalid DNA: codon {} (offset {}): {}; found {found}\n\n  {}\n  {}{}\n\nexpected: {}\n",
        err.codon,
        err.offset,
        err.kind.problem(),
        shown.join(" "),
        " ".repeat(column),
        "^".repeat(width),
        err.expected()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use gmo_genome::standard::{self, STANDARD};

    const ROOK_SPACED: &str = "AHH HSH HAA CHA CHA CHA HHA SAS AAA AAA AAA";

    /// The caret line of an error report, and the DNA line above it.
    fn dna_and_carets(stderr: &str) -> (&str, &str) {
        let lines: Vec<&str> = stderr.lines().collect();
        let carets = lines
            .iter()
            .position(|l| l.contains('^'))
            .expect("a caret line");
        (lines[carets - 1], lines[carets])
    }

    /// The text above the carets.
    fn under_carets(stderr: &str) -> String {
        let (dna, carets) = dna_and_carets(stderr);
        let start = carets.find('^').expect("caret");
        let end = carets.rfind('^').expect("caret") + 1;
        dna.chars().skip(start).take(end - start).collect()
    }

    #[test]
    fn code_of_the_rook_from_stdin() {
        let out = execute(Tool::Code, Some("-"), format!("{ROOK_SPACED}\n").as_bytes());
        let rook = standard::by_name("rook").expect("rook");
        assert_eq!(out.stdout, format!("{}\n", rook.code()));
        assert_eq!(out.stdout, "3gbkd6\n");
        assert_eq!((out.stderr.as_str(), out.status), ("", 0));
        assert_eq!(execute(Tool::Code, None, ROOK_SPACED.as_bytes()), out);
    }

    #[test]
    fn check_prints_canonical_then_spaced_for_every_standard_genome() {
        for (name, dna) in STANDARD {
            let genome = Genome::parse(dna).expect("standard genome");
            let out = respond(Tool::Check, &genome.spaced().to_string().to_lowercase());
            assert_eq!(out.status, 0, "{name}");
            let mut lines = out.stdout.lines();
            assert_eq!(lines.next(), Some(dna), "{name}");
            assert_eq!(lines.next(), Some(""));
            let spaced: Vec<&str> = lines.collect();
            assert_eq!(spaced.join("\n"), genome.spaced().to_string());
        }
    }

    #[test]
    fn explain_prints_the_explanation() {
        let out = respond(Tool::Explain(Language::En), standard::KNIGHT);
        let knight = standard::by_name("knight").expect("knight");
        assert_eq!((out.stdout, out.status), (knight.explain(), 0));
        let slovak = respond(Tool::Explain(Language::Sk), standard::KNIGHT);
        assert_eq!(slovak.stdout, knight.explain_in(Language::Sk));
        assert_ne!(slovak.stdout, knight.explain());
        assert!(
            respond(Tool::Explain(Language::En), "")
                .stdout
                .contains("no moves")
        );
        let empty = respond(Tool::Check, " \n");
        assert_eq!((empty.stdout.lines().next(), empty.status), (Some(""), 0));
        assert!(empty.stdout.contains("no moves"));
    }

    #[test]
    fn lang_chooses_the_language_of_explanations_and_pictures() {
        use clap::Parser;
        #[derive(Parser)]
        struct Line {
            #[command(flatten)]
            genome: GenomeArgs,
        }
        let action = |args: &[&str]| Line::try_parse_from(args).map(|line| line.genome.action);
        let Ok(Action::Explain(explain)) = action(&["gmo", "explain", "--lang", "sk", "-"]) else {
            panic!("explain --lang sk is parsed");
        };
        assert_eq!(explain.lang, Language::Sk);
        let Ok(Action::Diagram(diagram)) = action(&["gmo", "diagram", "--lang", "sk"]) else {
            panic!("diagram --lang sk is parsed");
        };
        assert_eq!(diagram.lang, Language::Sk);
        let Ok(Action::Explain(plain)) = action(&["gmo", "explain"]) else {
            panic!("explain is parsed");
        };
        assert_eq!(plain.lang, Language::En, "English unless asked");
        assert!(action(&["gmo", "explain", "--lang", "de"]).is_err());
    }

    #[test]
    fn a_bad_outcome_names_codon_4_and_puts_carets_under_it() {
        let out = respond(Tool::Check, "AHHHSHHAACHACAACHAHHASAS");
        assert_eq!((out.stdout.as_str(), out.status), ("", 1));
        assert!(out.stderr.contains("codon 4"), "{}", out.stderr);
        assert!(
            out.stderr.contains("needs H in the middle"),
            "{}",
            out.stderr
        );
        assert!(
            out.stderr.contains("expected: an outcome codon"),
            "{}",
            out.stderr
        );
        let (dna, _) = dna_and_carets(&out.stderr);
        assert_eq!(dna.trim(), "AHH HSH HAA CHA CAA CHA HHA SAS");
        assert_eq!(under_carets(&out.stderr), "CAA");
    }

    #[test]
    fn the_dna_shown_is_canonicalised_and_the_carets_follow_it() {
        let out = respond(Tool::Code, "ahh hsh\nhaa cha cha cha hha sah");
        assert_eq!(out.status, 1);
        assert!(out.stderr.contains("codon 7"), "{}", out.stderr);
        assert_eq!(under_carets(&out.stderr), "SAH");
    }

    #[test]
    fn a_bad_letter_gets_one_caret() {
        let out = respond(Tool::Check, "AHH HXH");
        assert_eq!(out.status, 1);
        assert_eq!(under_carets(&out.stderr), "X");
        assert!(out.stderr.contains("letters S, A, C"), "{}", out.stderr);
    }

    #[test]
    fn a_dna_cut_short_gets_carets_past_its_end() {
        let out = respond(Tool::Check, "AHHHSHHAA");
        let (dna, carets) = dna_and_carets(&out.stderr);
        assert_eq!(out.status, 1);
        assert_eq!(carets.trim(), "^^^");
        assert!(carets.find('^') > dna.rfind('A'), "{}", out.stderr);
    }

    #[test]
    fn an_incomplete_codon_is_underlined_letter_by_letter() {
        let out = respond(Tool::Check, &format!("{}AS", standard::ROOK));
        assert_eq!(out.status, 1);
        assert_eq!(under_carets(&out.stderr), "AS");
    }

    #[test]
    fn a_file_is_read_and_a_missing_file_exits_2() {
        let path = std::env::temp_dir().join(format!("gmo-genome-cmd-{}.dna", std::process::id()));
        std::fs::write(&path, ROOK_SPACED).expect("temp file");
        let out = execute(Tool::Code, path.to_str(), std::io::empty());
        let _ = std::fs::remove_file(&path);
        assert_eq!((out.stdout.as_str(), out.status), ("3gbkd6\n", 0));

        let missing = execute(Tool::Check, Some("/nonexistent/gmo.dna"), std::io::empty());
        assert_eq!((missing.stdout.as_str(), missing.status), ("", 2));
        assert!(missing.stderr.contains("cannot read /nonexistent/gmo.dna"));
    }

    #[test]
    fn diagram_draws_the_svg_and_refuses_a_bad_size() {
        let options = gmo_diagram::Options::default();
        let out = respond(Tool::Diagram(options.clone()), standard::ROOK);
        let rook = standard::by_name("rook").expect("rook");
        let expected = gmo_diagram::render(&rook, &options).expect("rook diagram");
        assert_eq!((out.stdout, out.status), (expected, 0));
        let small = gmo_diagram::Options {
            width: 3,
            ..options
        };
        let out = respond(Tool::Diagram(small), standard::ROOK);
        assert_eq!((out.stdout.as_str(), out.status), ("", UNREADABLE));
        assert!(
            out.stderr.contains("width and height must be 4 to 8"),
            "{}",
            out.stderr
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_a_bad_letter_not_a_crash() {
        let out = execute(Tool::Check, None, &b"AHH\xff"[..]);
        assert_eq!(out.status, 1);
        assert!(out.stderr.contains("codon 1 (offset 3)"), "{}", out.stderr);
    }
}
