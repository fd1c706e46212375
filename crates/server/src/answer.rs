//! JSON answers. axum's `Json` writes into a buffer of 128 bytes through `io::Write` on
//! `BytesMut`, growing it step by step; a game view is a few kB, so that cost more instructions
//! than building the view (docs/performance.md, "Faster moves"). This one writes into a `Vec`
//! sized for a game view, once.

use crate::error::ApiError;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Room for a full 8×8 game view with every genome shown, so that it is written without growing.
const CAPACITY: usize = 8 * 1024;

/// A JSON response body (`application/json`), as `axum::Json` but written in one buffer.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        let mut body = Vec::with_capacity(CAPACITY);
        match serde_json::to_writer(&mut body, &self.0) {
            Ok(()) => (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                body,
            )
                .into_response(),
            Err(error) => ApiError::internal(error).into_response(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Json;
    use axum::response::IntoResponse;

    #[tokio::test]
    async fn answers_are_json_with_their_type() {
        let response = Json(serde_json::json!({"a": [1, 2], "b": "c"})).into_response();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "application/json");
        let body = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .expect("a body");
        assert_eq!(&body[..], br#"{"a":[1,2],"b":"c"}"#);
    }
}
