//! Unit tests of the diagrams: the standard pieces' known moves, marks that need a target, a move
//! onto its own square, wrapping edges, both sides' views, sizes, labels and escaping, and the
//! accessible title and description. Every picture is parsed back as XML.

use crate::{DiagramError, Language, Options, render};
use gmo_engine::{Color, Lab};
use gmo_genome::{Genome, standard};
use std::collections::BTreeSet;

pub(crate) fn genome(dna: &str) -> Genome {
    Genome::parse(dna).expect("test DNA")
}

fn options(width: u8, height: u8, color: Color) -> Options {
    Options {
        width,
        height,
        color,
        label: None,
        language: Language::En,
    }
}

/// The marked squares of a picture, read back from its XML, with each mark's class.
pub(crate) fn marks(svg: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    doc.descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("mark ")))
        .map(|n| {
            let square = n.attribute("data-square").expect("a marked square");
            let class = n.attribute("class").unwrap_or_default();
            (square.to_owned(), class.to_owned())
        })
        .collect()
}

fn marked(svg: &str) -> BTreeSet<String> {
    marks(svg).into_iter().map(|(square, _)| square).collect()
}

fn names(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(str::to_owned).collect()
}

fn draw(name: &str, options: &Options) -> String {
    let genome = standard::by_name(name).expect("standard genome");
    render(&genome, options).expect("a diagram")
}

/// The destinations the engine gives the piece alone in the middle of an empty board, asked
/// through the lab: on the empty board, and onto an enemy piece on each other square.
pub(crate) fn engine_destinations(genome: &Genome, options: &Options) -> BTreeSet<String> {
    let size = options.size().expect("a valid size");
    let from = crate::home(size, options.color).expect("a middle");
    let mut lab = Lab::new(size, 1);
    lab.place(from, genome, options.color, false, false)
        .expect("place");
    let mut found: BTreeSet<String> = lab
        .moves_from(from)
        .iter()
        .map(|m| m.to.to_string())
        .collect();
    let blank = Genome::default();
    for square in size.squares().filter(|&s| s != from) {
        lab.place(square, &blank, options.color.opponent(), false, false)
            .expect("place");
        if lab.moves_from(from).iter().any(|m| m.to == square) {
            found.insert(square.to_string());
        }
        lab.erase(square).expect("erase");
    }
    found
}

#[test]
fn the_rook_slides_along_its_file_and_rank() {
    let svg = draw("rook", &Options::default());
    assert_eq!(marked(&svg), names("d1 d2 d3 d5 d6 d7 a4 b4 c4 e4 f4 g4"));
    assert!(
        marks(&svg)
            .iter()
            .all(|(_, class)| class == "mark move plain")
    );
    assert!(
        svg.contains("class=\"edges closed\""),
        "the rook does not wrap"
    );
    let text = text_of(&svg);
    assert!(
        text.contains(
            "Onto an enemy piece or one of its own side's pieces (the same squares): captures \
             the piece there."
        ),
        "{text}"
    );
}

#[test]
fn the_knight_jumps_to_its_eight_squares() {
    let svg = draw("knight", &Options::default());
    assert_eq!(marked(&svg), names("b3 b5 c2 c6 e2 e6 f3 f5"));
    assert!(text_of(&svg).contains("Debuff one lap (HAC)"));
}

#[test]
fn the_queen_reaches_lines_and_diagonals_and_freezes() {
    let svg = draw("queen", &Options::default());
    assert_eq!(
        marked(&svg),
        names(
            "d1 d2 d3 d5 d6 d7 a4 b4 c4 e4 f4 g4 \
             a1 b2 c3 e5 f6 g7 a7 b6 c5 e3 f2 g1"
        )
    );
    let text = text_of(&svg);
    assert!(
        text.contains("Debuff freeze (HSC): moving this piece freezes the game"),
        "{text}"
    );
}

#[test]
fn the_pawn_needs_a_target_to_take_and_black_moves_down() {
    let white = draw("pawn", &Options::default());
    let classes: Vec<(String, String)> = marks(&white);
    assert_eq!(
        classes,
        [
            ("c5".to_owned(), "mark needs-target plain".to_owned()),
            ("d5".to_owned(), "mark move plain".to_owned()),
            ("e5".to_owned(), "mark needs-target plain".to_owned()),
        ]
    );
    let black = draw("pawn", &options(7, 7, Color::Black));
    assert_eq!(marked(&black), names("c3 d3 e3"));
    assert!(text_of(&black).contains("only onto an enemy piece (needs a target)"));
}

