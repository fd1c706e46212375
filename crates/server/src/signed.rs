//! Who is signed in: the session cookie (`gmo_session`) or a personal token (`Authorization:
//! Bearer gmo_…`), as extractors; and the cookie a sign-in sets and a sign-out clears.

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::FromRequestParts;
use axum::http::header::{AUTHORIZATION, COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use cookie::{Cookie, SameSite};
use gmo_play::PlayError;
use gmo_play::accounts::{Caller, Opened, SESSION_LIFETIME, TOKEN_PREFIX};
use gmo_types::Scope;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "gmo_session";
/// The longest cookie value read (a session id is 32 hex digits).
const MAX_SESSION: usize = 64;

/// The signed-in caller, if the request is signed in. A personal token that is no live token is
/// refused (401); a session cookie that is no live session reads as not signed in (it may have
/// expired or been signed out, and the page should still load). A request with both a personal
/// token and the session cookie is refused (401): a browser never sends a personal token and a
/// script has no cookie, so two credentials are a confused client, and answering for one of
/// them would let a bad one pass unnoticed.
#[derive(Debug, Clone)]
pub struct MaybeSigned(pub Option<Caller>);

/// A signed-in caller the route requires: none is `401 sign_in_needed`.
#[derive(Debug, Clone)]
pub struct Signed(pub Caller);

impl FromRequestParts<AppState> for MaybeSigned {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let accounts = &state.play.accounts;
        if let Some(token) = personal_token(&parts.headers) {
            if has_session_cookie(&parts.headers) {
                return Err(ApiError::unauthorized(
                    "both a personal token and the session cookie: send one of them",
                ));
            }
            return match accounts.by_token(token).await? {
                Some(caller) => Ok(MaybeSigned(Some(caller))),
                None => Err(ApiError::unauthorized(
                    "unknown personal token (revoked, or its account deleted)",
                )),
            };
        }
        match session_id(&parts.headers) {
            Some(session) => Ok(MaybeSigned(accounts.by_session(&session).await?)),
            None => Ok(MaybeSigned(None)),
        }
    }
}

impl FromRequestParts<AppState> for Signed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match MaybeSigned::from_request_parts(parts, state).await?.0 {
            Some(caller) => Ok(Signed(caller)),
            None => Err(PlayError::sign_in_needed("this route").into()),
        }
    }
}

impl Signed {
    /// The caller, if it may act in `scope` (a session may do anything; a token what its scopes
    /// allow).
    pub fn in_scope(self, scope: Scope) -> Result<Caller, ApiError> {
        if self.0.may(scope) {
            Ok(self.0)
        } else {
            Err(ApiError::forbidden(self.0.refusal(scope)))
        }
    }
}

/// The personal token of `Authorization: Bearer gmo_…`, if the request sent one.
pub fn personal_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
        .filter(|token| token.starts_with(TOKEN_PREFIX))
}

/// The session id of the `gmo_session` cookie, if the request sent one.
pub fn session_id(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|cookie| cookie.name() == SESSION_COOKIE)
        .map(|cookie| cookie.value().to_owned())
        .filter(|value| !value.is_empty() && value.len() <= MAX_SESSION)
}

/// Whether the request carries a session cookie at all: live or not, well-formed or not (an
/// empty, overlong or garbled `gmo_session` is still a credential the client meant to send).
pub fn has_session_cookie(headers: &HeaderMap) -> bool {
    let name = SESSION_COOKIE.as_bytes();
    headers.get_all(COOKIE).iter().any(|value| {
        value.as_bytes().split(|byte| *byte == b';').any(|pair| {
            let pair = pair.trim_ascii_start();
            pair.strip_prefix(name)
                .is_some_and(|rest| rest.is_empty() || rest.trim_ascii_start().starts_with(b"="))
        })
    })
}

/// `Set-Cookie` for a session just opened.
pub fn session_cookie(opened: &Opened, secure: bool) -> (axum::http::HeaderName, HeaderValue) {
    let max_age = cookie::time::Duration::milliseconds(SESSION_LIFETIME.ms());
    let cookie = Cookie::build((SESSION_COOKIE, opened.session.clone()))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(secure)
        .max_age(max_age)
        .build();
    set_cookie(&cookie)
}

/// `Set-Cookie` that makes the browser forget its session.
pub fn cleared_cookie(secure: bool) -> (axum::http::HeaderName, HeaderValue) {
    let cookie = Cookie::build((SESSION_COOKIE, ""))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(secure)
        .max_age(cookie::time::Duration::ZERO)
        .build();
    set_cookie(&cookie)
}

fn set_cookie(cookie: &Cookie<'_>) -> (axum::http::HeaderName, HeaderValue) {
    // Made of a hex id and fixed attributes: always a valid header value.
    let value = HeaderValue::from_str(&cookie.to_string())
        .unwrap_or_else(|_| HeaderValue::from_static("gmo_session=; Max-Age=0; Path=/"));
    (SET_COOKIE, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).expect("a header"));
        }
        map
    }

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let sent = headers(&[("cookie", "a=1; gmo_session=abc123; b=2")]);
        assert_eq!(session_id(&sent).as_deref(), Some("abc123"));
        assert_eq!(session_id(&headers(&[("cookie", "a=1")])), None);
        let long = format!("gmo_session={}", "x".repeat(65));
        assert_eq!(session_id(&headers(&[("cookie", &long)])), None);
        assert_eq!(session_id(&headers(&[("cookie", "gmo_session=")])), None);
    }

    #[test]
    fn any_session_cookie_counts_as_sent_even_a_garbled_one() {
        for sent in [
            "gmo_session=abc",
            "a=1; gmo_session=",
            "gmo_session",
            &format!("gmo_session={}", "x".repeat(65)),
            "b=2;gmo_session = %%",
        ] {
            assert!(has_session_cookie(&headers(&[("cookie", sent)])), "{sent}");
        }
        for sent in ["gmo_sessions=abc", "a=gmo_session", "b=2"] {
            assert!(!has_session_cookie(&headers(&[("cookie", sent)])), "{sent}");
        }
        assert!(!has_session_cookie(&headers(&[])));
    }

    #[test]
    fn a_personal_token_is_told_from_a_seat_token_by_its_prefix() {
        let token = headers(&[("authorization", "Bearer gmo_0123")]);
        assert_eq!(personal_token(&token), Some("gmo_0123"));
        let seat = headers(&[("authorization", "Bearer 0cc175b9c0f1b6a831c399e269772661")]);
        assert_eq!(personal_token(&seat), None);
    }

    #[test]
    fn the_cookie_is_http_only_lax_and_secure_when_asked() {
        let opened = Opened {
            username: gmo_types::Username::parse("ada").expect("a name"),
            session: "00ff".into(),
            expires: gmo_types::Timestamp::from_ms(0),
        };
        let (_, plain) = session_cookie(&opened, false);
        let plain = plain.to_str().expect("text");
        for part in [
            "gmo_session=00ff",
            "HttpOnly",
            "SameSite=Lax",
            "Path=/",
            "Max-Age=2592000",
        ] {
            assert!(plain.contains(part), "{plain} lacks {part}");
        }
        assert!(!plain.contains("Secure"), "{plain}");
        let (_, secure) = session_cookie(&opened, true);
        assert!(secure.to_str().expect("text").contains("Secure"));
        let (_, cleared) = cleared_cookie(false);
        assert!(cleared.to_str().expect("text").contains("Max-Age=0"));
    }
}
