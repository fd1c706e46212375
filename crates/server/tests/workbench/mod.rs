//! Issue 14, the designer's workbench over HTTP: breeding genomes, and what a genome is worth.

mod breed;
mod value;
mod value_limits;
