//! Following an event: the view first, then what changed — a round paired, a game ended, the
//! standings moved, the event finished. A stream wakes when this process pairs a round or hears
//! that another did (the bell), when a game of the current round ends here or anywhere (the
//! hub, which the relay feeds from other processes), and every [`TICK`] in case an
//! announcement was lost; it then reads the event again and tells what differs.

use super::Events;
use super::view::{EventView, PairingView, RoundView, Standing};
use crate::bell::Ringer;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::hub::Subscription;
use futures_util::future::select_all;
use gmo_types::{EventId, EventStatus};
use std::time::Duration;

/// How often a stream reads its event again although nothing woke it.
pub const TICK: Duration = Duration::from_secs(5);

/// What changed in an event, in the order a stream tells it.
#[derive(Debug, Clone, PartialEq)]
pub enum EventNews {
    /// A round was paired.
    Paired(RoundView),
    /// A board of round `round` got its result.
    Ended { round: u32, pairing: PairingView },
    /// The standings as they now are.
    Standings(Vec<Standing>),
    /// The event's status changed (it finished).
    Status(EventStatus),
}

/// One stream's follow of an event.
#[derive(Debug)]
pub struct EventFollow {
    events: Events,
    id: EventId,
    ringer: Ringer<EventId>,
    /// The games of the current round, to hear when one ends.
    games: Vec<Subscription>,
    /// The event as last told.
    last: EventView,
}

impl Events {
    /// Starts following event `id` (refused when it has [`super::STREAMS_PER_EVENT`] streams in
    /// this process already).
    pub async fn follow(&self, id: &EventId) -> PlayResult<EventFollow> {
        self.event(id).await?;
        let ringer = self.bell.hold(id).ok_or_else(|| {
            PlayError::refused(
                PlayCode::TooManyStreams,
                format!(
                    "an event may have {} streams open at once here; close one",
                    super::STREAMS_PER_EVENT
                ),
            )
        })?;
        // Subscribed before the read, so that nothing ending in between is missed.
        let view = self.view(id).await?;
        let mut follow = EventFollow {
            events: self.clone(),
            id: id.clone(),
            ringer,
            games: Vec::new(),
            last: view,
        };
        follow.watch_round();
        let view = self.view(id).await?;
        follow.last = view;
        Ok(follow)
    }
}

impl EventFollow {
    /// The event as first shown.
    pub fn view(&self) -> &EventView {
        &self.last
    }

    /// Waits for what changes next → the news, in order (never empty).
    pub async fn next(&mut self) -> PlayResult<Vec<EventNews>> {
        loop {
            tokio::select! {
                () = self.ringer.notified() => {}
                () = ended(&mut self.games) => {}
                () = tokio::time::sleep(TICK) => {}
            }
            let view = self.events.view(&self.id).await?;
            let news = news(&self.last, &view);
            let new_round = view.rounds.len() != self.last.rounds.len();
            self.last = view;
            if new_round {
                self.watch_round();
            }
            if !news.is_empty() {
                return Ok(news);
            }
        }
    }

    /// Subscribes to the current round's games still going on.
    fn watch_round(&mut self) {
        let hub = self.events.games.hub().clone();
        self.games = self
            .last
            .current()
            .into_iter()
            .flat_map(|round| &round.pairings)
            .filter(|pairing| !pairing.ended())
            .filter_map(|pairing| pairing.game.as_ref())
            .map(|game| hub.subscribe(game))
            .collect();
    }
}

/// Returns when one of `games` has ended (or its channel fell behind): never without games.
async fn ended(games: &mut [Subscription]) {
    if games.is_empty() {
        return std::future::pending().await;
    }
    loop {
        let waits = games.iter_mut().map(|game| Box::pin(game.recv()));
        match select_all(waits).await.0 {
            Ok(update) if !update.game.is_over() => continue,
            _ => return,
        }
    }
}

/// What differs from `before` to `after`, in the order it is told.
fn news(before: &EventView, after: &EventView) -> Vec<EventNews> {
    let mut news = Vec::new();
    for (round, old) in after.rounds.iter().zip(&before.rounds) {
        for (pairing, was) in round.pairings.iter().zip(&old.pairings) {
            if pairing.result.is_some() && was.result.is_none() {
                news.push(EventNews::Ended {
                    round: round.number,
                    pairing: pairing.clone(),
                });
            }
        }
    }
    for round in after.rounds.iter().skip(before.rounds.len()) {
        news.push(EventNews::Paired(round.clone()));
    }
    if after.standings != before.standings {
        news.push(EventNews::Standings(after.standings.clone()));
    }
    if after.status != before.status {
        news.push(EventNews::Status(after.status));
    }
    news
}
