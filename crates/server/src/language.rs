//! The language of a genome's `explanation` and `traits`: the one the request's `Accept-Language`
//! asks for (gmo-genome's `Language::negotiate`), said back in `Vary` so that a cache keeps one
//! answer per language. A header is a wish: absent, unparsable or in no language of ours, it
//! gives English. Only bytes no header text holds (outside tab and visible ASCII, the document's
//! pattern) are refused, as any input outside its schema is.

use crate::error::ApiError;
use crate::error_code::ServiceCode;
use axum::extract::FromRequestParts;
use axum::http::header::{ACCEPT_LANGUAGE, VARY};
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue};
use gmo_genome::Language;

/// The language a request reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Lang(pub Language);

impl<S: Send + Sync> FromRequestParts<S> for Lang {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        // Several header lines are one list (RFC 9110 §5.3).
        let mut ranges = Vec::new();
        for value in parts.headers.get_all(ACCEPT_LANGUAGE) {
            // `to_str` takes exactly tab and visible ASCII, the document's pattern.
            ranges.push(value.to_str().map_err(|_| {
                ApiError::invalid(
                    ServiceCode::InvalidField,
                    "Accept-Language must be text of tabs and visible ASCII (language ranges such \
                     as sk-SK,sk;q=0.9,en;q=0.8)",
                )
            })?);
        }
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

    async fn lang(values: &[&[u8]]) -> Result<Language, String> {
        let mut request = Request::builder();
        for value in values {
            request = request.header(ACCEPT_LANGUAGE, *value);
        }
        let (mut parts, ()) = request.body(()).expect("a request").into_parts();
        Lang::from_request_parts(&mut parts, &())
            .await
            .map(|Lang(language)| language)
            .map_err(|error| format!("{error:?}"))
    }

    #[tokio::test]
    async fn the_header_chooses_and_anything_unparsable_is_english() {
        assert_eq!(lang(&[]).await, Ok(Language::En));
        assert_eq!(lang(&[b"sk"]).await, Ok(Language::Sk));
        assert_eq!(lang(&[b"de", b"sk;q=0.5"]).await, Ok(Language::Sk));
        assert_eq!(lang(&[b"en;q=0.1", b"sk;q=0.2"]).await, Ok(Language::Sk));
        assert_eq!(lang(&[b"garbage ;;; q=x"]).await, Ok(Language::En));
        assert_eq!(lang(&[b"\tsk"]).await, Ok(Language::Sk));
    }

    #[tokio::test]
    async fn bytes_no_header_text_holds_are_refused_naming_the_header() {
        for values in [&[&b"\xc2\x84"[..]][..], &[b"sk", b"\xffsk"]] {
            let refused = lang(values).await.expect_err("refused");
            assert!(refused.contains("Accept-Language"), "{refused}");
            assert!(refused.contains("InvalidField"), "{refused}");
        }
    }
}
