//! Property tests on random genomes, board sizes and games: nothing panics; every listed move can
//! be made and every other `(from, to)` is refused without changing the game; a record replays to
//! the played game and a snapshot loads back to it; no view shows a player the opponent's genomes
//! before the end; each move adds the increment; a draw offer stays until the other seat moves or
//! answers; the kings in danger are exactly those some opposing move would cost their side.

use crate::game::{DrawOffer, Game, GameStatus, Reason, Settings};
use crate::game_tests::{at, ms};
use crate::position::{Drawn, Draws, Mode};
use crate::record::replay;
use crate::square::{ByColor, Color, Square};
use crate::view::Viewer;
use gmo_genome::{Genome, standard};
use gmo_types::{Millis, Timestamp};
use proptest::prelude::*;

fn random_genome() -> impl Strategy<Value = Genome> {
    gmo_genome::strategy::genome(4)
}

/// Standard genomes half the time, so that games have moves and last.
fn piece_genome() -> impl Strategy<Value = Genome> {
    prop_oneof![
        (0..standard::STANDARD.len())
            .prop_map(|i| { standard::by_name(standard::STANDARD[i].0).unwrap_or_default() }),
        random_genome(),
    ]
}

/// A game's ingredients: size, presets, king files, seed, and the plies as (choice, delay).
#[derive(Debug, Clone)]
struct Plan {
    width: u8,
    height: u8,
    presets: [Vec<Genome>; 2],
    kings: [usize; 2],
    seed: u64,
    increment: Millis,
    /// Per ply: the move's choice, the delay before it, and a draw action (0: the side to move
    /// offers, 1: the other side offers, 2: the side to move declines, others: nothing).
    plies: Vec<(usize, Millis, u8)>,
    promotions: Vec<Genome>,
}

fn plan() -> impl Strategy<Value = Plan> {
    (4u8..=8, 4u8..=8).prop_flat_map(|(width, height)| {
        let preset = || prop::collection::vec(piece_genome(), usize::from(width));
        (
            preset(),
            preset(),
            [0..usize::from(width), 0..usize::from(width)],
            (
                any::<u64>(),
                (0..=Settings::MAX_INCREMENT.ms()).prop_map(ms),
            ),
            prop::collection::vec((any::<usize>(), (0i64..8_000).prop_map(ms), 0u8..12), 0..40),
            prop::collection::vec(piece_genome(), 1..4),
        )
            .prop_map(
                move |(white, black, kings, (seed, increment), plies, promotions)| Plan {
                    width,
                    height,
                    presets: [white, black],
                    kings,
                    seed,
                    increment,
                    plies,
                    promotions,
                },
            )
    })
}

/// Sets up and starts the game of a plan at `t = 0`.
fn start(plan: &Plan) -> Game {
    let settings = Settings::new(plan.width, plan.height, ms(600_000))
        .and_then(|s| s.with_increment(plan.increment))
        .and_then(|s| s.with_first_move(None))
        .expect("sizes and increment in range");
    let mut game = Game::new(settings, plan.seed).expect("settings");
    for (color, (preset, king)) in Color::BOTH
        .into_iter()
        .zip(plan.presets.iter().zip(plan.kings))
    {
        game.load_preset(color, preset)
            .expect("preset of the board's width");
        let size = game.position().size();
        let x = u8::try_from(king).expect("a file");
        let square = size.square(x, size.back_rank(color)).expect("on board");
        game.toggle_king(color, square).expect("own piece");
        game.ready(color, at(0)).expect("ready");
    }
    game
}

fn all_squares() -> impl Iterator<Item = Square> {
    (0u8..64).filter_map(Square::from_index)
}

/// Every listed move can be made; every other `(from, to)`, by either side, is refused and
/// leaves the game as it was.
fn check_moves(game: &mut Game, now: Timestamp) -> Result<(), TestCaseError> {
    game.tick(now);
    let Some(side) = game.to_move() else {
        return Ok(());
    };
    let open = game.frozen_until(now).unwrap_or(now);
    let listed = game.legal_moves();
    for m in &listed {
        let mut copy = game.clone();
        let made = copy.play(side, m.from, m.to, open);
        prop_assert!(made.is_ok(), "{}→{}: {:?}", m.from, m.to, made);
    }
    let before = game.clone();
    for color in Color::BOTH {
        for from in all_squares() {
            for to in all_squares() {
                if color == side && listed.iter().any(|m| (m.from, m.to) == (from, to)) {
                    continue;
                }
                prop_assert!(game.play(color, from, to, now).is_err());
                prop_assert!(*game == before, "refusing {}→{} changed the game", from, to);
            }
        }
    }
    Ok(())
}

/// No player's view shows a code or DNA of the opponent's genomes before the end.
fn check_views(game: &Game, now: Timestamp) -> Result<(), TestCaseError> {
    let position = game.position();
    let spectator = serde_json::to_string(&game.view(Viewer::Spectator, now)).expect("json");
    for color in Color::BOTH {
        let json = serde_json::to_string(&game.view(Viewer::Player(color), now)).expect("json");
        let mine: Vec<String> = position
            .board()
            .side(color)
            .iter()
            .filter_map(|sq| position.piece_at(sq))
            .filter_map(|p| position.genome(p.genome))
            .flat_map(|g| [g.dna().to_string(), g.genome().code().to_string()])
            .collect();
        for square in position.board().side(color.opponent()).iter() {
            let Some(genome) = position
                .piece_at(square)
                .and_then(|p| position.genome(p.genome))
            else {
                continue;
            };
            let secrets = [genome.dna().to_string(), genome.genome().code().to_string()];
            for secret in secrets {
                // Skip what the viewer may see anyway: a genome of its own pieces, or DNA that
                // is part of its own DNA, or the empty DNA.
                if secret.is_empty() || mine.iter().any(|m| m.contains(&secret)) {
                    continue;
                }
                let shown = json.contains(&secret);
                prop_assert_eq!(shown, game.is_over(), "{} sees {}", color, secret);
                prop_assert!(game.is_over() || !spectator.contains(&secret));
            }
        }
    }
    Ok(())
}

