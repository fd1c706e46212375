//! Finding and reading the reference vectors (`tests/vectors/README.md`). Both oracle test binaries
//! include this file (`crates/genome/tests/oracle.rs`, `crates/engine/tests/oracle.rs`).
//!
//! The folder is `$GMO_ORACLE_DIR` when it is set, otherwise the repository's own
//! `tests/vectors/`. Every file in it must be understood: a vector file is named
//! `<kind>[<anything>].jsonl`, plain or gzipped (`.jsonl.gz`), with kind `genomes`, `moves`,
//! `games` or `perft`; a `*.md` file is a note for people. Anything else fails the run, so that a
//! misnamed file of vectors can never be skipped without anyone noticing.

#![allow(dead_code)] // each test binary uses the kinds it checks

use flate2::read::GzDecoder;
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What a vector file holds, read from the start of its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Genomes,
    Moves,
    Games,
    Perft,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Genomes, Kind::Moves, Kind::Games, Kind::Perft];

    fn prefix(self) -> &'static str {
        match self {
            Kind::Genomes => "genomes",
            Kind::Moves => "moves",
            Kind::Games => "games",
            Kind::Perft => "perft",
        }
    }
}

/// The folder of vectors and its vector files, sorted by name.
#[derive(Debug)]
pub struct Folder {
    pub dir: PathBuf,
    files: Vec<(Kind, PathBuf)>,
}

/// The repository's own vectors, found from the crate's manifest directory so that the working
/// directory does not matter.
fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors")
}

impl Folder {
    /// `$GMO_ORACLE_DIR`, or `tests/vectors/`; panics on a file it does not understand.
    pub fn open() -> Folder {
        let dir = std::env::var_os("GMO_ORACLE_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(default_dir);
        Folder::at(dir)
    }

    /// The repository's own `tests/vectors/`, whatever `$GMO_ORACLE_DIR` says: the set the
    /// documentation quotes.
    pub fn repository() -> Folder {
        Folder::at(default_dir())
    }

    fn at(dir: PathBuf) -> Folder {
        let dir = dir.canonicalize().unwrap_or(dir);
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read the vector folder {}: {e}", dir.display()));
        let mut files = Vec::new();
        for entry in entries {
            let path = entry.expect("a readable folder entry").path();
            if let Some(kind) = classify(&path).unwrap_or_else(|why| panic!("{why}")) {
                files.push((kind, path));
            }
        }
        files.sort_by(|a, b| a.1.cmp(&b.1));
        assert!(
            !files.is_empty(),
            "no vector files in {} (expected genomes*, moves*, games*, perft* .jsonl or .jsonl.gz)",
            dir.display()
        );
        Folder { dir, files }
    }

    /// Every record of every file of this kind, each with `file:line` for messages. Each such file
    /// must hold at least one record.
    pub fn records(&self, kind: Kind) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        for (_, path) in self.files.iter().filter(|(k, _)| *k == kind) {
            let before = out.len();
            for (line_no, line) in read_text(path).lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let place = format!("{}:{}", path.display(), line_no + 1);
                let record: Value = serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("{place}: not a JSON record: {e}"));
                out.push((place, record));
            }
            assert!(out.len() > before, "{}: no records", path.display());
        }
        out
    }
}

/// A vector file's kind, `None` for a note, or why the file is not understood.
fn classify(path: &Path) -> Result<Option<Kind>, String> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let refuse = |what: &str| {
        Err(format!(
            "{}: {what}; a vector folder holds only <kind>*.jsonl or <kind>*.jsonl.gz files \
             (kind: genomes, moves, games or perft) and *.md notes",
            path.display()
        ))
    };
    if !path.is_file() {
        return refuse("not a file");
    }
    if name.ends_with(".md") {
        return Ok(None);
    }
    let Some(stem) = name
        .strip_suffix(".jsonl")
        .or_else(|| name.strip_suffix(".jsonl.gz"))
    else {
        return refuse("neither .jsonl nor .jsonl.gz");
    };
    match Kind::ALL.into_iter().find(|k| stem.starts_with(k.prefix())) {
        Some(kind) => Ok(Some(kind)),
        None => refuse("its name starts with no known kind"),
    }
}

/// The text of a vector file, gunzipped when its name ends in `.gz`.
fn read_text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        GzDecoder::new(bytes.as_slice())
            .read_to_string(&mut text)
            .unwrap_or_else(|e| panic!("{}: not gzipped UTF-8 text: {e}", path.display()));
        text
    } else {
        String::from_utf8(bytes).unwrap_or_else(|e| panic!("{}: not UTF-8: {e}", path.display()))
    }
}

#[cfg(test)]
mod classify_tests {
    use super::{Kind, classify};

    fn in_temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("gmo-vectors-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join(name);
        std::fs::write(&path, "{}\n").expect("a temporary file");
        path
    }

    #[test]
    fn files_are_vectors_notes_or_refused() {
        let kind = |name| classify(&in_temp(name));
        assert_eq!(kind("genomes-edge.jsonl"), Ok(Some(Kind::Genomes)));
        assert_eq!(kind("moves.jsonl.gz"), Ok(Some(Kind::Moves)));
        assert_eq!(kind("games-crafted.jsonl"), Ok(Some(Kind::Games)));
        assert_eq!(kind("perft.jsonl"), Ok(Some(Kind::Perft)));
        assert_eq!(kind("README.md"), Ok(None));
        for refused in [
            "extra-moves.jsonl",
            "moves.json",
            "moves.jsonl.bak",
            "notes.txt",
        ] {
            let why = kind(refused).expect_err(refused);
            assert!(why.contains(refused), "{why}");
        }
        let dir = in_temp("x").parent().expect("parent").to_path_buf();
        assert!(classify(&dir).is_err(), "a folder inside is refused");
        std::fs::remove_dir_all(&dir).expect("the temporary folder is removed");
    }
}
