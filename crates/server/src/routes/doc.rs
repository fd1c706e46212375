//! The OpenAPI document: every route's annotation, gathered.

use super::{games, genomes, labs, ops, presets, stream};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};

#[derive(OpenApi)]
#[openapi(
    info(title = "GMO chess", description = "Design pieces by DNA, share them by code, play on a server-kept clock."),
    paths(
        genomes::create, genomes::show,
        presets::create, presets::show,
        labs::create, labs::show, labs::place, labs::erase, labs::king, labs::moves, labs::play,
        labs::promote, labs::preset, labs::save_preset,
        games::create, games::show, games::preset, games::king, games::ready, games::moves,
        games::play, games::promote, games::resign, games::abort, games::record, stream::stream,
        ops::health, ops::metrics,
    ),
    components(schemas(
        genomes::NewGenome, genomes::CreatedGenome, genomes::GenomeInfo,
        presets::NewPreset, presets::PresetInfo,
        labs::NewLab, labs::Placement, labs::MoveRequest, labs::Promotion, labs::LoadPreset,
        labs::SavePreset, games::NewGameRequest, games::ClockRequest, games::PresetRequest,
    )),
    modifiers(&Bearer),
)]
pub struct ApiDoc;

/// Declares the `bearer` scheme the secured routes name.
struct Bearer;

impl Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
        );
    }
}
