//! The languages a picture's text is written in. `gmo-genome` is getting the same enum for its
//! explanations (`gmo_genome::Language`, En and Sk, English the default); until both are on the
//! main branch the picture keeps its own, with the same variants and tags, so that one can become
//! a re-export of the other without touching a caller.

/// The language of every text in a picture: legend, title, description, the marks' tooltips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Language {
    /// English: the pictures as they always were, byte for byte.
    #[default]
    En,
    /// Slovak.
    Sk,
}

impl Language {
    pub const ALL: [Language; 2] = [Language::En, Language::Sk];

    /// Its BCP 47 primary language subtag: `en`, `sk`.
    pub const fn tag(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Sk => "sk",
        }
    }
}
