//! Random ids and tokens, and the hashes tokens are stored as (docs/service.md: tokens are random,
//! at least 128 bits, and stored hashed).

use gmo_types::GameId;
use rand::Rng;

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

/// Whether `token` is the one whose hash is `stored`, comparing every byte so that the time taken
/// tells nothing about where a guess went wrong.
pub fn token_matches(token: &str, stored: &[u8; 32]) -> bool {
    let hash = token_hash(token);
    hash.iter()
        .zip(stored)
        .fold(0u8, |diff, (a, b)| diff | (a ^ b))
        == 0
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