#[test]
fn a_move_onto_its_own_square_and_a_copy_left_behind_are_marked_apart() {
    // Block 1: a marking step of 0 (its own square), leaving a copy of itself, owned by the
    // opponent. Block 2: one square north, leaving a copy of itself behind (owned by the mover).
    let dna = "AHH HSH HSH AHA AHA AHA HHA SAA  AHH HAA HAC AHA AHA AHA HHA SAS";
    let svg = render(&genome(dna), &Options::default()).expect("diagram");
    let marks = marks(&svg);
    assert!(
        marks.contains(&("d4".to_owned(), "mark home special".to_owned())),
        "{marks:?}"
    );
    assert!(
        marks.contains(&("d5".to_owned(), "mark move special".to_owned())),
        "{marks:?}"
    );
    let text = text_of(&svg);
    assert!(
        text.contains("leaves a copy of the moving piece, owned by the mover, on the from square"),
        "{text}"
    );
}

#[test]
fn wrapping_edges_bring_moves_back_on_the_other_side() {
    // A plain step of 4 then a marking step of 0: it lands four files away, which on a 7-file
    // board is only possible around the edge.
    let wrapping = genome("AHH HSH HSH CHA CHA CHA HHA CSS SAA");
    let svg = render(&wrapping, &Options::default()).expect("diagram");
    assert_eq!(marked(&svg), names("a4 d4 g4"));
    assert!(svg.contains("class=\"edges joined\""));
    assert!(text_of(&svg).contains("the left and right edges are joined"));
    let closed = genome("AHH HSH HAA CHA CHA CHA HHA CSS SAA");
    let svg = render(&closed, &Options::default()).expect("diagram");
    assert!(marked(&svg).is_empty());
    assert!(text_of(&svg).contains("no moves from the middle"));
}

#[test]
fn every_marked_square_is_a_destination_the_engine_gives() {
    let cases = [
        ("rook", 7, 7, Color::White),
        ("knight", 4, 4, Color::Black),
        ("queen", 8, 8, Color::Black),
        ("pawn", 5, 8, Color::White),
        ("bishop", 8, 5, Color::White),
        ("king", 6, 4, Color::Black),
    ];
    for (name, width, height, color) in cases {
        let options = options(width, height, color);
        let genome = standard::by_name(name).expect("standard genome");
        let svg = render(&genome, &options).expect("diagram");
        let expected = engine_destinations(&genome, &options);
        assert!(!expected.is_empty(), "{name}");
        assert_eq!(marks(&svg).len(), expected.len(), "{name} {width}×{height}");
        assert_eq!(marked(&svg), expected, "{name} {width}×{height}");
    }
}

#[test]
fn black_sees_the_board_turned_round_with_the_piece_on_the_same_screen_square() {
    for (width, height) in [(7, 7), (8, 8), (4, 5)] {
        let place = |color| {
            let svg = draw("king", &options(width, height, color));
            let doc = roxmltree::Document::parse(&svg).expect("XML");
            let piece = doc
                .descendants()
                .find(|n| n.attribute("class") == Some("piece"))
                .expect("the piece");
            let circle = piece
                .children()
                .find(|n| n.tag_name().name() == "circle")
                .expect("its circle");
            let at = |name| circle.attribute(name).map(str::to_owned);
            (at("cx"), at("cy"))
        };
        assert_eq!(place(Color::White), place(Color::Black), "{width}×{height}");
    }
    let white = draw("rook", &Options::default());
    let black = draw("rook", &options(7, 7, Color::Black));
    let first_file = |svg: &str| {
        let doc = roxmltree::Document::parse(svg).expect("XML");
        doc.descendants()
            .filter(|n| n.is_element())
            .filter(|n| n.parent().and_then(|p| p.attribute("class")) == Some("coordinates"))
            .find_map(|n| n.text().map(str::to_owned))
    };
    assert_eq!(first_file(&white).as_deref(), Some("a"));
    assert_eq!(first_file(&black).as_deref(), Some("a"));
    let x_of_a = |svg: &str| {
        let doc = roxmltree::Document::parse(svg).expect("XML");
        doc.descendants()
            .filter(|n| n.is_element())
            .find(|n| n.parent().and_then(|p| p.attribute("class")) == Some("coordinates"))
            .and_then(|n| n.attribute("x").and_then(|x| x.parse::<i32>().ok()))
            .expect("file a")
    };
    assert!(
        x_of_a(&white) < x_of_a(&black),
        "black sees file a on the right"
    );
}

