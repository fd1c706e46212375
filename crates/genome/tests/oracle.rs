//! Every `genomes*.jsonl` vector in `$GMO_ORACLE_DIR` (default `../shared/oracle/` beside the
//! repository) must be accepted or rejected exactly as the reference says.

use gmo_genome::Genome;
use std::path::PathBuf;

fn oracle_dir() -> PathBuf {
    match std::env::var_os("GMO_ORACLE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/oracle"),
    }
}

fn vector_files(dir: &PathBuf) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read oracle folder {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("oracle folder entry").path())
        .filter(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("genomes") && name.ends_with(".jsonl")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn genome_vectors_agree() {
    let dir = oracle_dir();
    let files = vector_files(&dir);
    assert!(!files.is_empty(), "no genomes*.jsonl in {}", dir.display());
    let mut agreed = 0usize;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable vector file");
        for (line_no, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let where_ = format!("{}:{}", file.display(), line_no + 1);
            let record: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{where_}: bad JSON: {e}"));
            let dna = record["dna"]
                .as_str()
                .unwrap_or_else(|| panic!("{where_}: no dna"));
            let valid = record["valid"]
                .as_bool()
                .unwrap_or_else(|| panic!("{where_}: no valid"));
            let parsed = Genome::parse(dna);
            assert_eq!(
                parsed.is_ok(),
                valid,
                "{where_}: disagreement on {line}\nour parser said: {parsed:?}"
            );
            if let Ok(genome) = parsed {
                let canonical = gmo_genome::canonicalize(dna).expect("valid DNA canonicalises");
                assert_eq!(
                    genome.to_string(),
                    canonical,
                    "{where_}: printing is not canonical"
                );
            }
            agreed += 1;
        }
    }
    println!("{agreed} genome vectors agree");
}
