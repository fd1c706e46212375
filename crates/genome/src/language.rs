//! The languages a genome is explained in, and how a request's `Accept-Language` chooses one.
//! Parsing is lenient on purpose: a header is a wish, so what cannot be read is skipped and the
//! answer falls back to English rather than failing.

use std::fmt;
use std::str::FromStr;

/// A language of [`crate::Genome::explain_in`] and [`crate::Genome::traits_in`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Language {
    /// English, the language of [`crate::Genome::explain`].
    #[default]
    En,
    /// Slovak.
    Sk,
}

/// A tag that is not one of [`Language::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLanguage(pub String);

impl fmt::Display for UnknownLanguage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a language genomes are explained in", self.0)
    }
}

impl std::error::Error for UnknownLanguage {}

impl Language {
    pub const ALL: [Language; 2] = [Language::En, Language::Sk];

    /// Its BCP 47 primary language subtag: `en`, `sk`.
    pub const fn tag(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Sk => "sk",
        }
    }

    /// The language of a BCP 47 tag, read from its primary subtag in any case (`sk`, `sk-SK`,
    /// `EN-gb`); `None` for any other language.
    pub fn from_tag(tag: &str) -> Option<Language> {
        let primary = tag.trim().split('-').next().unwrap_or_default();
        Language::ALL
            .into_iter()
            .find(|language| primary.eq_ignore_ascii_case(language.tag()))
    }

    /// The language an `Accept-Language` value asks for: of the ranges it names, the first in
    /// q-value order (the header's order among equals) that is one of ours, `*` meaning the
    /// default; English when none is, or the value cannot be read.
    pub fn negotiate(accept_language: &str) -> Language {
        let mut best: Option<(u16, Language)> = None;
        for range in accept_language.split(',') {
            let Some((quality, language)) = weighed(range) else {
                continue;
            };
            // Strictly better only: among equal weights the earlier range wins.
            if quality > 0 && best.is_none_or(|(top, _)| quality > top) {
                best = Some((quality, language));
            }
        }
        best.map(|(_, language)| language).unwrap_or_default()
    }
}

/// One range of an `Accept-Language` value (`sk-SK;q=0.9`): its weight in thousandths and the
/// language, or `None` when it is not one of ours or cannot be read.
fn weighed(range: &str) -> Option<(u16, Language)> {
    let mut parts = range.split(';');
    let tag = parts.next()?.trim();
    let language = if tag == "*" {
        Language::default()
    } else {
        Language::from_tag(tag)?
    };
    let mut quality = 1000;
    for parameter in parts {
        let (name, value) = parameter.split_once('=')?;
        if name.trim().eq_ignore_ascii_case("q") {
            quality = thousandths(value.trim())?;
        }
    }
    Some((quality, language))
}

/// A q-value (`0`, `0.8`, `1.000`: at most three decimals, at most 1) in thousandths; read
/// exactly, so that `0.8` and `0.80` weigh the same.
fn thousandths(q: &str) -> Option<u16> {
    let (whole, fraction) = q.split_once('.').unwrap_or((q, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !matches!(whole, "0" | "1") || fraction.len() > 3 || !digits(fraction) {
        return None;
    }
    let padded = format!("{fraction:0<3}");
    let value = u16::from(whole == "1") * 1000 + padded.parse::<u16>().ok()?;
    (value <= 1000).then_some(value)
}

impl FromStr for Language {
    type Err = UnknownLanguage;

    /// A BCP 47 tag, as [`Language::from_tag`].
    fn from_str(tag: &str) -> Result<Language, UnknownLanguage> {
        Language::from_tag(tag).ok_or_else(|| UnknownLanguage(tag.to_owned()))
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_read_by_their_primary_subtag_in_any_case() {
        assert_eq!(Language::from_tag("sk"), Some(Language::Sk));
        assert_eq!(Language::from_tag("sk-SK"), Some(Language::Sk));
        assert_eq!(Language::from_tag(" EN-gb "), Some(Language::En));
        assert_eq!(Language::from_tag("de"), None);
        assert_eq!(Language::from_tag("skx"), None);
        assert_eq!(Language::from_tag(""), None);
        assert_eq!("sk".parse::<Language>(), Ok(Language::Sk));
        assert!("cs".parse::<Language>().is_err());
        for language in Language::ALL {
            assert_eq!(language.to_string().parse::<Language>(), Ok(language));
        }
        assert_eq!(Language::default(), Language::En);
    }

    #[test]
    fn the_header_chooses_the_first_of_ours_by_weight() {
        let cases = [
            ("sk", Language::Sk),
            ("en", Language::En),
            ("sk-SK,sk;q=0.9,en;q=0.8", Language::Sk),
            ("de,en;q=0.5", Language::En),
            ("de,sk;q=0.5,en;q=0.4", Language::Sk),
            ("en;q=0.5, sk;q=0.9", Language::Sk),
            ("en;q=0.8, sk;q=0.80", Language::En),
            ("sk;q=0, en;q=0.1", Language::En),
            ("sk;q=0", Language::En),
            ("*;q=0.9, sk;q=0.5", Language::En),
            ("de, *;q=0.1, sk;q=0.2", Language::Sk),
            ("SK;Q=1.000", Language::Sk),
        ];
        for (header, language) in cases {
            assert_eq!(Language::negotiate(header), language, "{header}");
        }
    }

    #[test]
    fn what_cannot_be_read_is_skipped_and_english_is_the_fallback() {
        for header in [
            "",
            "garbage",
            ";;;,,,",
            "de",
            "sk;q=2",
            "sk;q=0.5000",
            "sk;q=abc",
            "sk;q=-1",
            "sk;q",
            "sk_SK",
            "ünïcödé",
        ] {
            assert_eq!(Language::negotiate(header), Language::En, "{header}");
        }
        // A bad range does not spoil the good ones.
        assert_eq!(Language::negotiate("sk;q=x, sk;q=0.3"), Language::Sk);
    }

    #[test]
    fn q_values_are_read_exactly() {
        assert_eq!(thousandths("1"), Some(1000));
        assert_eq!(thousandths("1.0"), Some(1000));
        assert_eq!(thousandths("0.8"), Some(800));
        assert_eq!(thousandths("0.123"), Some(123));
        assert_eq!(thousandths("0."), Some(0));
        assert_eq!(thousandths("1.001"), None);
        assert_eq!(thousandths(".5"), None);
        assert_eq!(thousandths("0.+5"), None);
    }
}
