//! The OpenAPI document, derived from the handlers' `#[utoipa::path]` annotations.

use crate::routes::doc;
use utoipa::OpenApi;

pub fn document() -> utoipa::openapi::OpenApi {
    doc::ApiDoc::openapi()
}
