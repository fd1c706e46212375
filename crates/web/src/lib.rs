//! The GMO chess web client: a single page of plain HTML, CSS and ES modules, embedded in the
//! binary so that `gmo serve` needs nothing beside itself, and served by [`router`].
//!
//! No build step: the files under `assets/` are what the browser runs. They talk to the server
//! only through the routes of `docs/service.md`.

mod assets;
#[cfg(test)]
mod i18n_tests;

use assets::{ASSETS, Asset};
use axum::Router;
use axum::extract::Path;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, IF_NONE_MATCH,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// The page may load only from this server and talk only to it: nothing from the internet.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The routes of the client: `/` (the page) and `/assets/{file}`. Merge it into any router:
/// `app.merge(gmo_web::router())`; it needs no state.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/assets/{*path}", get(asset))
}

/// The names of every embedded file, for tests and diagnostics.
pub fn asset_names() -> impl Iterator<Item = &'static str> {
    ASSETS.iter().map(|asset| asset.path)
}

async fn index(headers: HeaderMap) -> Response {
    match assets::find("index.html") {
        Some(page) => serve(page, &headers),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Response {
    match assets::find(&path) {
        Some(found) => serve(found, &headers),
        None => (
            StatusCode::NOT_FOUND,
            [(CONTENT_TYPE, "text/plain; charset=utf-8")],
            "no such asset",
        )
            .into_response(),
    }
}

/// Answers with the file, or `304` when the browser's copy is current. The files are not
/// fingerprinted, so browsers must revalidate (`no-cache`) — the ETag keeps that to a 304 until
/// a new binary ships different bytes.
fn serve(asset: &'static Asset, headers: &HeaderMap) -> Response {
    let etag = asset.etag();
    let fresh = headers
        .get(IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == etag));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        (
            [(CONTENT_TYPE, HeaderValue::from_static(asset.content_type))],
            asset.bytes,
        )
            .into_response()
    };
    let out = response.headers_mut();
    out.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    out.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        out.insert(ETAG, value);
    }
    if asset.path == "index.html" {
        out.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    async fn get_path(path: &str, etag: Option<&str>) -> Response {
        let mut request = Request::get(path);
        if let Some(tag) = etag {
            request = request.header(IF_NONE_MATCH, tag);
        }
        router::<()>()
            .oneshot(request.body(Body::empty()).expect("a request"))
            .await
            .expect("infallible")
    }

    fn header(response: &Response, name: axum::http::HeaderName) -> &str {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
    }

    #[tokio::test]
    async fn the_page_is_html_with_a_policy() {
        let response = get_path("/", None).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(header(&response, CONTENT_TYPE), "text/html; charset=utf-8");
        assert!(header(&response, CONTENT_SECURITY_POLICY).contains("default-src 'self'"));
        assert_eq!(header(&response, CACHE_CONTROL), "no-cache");
    }

    #[tokio::test]
    async fn modules_and_styles_have_their_types() {
        let js = get_path("/assets/app.js", None).await;
        assert_eq!(js.status(), StatusCode::OK);
        assert_eq!(header(&js, CONTENT_TYPE), "text/javascript; charset=utf-8");
        let css = get_path("/assets/style.css", None).await;
        assert_eq!(header(&css, CONTENT_TYPE), "text/css; charset=utf-8");
        let svg = get_path("/assets/favicon.svg", None).await;
        assert_eq!(header(&svg, CONTENT_TYPE), "image/svg+xml");
    }

    #[tokio::test]
    async fn a_current_copy_gets_304() {
        let first = get_path("/assets/board.js", None).await;
        let etag = header(&first, ETAG).to_owned();
        assert!(etag.starts_with('"'));
        let again = get_path("/assets/board.js", Some(&etag)).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        let stale = get_path("/assets/board.js", Some("\"old\"")).await;
        assert_eq!(stale.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn unknown_assets_are_404() {
        assert_eq!(
            get_path("/assets/nope.js", None).await.status(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            get_path("/assets/../Cargo.toml", None).await.status(),
            StatusCode::NOT_FOUND
        );
    }

    #[test]
    fn every_file_in_assets_is_embedded() {
        // A new module left out of the table would be a 404 for the browser, not a build error.
        // Folders (i18n/) included: an asset's path is its path under assets/.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut dirs = vec![root.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("an assets directory") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let name = path.strip_prefix(&root).expect("under assets/");
                let name = name.to_str().expect("a UTF-8 name").replace('\\', "/");
                assert!(assets::find(&name).is_some(), "{name} is not embedded");
            }
        }
    }

    /// `spec` (`./x.js`, `../x.js`) as imported by the module at `from`, as a table path.
    fn resolve(from: &str, spec: &str) -> String {
        let mut parts: Vec<&str> = from.split('/').collect();
        parts.pop();
        for part in spec.split('/') {
            match part {
                "." => {}
                ".." => {
                    parts.pop();
                }
                name => parts.push(name),
            }
        }
        parts.join("/")
    }

    #[test]
    fn imports_resolve_against_the_importer() {
        assert_eq!(resolve("game.js", "./dom.js"), "dom.js");
        assert_eq!(resolve("game/view/setup.js", "../../dom.js"), "dom.js");
        assert_eq!(resolve("game/ctrl.js", "./view/x.js"), "game/view/x.js");
    }

    #[test]
    fn every_module_imported_is_embedded() {
        // A module that imports a file missing from the table would break the page at run time.
        for asset in ASSETS.iter().filter(|asset| asset.path.ends_with(".js")) {
            let text = std::str::from_utf8(asset.bytes).expect("modules are UTF-8");
            for line in text.lines().filter(|line| line.starts_with("import ")) {
                let Some(start) = line.find("'.") else {
                    continue;
                };
                let rest = &line[start + 1..];
                let spec = &rest[..rest.find('\'').expect("a closing quote")];
                let name = resolve(asset.path, spec);
                assert!(
                    assets::find(&name).is_some(),
                    "{} imports missing {name}",
                    asset.path
                );
            }
        }
    }

    #[test]
    fn no_module_exports_a_name_twice() {
        // Two `export const x` in one module are a syntax error that stops the whole page (two
        // branches each adding `eventStreamPath` to api.js did that once).
        for asset in ASSETS.iter().filter(|asset| asset.path.ends_with(".js")) {
            let text = std::str::from_utf8(asset.bytes).expect("modules are UTF-8");
            let mut seen = std::collections::HashSet::new();
            for line in text.lines() {
                let Some(rest) = line.strip_prefix("export ") else {
                    continue;
                };
                let rest = rest.trim_start_matches("async ");
                let Some(rest) = ["const ", "let ", "function* ", "function ", "class "]
                    .iter()
                    .find_map(|keyword| rest.strip_prefix(keyword))
                else {
                    continue;
                };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                    .collect();
                assert!(
                    seen.insert(name.clone()),
                    "{} exports {name} twice",
                    asset.path
                );
            }
        }
    }
}