#[test]
fn sizes_outside_the_engines_are_refused() {
    let rook = standard::by_name("rook").expect("rook");
    for (width, height) in [(3, 7), (7, 3), (9, 8), (8, 0)] {
        let error = render(&rook, &options(width, height, Color::White)).expect_err("refused");
        assert!(matches!(error, DiagramError::Size(_)));
        assert_eq!(error.field(), "width, height");
        assert!(
            error
                .to_string()
                .contains("width and height must be 4 to 8"),
            "{error}"
        );
    }
    for (width, height) in [(4, 4), (8, 8), (4, 8)] {
        assert!(render(&rook, &options(width, height, Color::Black)).is_ok());
    }
}

#[test]
fn labels_are_escaped_and_checked() {
    let rook = standard::by_name("rook").expect("rook");
    let label = "<b>\"R&D\" rook</b>";
    let options = Options {
        label: Some(label.to_owned()),
        ..Options::default()
    };
    let svg = render(&rook, &options).expect("diagram");
    assert!(!svg.contains("<b>"), "raw markup leaked");
    assert!(svg.contains("&lt;b&gt;&quot;R&amp;D&quot; rook&lt;/b&gt;"));
    let doc = roxmltree::Document::parse(&svg).expect("XML");
    let title = doc
        .descendants()
        .find(|n| n.tag_name().name() == "title")
        .and_then(|n| n.text())
        .expect("a title");
    assert_eq!(title, format!("{label}: a white piece on a 7×7 board"));
    for bad in ["", "tab\there", &"x".repeat(65)] {
        let options = Options {
            label: Some(bad.to_owned()),
            ..Options::default()
        };
        let error = render(&rook, &options).expect_err("refused");
        assert_eq!(error.field(), "label", "{bad:?}");
    }
}

#[test]
fn the_picture_is_accessible_and_the_same_every_time() {
    let svg = draw("bishop", &Options::default());
    assert_eq!(svg, draw("bishop", &Options::default()));
    let doc = roxmltree::Document::parse(&svg).expect("XML");
    let root = doc.root_element();
    assert_eq!(root.attribute("role"), Some("img"));
    let labelled = root.attribute("aria-labelledby").expect("aria-labelledby");
    let ids: Vec<&str> = labelled.split_whitespace().collect();
    let tags: Vec<&str> = ids
        .iter()
        .map(|id| {
            doc.descendants()
                .find(|n| n.attribute("id") == Some(*id))
                .map(|n| n.tag_name().name())
                .expect("the element the id names")
        })
        .collect();
    assert_eq!(tags, ["title", "desc"]);
    let desc = doc
        .descendants()
        .find(|n| n.tag_name().name() == "desc")
        .and_then(|n| n.text())
        .expect("desc");
    let bishop = standard::by_name("bishop").expect("bishop");
    for square in engine_destinations(&bishop, &Options::default()) {
        assert!(desc.contains(&square), "{square} is not told in {desc}");
    }
    assert!(desc.starts_with("The piece stands on d4."), "{desc}");
}

/// Every text node of the picture, joined (legend rows are wrapped, so rows are joined by spaces).
fn text_of(svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg).expect("XML");
    let rows: Vec<&str> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text())
        .collect();
    rows.join(" ")
}

#[test]
fn squares_of_the_middle_are_the_same_screen_square() {
    let size = gmo_engine::BoardSize::new(8, 6).expect("8×6");
    let white = crate::home(size, Color::White).expect("middle");
    let black = crate::home(size, Color::Black).expect("middle");
    assert_eq!((white.x(), white.y()), (3, 2));
    assert_eq!((black.x(), black.y()), (4, 3));
}
