//! Random ids and tokens, and the hashes tokens are stored as (docs/service.md: tokens are random,
//! at least 128 bits, and stored hashed).

use gmo_types::GameId;
use rand::Rng;
use subtle::ConstantTimeEq;

/// A fresh random name: 128 random bits in 32 hex digits (games, seeks and labs have typed ids:
/// `GameId::from_bits(rand::random())`).
pub fn new_id() -> String {
    format!("{:032x}", rand::rng().random::<u128>())
}

/// A fresh bearer token: 128 random bits in 32 hex digits. Show it once; store [`token_hash`].
pub fn new_token() -> String {
    new_id()
}

/// What the store keeps of a token: its SHA-256. A leaked database then leaks no seat.
pub fn token_hash(token: &str) -> [u8; 32] {
    gmo_genome::sha256(token)
}

/// Whether `token` is the one whose hash is `stored`, compared in constant time (`subtle`) so
/// that the time taken tells nothing about where a guess went wrong.
pub fn token_matches(token: &str, stored: &[u8; 32]) -> bool {
    token_hash(token)[..].ct_eq(&stored[..]).into()
}

/// An event team's token, derived from its join code: every member who joins with the code gets
/// the same token, and the store keeps only the hashes of both.
pub fn team_token(code: &str) -> String {
    let digest = gmo_genome::sha256(&format!("gmo team\0{code}"));
    digest[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// A seat's token in the rematch of game `game`, derived from its token there: only the holder of
/// that token can compute it (any process can, from the request), and the store keeps only its
/// [`token_hash`]. The same 32 hex digits as [`new_token`].
pub fn rematch_token(token: &str, game: &GameId) -> String {
    let digest = gmo_genome::sha256(&format!("gmo rematch\0{game}\0{token}"));
    digest[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// A seat's token in the game of a challenge (issue 33), derived from the challenge's secret and
/// the seat's colour: the event streams of both accounts can show it on any process, and the game
/// keeps only its [`token_hash`]. The same 32 hex digits as [`new_token`].
pub fn challenge_seat_token(secret: &str, color: gmo_types::Color) -> String {
    let digest = gmo_genome::sha256(&format!("gmo challenge\0{secret}\0{}", color.name()));
    digest[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_matches_its_own_hash_only() {
        let token = new_token();
        let stored = token_hash(&token);
        assert!(token_matches(&token, &stored));
        assert!(!token_matches(&new_token(), &stored));
        assert!(!token_matches("", &stored));
    }

    #[test]
    fn a_token_differing_in_one_byte_is_refused() {
        let token = "5d41402abc4b2a76b9719d911017c592";
        let stored = token_hash(token);
        for at in [0, 15, token.len() - 1] {
            let mut near = token.as_bytes().to_vec();
            near[at] ^= 1;
            let near = String::from_utf8(near).expect("still ASCII");
            assert!(!token_matches(&near, &stored), "differs at {at}");
        }
        // And a stored hash differing in one byte refuses the token itself.
        for at in [0, 31] {
            let mut other = stored;
            other[at] ^= 0x80;
            assert!(!token_matches(token, &other), "hash differs at {at}");
        }
    }

    #[test]
    fn rematch_tokens_are_per_game_and_look_like_tokens() {
        let game = GameId::from_bits(7);
        let next = rematch_token("seat", &game);
        assert_eq!(next.len(), 32);
        assert!(next.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(next, rematch_token("seat", &game));
        assert_ne!(next, rematch_token("seat", &GameId::from_bits(8)));
        assert_ne!(next, rematch_token("other seat", &game));
    }
}