/// The kings in danger are exactly the kings of a side whose count drops when one of the other
/// side's listed moves is made (on a copy, landing where it aims, in the lab's mode so that
/// either side may move).
fn check_danger(game: &Game) -> Result<(), TestCaseError> {
    let position = game.position();
    let danger = position.kings_in_danger();
    let mut expected = ByColor::<u64>::default();
    for victim in Color::BOTH {
        let before = position.board().king_count(victim);
        for m in position.moves_of_side(victim.opponent()) {
            let mut copy = position.clone();
            let mover = position.piece_at(m.from).expect("a mover");
            let mutation = position.genome(mover.genome).map(|g| g.genome().clone());
            let drawn = Drawn {
                landed: m.to,
                mutation: mutation.filter(|_| {
                    position
                        .genome(mover.genome)
                        .is_some_and(|g| g.has(gmo_genome::Debuff::Mutation))
                }),
            };
            let made = copy.make(Mode::Lab, m.from, m.to, Draws::Recorded(&drawn));
            prop_assert!(made.is_ok(), "{}→{}: {:?}", m.from, m.to, made);
            if copy.board().king_count(victim) < before {
                *expected.get_mut(victim) |= m.to.bit();
            }
        }
        prop_assert_eq!(danger.get(victim).0, *expected.get(victim), "{}", victim);
    }
    Ok(())
}

/// A draw action before a ply; checks that offers are idempotent and that a second seat's offer
/// ends the game drawn.
fn draw_action(game: &mut Game, action: u8, now: Timestamp) -> Result<(), TestCaseError> {
    let Some(side) = game.to_move() else {
        return Ok(());
    };
    let color = match action {
        0 | 2 => side,
        1 => side.opponent(),
        _ => return Ok(()),
    };
    let pending = game.draw_offer();
    if action == 2 {
        let declined = game.decline_draw(color, now);
        prop_assert_eq!(
            declined.is_ok(),
            pending == Some(color.opponent()) && !game.is_over()
        );
        return Ok(());
    }
    match game.offer_draw(color, now) {
        Ok(DrawOffer::Made) => prop_assert_eq!(pending, None),
        Ok(DrawOffer::AlreadyPending) => prop_assert_eq!(pending, Some(color)),
        Ok(DrawOffer::Agreed) => {
            prop_assert_eq!(pending, Some(color.opponent()));
            prop_assert_eq!(game.reason(), Some(Reason::Agreement));
        }
        Err(_) => prop_assert!(game.is_over(), "an offer refused in play"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_promise(plan in plan()) {
        let mut game = start(&plan);
        let mut now = at(0);
        check_views(&game, now)?;
        for (i, &(choice, delay, action)) in plan.plies.iter().enumerate() {
            if game.is_over() {
                break;
            }
            now += delay;
            check_danger(&game)?;
            draw_action(&mut game, action, now)?;
            if game.is_over() {
                break;
            }
            if i % 8 == 0 {
                check_moves(&mut game, now)?;
            }
            let side = game.to_move().unwrap_or(Color::White);
            if let Some(until) = game.frozen_until(now) {
                let before = game.clone();
                prop_assert!(game.promote(side, &plan.promotions[0], now).is_err());
                prop_assert!(game == before);
                now = until;
            }
            if game.promotion_due().is_some() {
                let genome = &plan.promotions[choice % plan.promotions.len()];
                prop_assert!(game.promote(side, genome, now).is_ok());
            } else {
                let moves = game.legal_moves();
                prop_assert!(!moves.is_empty(), "in progress without a move");
                let m = moves[choice % moves.len()];
                let left = game.clock().remaining_at(side, now);
                let offer = game.draw_offer();
                let ply = game.play(side, m.from, m.to, now);
                prop_assert!(ply.is_ok());
                let froze = ply.is_ok_and(|p| p.froze);
                if !game.is_over() && !froze {
                    let gained = game.clock().remaining_at(side, now) - left;
                    prop_assert_eq!(gained, plan.increment);
                }
                let kept = offer.filter(|&offerer| offerer == side);
                prop_assert_eq!(game.draw_offer(), kept.filter(|_| !game.is_over()));
            }
            check_views(&game, now)?;
        }
        if game.status() == GameStatus::InProgress && plan.seed % 3 == 0 {
            game.resign(Color::Black, now).expect("resign in progress");
            check_views(&game, now)?;
        }
        let replayed = replay(&game.record());
        prop_assert!(replayed.as_ref() == Ok(&game), "{:?}", replayed.err());
        let json = serde_json::to_string(&game).expect("snapshot");
        let loaded: Game = serde_json::from_str(&json).expect("snapshot loads");
        prop_assert!(loaded == game);
    }
}
