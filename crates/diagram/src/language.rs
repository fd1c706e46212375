//! The languages a picture's text is written in: the genome's explanations' own, so that one
//! request's language serves both.

pub use gmo_genome::Language;
