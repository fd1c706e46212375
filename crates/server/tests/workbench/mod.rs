//! Issue 14, the designer's workbench over HTTP: breeding genomes.

mod breed;
