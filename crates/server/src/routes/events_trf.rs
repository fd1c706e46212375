//! `GET /api/events/{id}/trf`: an event as a FIDE Tournament Report File, for an arbiter to check
//! its pairings with the tool of their choice (bbpPairings `-c`, JaVaFo). The format is
//! gmo-events' (`trf::report`); this reads the event's view into it.

use crate::error::ApiResult;
use crate::extract::ApiPath;
use crate::schema::Id;
use crate::state::AppState;
use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use gmo_events::{Board, trf};
use gmo_play::events::EventView;
use gmo_types::{EventFormat, EventId, TeamId};
use std::collections::HashMap;

/// The event as a TRF-16 report: one `001` line per team (pairing number = the order teams were
/// added) with each ended round's opponent, colour and result.
#[utoipa::path(get, path = "/api/events/{id}/trf", tag = "events",
    operation_id = "event_trf", params(("id" = Id, Path, description = "the event's id")),
    responses((status = 200, description = "the event as a FIDE TRF-16 report (rounds whose \
boards have all ended; a pairing-allocated bye is `0000 - U`)", content_type = "text/plain",
               body = String),
              (status = 400, response = crate::responses::BadRequest),
              (status = 404, response = crate::responses::NotFound)))]
pub async fn trf(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<EventId>,
) -> ApiResult<Response> {
    let view = state.play.events.view(&id).await?;
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"event-{id}.trf\""),
            ),
        ],
        report(&view),
    )
        .into_response())
}

fn report(view: &EventView) -> String {
    let names: Vec<&str> = view.teams.iter().map(|t| t.name.as_str()).collect();
    let seed: HashMap<&TeamId, usize> = view
        .teams
        .iter()
        .enumerate()
        .map(|(index, team)| (&team.id, index))
        .collect();
    let rounds: Vec<Vec<Board>> = view
        .rounds
        .iter()
        .map(|round| {
            round
                .pairings
                .iter()
                .filter_map(|p| {
                    Some(Board {
                        white: *seed.get(&p.white)?,
                        black: match &p.black {
                            Some(black) => Some(*seed.get(black)?),
                            None => None,
                        },
                        outcome: p.result,
                    })
                })
                .collect()
        })
        .collect();
    let system = match view.event.format {
        EventFormat::Swiss => "Swiss Dutch (FIDE C.04.3)",
        EventFormat::RoundRobin => "Round robin (FIDE Berger tables)",
    };
    trf::report(&trf::Report {
        name: &view.event.name,
        system,
        rounds_total: view.event.rounds,
        teams: &names,
        rounds: &rounds,
    })
}
