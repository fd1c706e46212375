//! The embedded files: a static table built at compile time, so a missing file is a build error
//! and the binary serves the page with nothing on disk.

/// One embedded file.
#[derive(Debug)]
pub struct Asset {
    /// Its path under `/assets/` (and `index.html` for `/`).
    pub path: &'static str,
    pub content_type: &'static str,
    pub bytes: &'static [u8],
    /// A hash of the bytes, computed by the compiler: the ETag changes exactly when the file does.
    hash: u64,
}

impl Asset {
    /// A strong validator for conditional requests.
    pub fn etag(&self) -> String {
        format!("\"{:016x}\"", self.hash)
    }
}

/// FNV-1a, 64 bits: not for security, only to tell versions of a file apart.
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

macro_rules! embed {
    ($($path:literal => $type:expr),* $(,)?) => {
        &[$({
            const BYTES: &[u8] = include_bytes!(concat!("../assets/", $path));
            // One constant per file: the compiler bounds each evaluation, and the whole table
            // hashed in one would outgrow that bound as the page grows.
            const HASH: u64 = fnv1a(BYTES);
            Asset { path: $path, content_type: $type, bytes: BYTES, hash: HASH }
        }),*]
    };
}

const JS: &str = "text/javascript; charset=utf-8";
const JSON: &str = "application/json; charset=utf-8";

pub static ASSETS: &[Asset] = embed![
    "index.html" => "text/html; charset=utf-8",
    "style.css" => "text/css; charset=utf-8",
    "favicon.svg" => "image/svg+xml",
    "app.js" => JS,
    "api.js" => JS,
    "dom.js" => JS,
    "pieces.js" => JS,
    "board.js" => JS,
    "clock.js" => JS,
    "stream.js" => JS,
    "home.js" => JS,
    "game.js" => JS,
    "lab.js" => JS,
    "engine.js" => JS,
    "dna.js" => JS,
    "lookup.js" => JS,
    "promote.js" => JS,
    "seats.js" => JS,
    "result.js" => JS,
    "history.js" => JS,
    "alert.js" => JS,
    "pieceinfo.js" => JS,
    "rules.js" => JS,
    "lobby.js" => JS,
    "setup.js" => JS,
    "differences.js" => JS,
    "record.js" => JS,
    "confirm.js" => JS,
    "account.js" => JS,
    "players.js" => JS,
    "profile.js" => JS,
    "leaderboard.js" => JS,
    "bots.js" => JS,
    "events.js" => JS,
    "organise.js" => JS,
    "team.js" => JS,
    "fields.js" => JS,
    "screen.js" => JS,
    "watch.js" => JS,
    "library.js" => JS,
    "config.js" => JS,
    "i18n.js" => JS,
    "game/ctrl.js" => JS,
    "game/view/players.js" => JS,
    "game/view/status.js" => JS,
    "game/view/result.js" => JS,
    "game/view/actions.js" => JS,
    "game/view/invite.js" => JS,
    "game/view/away.js" => JS,
    "game/view/setup.js" => JS,
    "game/view/promotion.js" => JS,
    "view/board.js" => JS,
    "view/moves.js" => JS,
    "view/players.js" => JS,
    "view/graph.js" => JS,
    "analysis.js" => JS,
    "i18n/en.json" => JSON,
    "i18n/sk.json" => JSON,
];

/// The file at `path`, if embedded. Only exact names match: no directory walking.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|asset| asset.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_served_as_javascript() {
        for asset in ASSETS.iter().filter(|asset| asset.path.ends_with(".js")) {
            assert_eq!(asset.content_type, JS, "{}", asset.path);
        }
    }

    #[test]
    fn etags_differ_between_files() {
        let tags: std::collections::HashSet<String> = ASSETS.iter().map(Asset::etag).collect();
        assert_eq!(tags.len(), ASSETS.len());
    }
}
