//! The reference vectors' position format (tests/vectors/README.md), parsed from text: a perft
//! record is `{"name", "genomes", "pieces": [[x, y, side, genome_index, is_pawn, is_king], …],
//! "moves_played", "depth", "nodes"}`; `width` and `height` default to 8.

use crate::piece::{GenomeId, Piece};
use crate::position::Position;
use crate::square::{BoardSize, Color, Square};
use gmo_genome::Genome;
use serde_json::Value;

/// One line of a `perft*.jsonl` file.
#[derive(Debug, Clone)]
pub struct PerftVector {
    pub name: String,
    pub position: Position,
    pub depth: u32,
    pub nodes: u64,
}

impl PerftVector {
    pub fn parse(line: &str) -> Result<PerftVector, String> {
        let record: Value = serde_json::from_str(line).map_err(|e| format!("bad JSON: {e}"))?;
        let mut ids = Vec::new();
        let mut position = position_from(&record, &record["pieces"], &mut ids)?;
        position.set_moves_played(field_u32(&record, "moves_played")?);
        Ok(PerftVector {
            name: record["name"].as_str().unwrap_or("").to_string(),
            position,
            depth: field_u32(&record, "depth")?,
            nodes: record["nodes"].as_u64().ok_or("`nodes` is not a count")?,
        })
    }
}

fn field_u32(record: &Value, key: &str) -> Result<u32, String> {
    record[key]
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| format!("`{key}` is not a count"))
}

/// The board size a record names (8 × 8 when it names none).
pub fn size_of(record: &Value) -> Result<BoardSize, String> {
    let dim = |key: &str| -> Result<u8, String> {
        match &record[key] {
            Value::Null => Ok(8),
            v => v
                .as_u64()
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(|| format!("`{key}` is not a size")),
        }
    };
    BoardSize::new(dim("width")?, dim("height")?).map_err(|e| e.to_string())
}

/// A square from `[x, y]` (or the first two items of a longer array).
pub fn square_of(value: &Value, size: BoardSize) -> Result<Square, String> {
    let coord = |i: usize| value[i].as_u64().and_then(|n| u8::try_from(n).ok());
    match (coord(0), coord(1)) {
        (Some(x), Some(y)) => size
            .square(x, y)
            .ok_or_else(|| format!("[{x}, {y}] is not on the board")),
        _ => Err(format!("{value} is not a square")),
    }
}

/// A position from a record's `genomes` and a list of `[x, y, side, genome_index, is_pawn,
/// is_king]`; `ids[i]` is then the id of `genomes[i]`.
pub fn position_from(
    record: &Value,
    pieces: &Value,
    ids: &mut Vec<GenomeId>,
) -> Result<Position, String> {
    let size = size_of(record)?;
    let mut position = Position::new(size);
    for dna in record["genomes"].as_array().ok_or("no `genomes` list")? {
        let dna = dna.as_str().ok_or("a genome is not a string")?;
        let genome = Genome::parse(dna).map_err(|e| e.to_string())?;
        ids.push(position.intern(&genome).map_err(|e| e.to_string())?);
    }
    for p in pieces.as_array().ok_or("no piece list")? {
        let genome = p[3]
            .as_u64()
            .and_then(|i| ids.get(usize::try_from(i).ok()?))
            .ok_or_else(|| format!("{p}: no such genome index"))?;
        let color: Color = p[2].as_str().ok_or("no side")?.parse()?;
        let piece = Piece {
            genome: *genome,
            color,
            pawn: p[4].as_bool().ok_or("no pawn flag")?,
            king: p[5].as_bool().ok_or("no king flag")?,
        };
        position
            .put(square_of(p, size)?, piece)
            .map_err(|e| e.to_string())?;
    }
    Ok(position)
}
