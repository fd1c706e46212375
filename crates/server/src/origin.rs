//! Changes made with the session cookie must come from the server's own pages: a browser sends
//! the cookie along with a form or a script of any site (SameSite=Lax stops most, not all: a
//! sibling subdomain is the same site), so a request that may change something, carries the
//! cookie and says it comes from elsewhere is refused, `403 cross_origin`.

use crate::error::ApiError;
use crate::error_code::ServiceCode;
use crate::signed::has_session_cookie;
use axum::extract::Request;
use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Middleware: refuses a cross-origin change that carries the session cookie.
pub async fn same_origin(request: Request, next: Next) -> Response {
    let reads = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if !reads && has_session_cookie(request.headers()) && !from_own_origin(request.headers()) {
        return ApiError::Forbidden {
            code: ServiceCode::CrossOrigin.into(),
            message: "a change with the session cookie must come from this server's own pages \
                      (Origin / Sec-Fetch-Site name another site)"
                .into(),
        }
        .into_response();
    }
    next.run(request).await
}

/// Whether the request comes from the server's own origin, or says nothing of where it comes
/// from (not a browser: browsers send `Origin` with every cross-origin change).
fn from_own_origin(headers: &HeaderMap) -> bool {
    if let Some(site) = headers.get("sec-fetch-site") {
        return site == "same-origin" || site == "none";
    }
    let Some(origin) = headers.get(ORIGIN) else {
        return true;
    };
    let host = headers.get(HOST).and_then(|host| host.to_str().ok());
    let origin_host = origin.to_str().ok().and_then(|origin| {
        origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
    });
    matches!((origin_host, host), (Some(a), Some(b)) if a.eq_ignore_ascii_case(b))
}

#[cfg(test)]
mod tests {
    use super::from_own_origin;
    use axum::http::{HeaderMap, HeaderValue};

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn the_own_origin_passes_and_another_does_not() {
        assert!(from_own_origin(&headers(&[("host", "gmo.example:8080")])));
        assert!(from_own_origin(&headers(&[
            ("host", "gmo.example:8080"),
            ("origin", "http://gmo.example:8080")
        ])));
        assert!(from_own_origin(&headers(&[
            ("host", "gmo.example"),
            ("origin", "https://GMO.example")
        ])));
        assert!(!from_own_origin(&headers(&[
            ("host", "gmo.example"),
            ("origin", "https://evil.example")
        ])));
        assert!(!from_own_origin(&headers(&[
            ("host", "gmo.example"),
            ("origin", "null")
        ])));
        assert!(from_own_origin(&headers(&[(
            "sec-fetch-site",
            "same-origin"
        )])));
        assert!(!from_own_origin(&headers(&[
            ("sec-fetch-site", "same-site"),
            ("origin", "http://gmo.example"),
            ("host", "gmo.example")
        ])));
    }
}
