//! What a first tour on a phone, in an event and as a newcomer found (issue 37): the tap that
//! opens a question does not answer it, bot games wait for nobody, event games show only what the
//! server allows and speak of teams, discovery's box says one truth about hidden DNA.

use super::*;
use fantoccini::actions::{PenActions, TouchActions};

/// How a tap is made: a finger, a pen or a mouse (WebDriver's pointer types).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Pointer {
    Touch,
    Pen,
    Mouse,
}

/// A press and release on the middle of `selector`'s element by `pointer`, as one gesture.
pub(crate) async fn tap(client: &Client, selector: &str, pointer: Pointer) {
    let element = client
        .find(Locator::Css(selector))
        .await
        .unwrap_or_else(|error| panic!("{selector}: {error}"));
    let steps = [
        PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        },
        PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        },
        PointerAction::Pause {
            duration: Duration::from_millis(40),
        },
        PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        },
    ];
    let outcome = match pointer {
        Pointer::Touch => {
            let mut actions = TouchActions::new("finger".into());
            for step in steps {
                actions = actions.then(step);
            }
            client.perform_actions(actions).await
        }
        Pointer::Pen => {
            let mut actions = PenActions::new("pen".into());
            for step in steps {
                actions = actions.then(step);
            }
            client.perform_actions(actions).await
        }
        Pointer::Mouse => {
            let mut actions = MouseActions::new("mouse".into());
            for step in steps {
                actions = actions.then(step);
            }
            client.perform_actions(actions).await
        }
    };
    outcome.unwrap_or_else(|error| panic!("tapping {selector} ({pointer:?}): {error}"));
    client.release_actions().await.expect("released");
}

const QUESTION_OPEN: &str = "return !!document.querySelector('dialog#confirm-move[open]')";

/// From now on `window.__asked` turns true once the move question has been open, however briefly.
const WATCH_QUESTION: &str = "window.__asked = false; \
     const seen = () => { if (document.querySelector('dialog#confirm-move[open]')) window.__asked = true; }; \
     new MutationObserver(seen).observe(document.body, {childList: true, subtree: true, attributes: true})";

browser_test!(
    the_tap_that_opens_the_own_king_question_does_not_answer_it,
    own_king_on_a_phone,
    |settings| settings.play.first_move_time = Duration::from_secs(300)
);

/// White on a phone (390 × 844): the queen on e1 may take its own king on d1. A finger's tap on
/// d1 opens the question and the same tap's click answers nothing: the question stays open, no
/// move is made. Cancel by finger leaves the queen where it was. The same with a pen and a mouse;
/// then the finger takes the king after all, and the game is lost as asked.
async fn own_king_on_a_phone(driver: &mut Driver, base: String) {
    let white = driver.session(390, 844).await;
    let black = driver.session(1280, 900).await;
    start_friend_game(&white, &black, &base).await;
    for pointer in [Pointer::Touch, Pointer::Pen, Pointer::Mouse] {
        if !marks_of(&white, "e1").await[0]
            .as_str()
            .unwrap_or_default()
            .contains("selected")
        {
            tap(&white, "[data-square=\"e1\"]", pointer).await;
        }
        wait_for(
            &white,
            "the queen's moves",
            "return !!document.querySelector('.sq.target.loses-king[data-square=\"d1\"]')",
        )
        .await;
        white
            .execute(WATCH_QUESTION, vec![])
            .await
            .expect("the watch");
        tap(&white, "[data-square=\"d1\"]", pointer).await;
        wait_for(&white, "the question asked", "return window.__asked").await;
        // The tap's own click has come and gone by now.
        tokio::time::sleep(Duration::from_millis(700)).await;
        let open = white
            .execute(QUESTION_OPEN, vec![])
            .await
            .unwrap_or_default();
        assert_eq!(
            open,
            json!(true),
            "{pointer:?}: the tap that opened the question answered it"
        );
        shoot(&white, &format!("own-king-question-{pointer:?}-phone.png")).await;
        tap(&white, "#confirm-move-no", pointer).await;
        wait_for(
            &white,
            "the question gone",
            "return !document.querySelector('dialog#confirm-move')",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            label_of(&white, "d1").await.contains("white king"),
            "{pointer:?}: cancelled, the king stays"
        );
        assert!(!text_of(&white, "#move-list").await.contains("e1–d1"));
        assert!(
            text_of(&white, "#game-status")
                .await
                .starts_with("Your move")
        );
    }
    // Asked and answered by the finger: the king is taken.
    tap(&white, "[data-square=\"d1\"]", Pointer::Touch).await;
    wait_for(&white, "the question", QUESTION_OPEN).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    tap(&white, "#confirm-move-yes", Pointer::Touch).await;
    wait_status(&white, "You took your own king on d1").await;
    no_script_errors(&white).await;
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}
