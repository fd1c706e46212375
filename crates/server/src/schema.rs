//! Schemas of the strings the API passes around (ids, tokens, genome and preset references, DNA,
//! bot seats), with the patterns and limits the handlers enforce, for the OpenAPI document.

use crate::settings::{MAX_DNA_LETTERS, MAX_DNA_TEXT};
use gmo_engine::openapi::{CODE_PATTERN, exact};
use serde_json::json;
use std::borrow::Cow;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// 128 random bits in 32 lower-case hex digits: game, lab and seek ids, and bearer tokens.
pub const HEX_PATTERN: &str = "^[0-9a-f]{32}$";

fn string(pattern: &str, description: &str, example: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(exact(pattern)))
        .description(Some(description))
        .examples([example])
}

/// `^(<code>|name|…)$`: a code, or one of `names`.
fn code_or(names: impl IntoIterator<Item = &'static str>) -> String {
    let code = CODE_PATTERN.trim_start_matches('^').trim_end_matches('$');
    let names: Vec<&str> = names.into_iter().collect();
    format!("^({code}|{})$", names.join("|"))
}

macro_rules! string_schema {
    ($(#[$doc:meta])* $name:ident, $label:literal, $schema:expr) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name;

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                $schema.into()
            }
        }

        impl ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed($label)
            }
        }
    };
}

string_schema!(
    /// A game's or a lab's id.
    Id,
    "Id",
    string(HEX_PATTERN, "An id: 32 hex digits.", "5d41402abc4b2a76b9719d911017c592")
);

string_schema!(
    /// A bearer token, shown once when its game or lab is created.
    Token,
    "Token",
    string(HEX_PATTERN, "A secret: 32 hex digits. Send it as `Authorization: Bearer <token>`.", "0cc175b9c0f1b6a831c399e269772661")
);

string_schema!(
    /// A stored genome: its code, or the name of a standard piece.
    GenomeRef,
    "GenomeRef",
    string(
        &code_or(gmo_genome::standard::STANDARD.map(|(name, _)| name)),
        "A genome: its code, or the name of a standard piece.",
        "rook"
    )
);

string_schema!(
    /// A stored preset: its code, or `default`.
    PresetRef,
    "PresetRef",
    string(&code_or(["default"]), "A preset: its code, or `default`.", "default")
);

string_schema!(
    /// DNA as submitted: letters S, A, C, H in either case, white space ignored.
    Dna,
    "Dna",
    string(
        // White space as Rust's `char::is_whitespace` knows it, which the parser skips.
        "^[SACHsach\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*$",
        &format!(
            "DNA: the letters S, A, C, H (either case); white space is ignored. At most \
             {MAX_DNA_LETTERS} letters and {MAX_DNA_TEXT} characters."
        ),
        "AHH HSH HAA CHA CHA CHA HHA SAS AAA AAA AAA"
    )
    .max_length(Some(MAX_DNA_TEXT))
);

/// A time a ply a served bot may be given: 1 ms to 60 s (leading zeros allowed, as the parser
/// allows them; `crate::bot_seats::MAX_SERVED_TIME` in gmo-play).
const BUDGET: &str = "0*([1-9][0-9]{0,3}|[1-5][0-9]{4}|60000)ms|0*([1-9]|[1-5][0-9]|60)s";

string_schema!(
    /// A seat given to a bot: `bot:random`, `bot:greedy`, `bot:search` or `bot:search:<time>`.
    BotSeat,
    "BotSeat",
    OneOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(["bot:random", "bot:greedy", "bot:search"]))
        )
        .item(string(
            &format!("^bot:search:({BUDGET})$"),
            "The search bot with a time per ply, 1 ms to 60 s (it thinks at most 500 ms, and at \
             most a twentieth of its clock, whatever it asks).",
            "bot:search:200ms"
        ))
        .description(Some("A bot to play this seat; absent or null, a person plays it."))
        .examples([json!("bot:search")])
);

string_schema!(
    /// An `Accept-Language` header: any text of tabs and visible ASCII; other bytes are refused.
    AcceptLanguage,
    "AcceptLanguage",
    string(
        "^[\\t -~]*$",
        "The languages the caller reads, as RFC 9110 lists them. The first of `en` and `sk` in \
         q-value order (a region is ignored: `sk-SK` is `sk`) is the language of the answer's \
         `explanation` and `traits`; absent, unparsable or neither of them: English. Bytes \
         outside tab and visible ASCII are refused (422 `invalid_field`).",
        "sk-SK,sk;q=0.9,en;q=0.8"
    )
);

string_schema!(
    /// A diagram's board size: 4 to 8.
    DiagramSize,
    "DiagramSize",
    string("^[4-8]$", "Files or ranks of the board: 4 to 8.", "7")
);

