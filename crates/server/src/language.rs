//! The language of a genome's `explanation` and `traits`: the one the request's `Accept-Language`
//! asks for (gmo-genome's `Language::negotiate`), said back in `Vary` so that a cache keeps one
//! answer per language. A header is a wish, never a reason to refuse: absent, unreadable or in
//! no language of ours, it gives English.

use axum::extract::FromRequestParts;
use axum::http::header::{ACCEPT_LANGUAGE, VARY};
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue};
use gmo_genome::Language;
use std::convert::Infallible;

/// The language a request reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Lang(pub Language);

impl<S: Send + Sync> FromRequestParts<S> for Lang {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        // Several header lines are one list (RFC 9110 §5.3); a line that is not text is skipped.
        let ranges: Vec<&str> = parts
            .headers
            .get_all(ACCEPT_LANGUAGE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .collect();
        Ok(Lang(Language::negotiate(&ranges.join(","))))
    }
}

/// The header of an answer whose words depend on `Accept-Language`.
pub type Vary = [(HeaderName, HeaderValue); 1];

/// `Vary: Accept-Language`.
pub const VARY_LANGUAGE: Vary = [(VARY, HeaderValue::from_static("accept-language"))];

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;

    async fn lang(values: &[&[u8]]) -> Language {
        let mut request = Request::builder();
        for value in values {
            request = request.header(ACCEPT_LANGUAGE, *value);
        }
        let (mut parts, ()) = request.body(()).expect("a request").into_parts();
        let Ok(Lang(language)) = Lang::from_request_parts(&mut parts, &()).await;
        language
    }

    #[tokio::test]
    async fn the_header_chooses_and_anything_unreadable_is_english() {
        assert_eq!(lang(&[]).await, Language::En);
        assert_eq!(lang(&[b"sk"]).await, Language::Sk);
        assert_eq!(lang(&[b"de", b"sk;q=0.5"]).await, Language::Sk);
        assert_eq!(lang(&[b"\xff\xfe", b"sk"]).await, Language::Sk);
        assert_eq!(lang(&[b"\xffsk"]).await, Language::En);
        assert_eq!(lang(&[b"en;q=0.1", b"sk;q=0.2"]).await, Language::Sk);
    }
}