string_schema!(
    /// A number of plies in a query: 0 or more, at most 9 digits.
    PlyCount,
    "PlyCount",
    string("^[0-9]{1,9}$", "A number of plies: 0 or more.", "0")
);

string_schema!(
    /// How many of the engine's lines: 1 to 5.
    LineCount,
    "LineCount",
    string("^[1-5]$", "A number of lines, 1 to 5.", "3")
);

string_schema!(
    /// The side a diagram's piece belongs to.
    DiagramColor,
    "DiagramColor",
    string("^(white|black)$", "`white` or `black`.", "white")
);

string_schema!(
    /// The language of a diagram's text.
    DiagramLanguage,
    "DiagramLanguage",
    string("^(en|sk)$", "`en` or `sk`.", "sk")
);

string_schema!(
    /// Whether a stream says who is there: `true` or `false`.
    PresenceFlag,
    "PresenceFlag",
    string("^(true|false)$", "`true` or `false`.", "true")
);

string_schema!(
    /// What a stream's change lines carry: `full` (the game view) or `compact` (what changed).
    LinesMode,
    "LinesMode",
    string("^(full|compact)$", "`full` or `compact`.", "compact")
);

string_schema!(
    /// Whose leaderboard: people's or bots' (rated apart).
    LeaderPool,
    "LeaderPool",
    string("^(people|bots)$", "`people` (the default) or `bots`.", "bots")
);

string_schema!(
    /// The games listed: those in progress.
    LiveStatus,
    "LiveStatus",
    string("^in_progress$", "`in_progress`: the games listed are those in progress.", "in_progress")
);

string_schema!(
    /// A page of live games: 1 to 20.
    LivePage,
    "LivePage",
    string("^([1-9]|1[0-9]|20)$", "A page, 1 to 20 (50 games each).", "1")
);

string_schema!(
    /// What a library entry publishes.
    LibraryKind,
    "LibraryKind",
    string("^(genome|preset)$", "`genome` or `preset`.", "genome")
);

string_schema!(
    /// Library search words: up to 100 characters.
    LibraryWords,
    "LibraryWords",
    string(
        "^[\\s\\S]{0,100}$",
        "Words (at most 100 characters; the first 5 words count): each must begin a word of the \
         entry's name or description, in any case.",
        "twin rook"
    )
);

string_schema!(
    /// The order of library search results.
    LibrarySort,
    "LibrarySort",
    string("^(popular|new|stars|value)$", "`popular`, `new`, `stars` or `value`.", "popular")
);

string_schema!(
    /// A value in pawns, -100 to 100.
    Pawns,
    "Pawns",
    string(
        "^-?(100(\\.0+)?|[0-9]{1,2}(\\.[0-9]+)?)$",
        "A value in pawns, -100 to 100.",
        "3.25"
    )
);

string_schema!(
    /// What a piece does, comma-separated.
    PieceFeatures,
    "PieceFeatures",
    string(
        &{
            let names = gmo_play::library::features::names().join("|");
            format!("^(({names})(,({names}))*)?$")
        },
        "What the piece does, comma-separated, all must hold: leaps, slides, wraps, copies, \
         debuff, or a debuff's name (no_wrap, freeze, …).",
        "leaps,wraps"
    )
);

string_schema!(
    /// A page of library entries: 1 to 200.
    LibraryPage,
    "LibraryPage",
    string(
        "^([1-9]|[1-9][0-9]|1[0-9]{2}|200)$",
        "A page, 1 to 200 (50 entries each).",
        "1"
    )
);

string_schema!(
    /// An account's name: 3 to 20 of A–Z, a–z, 0–9, `_` and `-`.
    UsernameText,
    "Username",
    string(
        "^[A-Za-z0-9_-]{3,20}$",
        "A username: 3 to 20 of A-Z, a-z, 0-9, _ and -; it keeps its case and is unique without \
         regard to it.",
        "ada_lovelace"
    )
);

string_schema!(
    /// A password given to sign in or to confirm a change: any text (the rules are for new
    /// passwords; one that breaks them is only wrong).
    GivenPasswordText,
    "GivenPassword",
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(
            "The account's password: any text. The rules of new passwords are not applied: \
             a password that breaks them is answered as any wrong password (401 \
             bad_credentials).",
        ))
        .examples(["correct horse battery"])
);

string_schema!(
    /// A password: 8 to 128 characters (not bytes), no NUL.
    PasswordText,
    "Password",
    string(
        "^[^\\u0000]*$",
        "A password: 8 to 128 characters (characters, not bytes; all of them count), no NUL.",
        "correct horse battery"
    )
    .min_length(Some(8))
    .max_length(Some(128))
);
