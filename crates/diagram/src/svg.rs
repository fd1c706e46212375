//! Drawing a [`Diagram`] as SVG text. Integer coordinates and a fixed order everywhere, so that
//! the same diagram always gives the same bytes; every piece of text goes through [`escape`].

use crate::Language;
use crate::legend::{Key, Line, legend};
use crate::marks::{Diagram, MarkKind};
use crate::words::{Words, words};
use gmo_engine::{Color, Square};
use std::fmt::Write;

/// Pixels per square.
const SQ: i32 = 48;
const WIDTH: i32 = 480;
/// Where the board starts, below the heading.
const BOARD_TOP: i32 = 36;
const LINE: i32 = 18;
/// Characters per legend line at 13 px: the widest such row, in either language, stays inside the
/// picture (checked in `language_tests`).
const WRAP: usize = 60;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
/// Ordinary moves, and moves that leave more behind: told apart by shape as well as colour.
const PLAIN: &str = "#14457a";
const MORE: &str = "#b3261e";

/// Escapes text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Where a square is drawn: seen from `color`'s side (its back rank at the bottom).
struct Layout {
    left: i32,
    width: u8,
    height: u8,
    color: Color,
}

impl Layout {
    fn new(diagram: &Diagram) -> Layout {
        let (width, height) = (diagram.size.width(), diagram.size.height());
        Layout {
            left: (WIDTH - i32::from(width) * SQ) / 2,
            width,
            height,
            color: diagram.color,
        }
    }

    /// The top-left corner of a square.
    fn corner(&self, square: Square) -> (i32, i32) {
        let (x, y) = (i32::from(square.x()), i32::from(square.y()));
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        let (column, row) = match self.color {
            Color::White => (x, h - 1 - y),
            Color::Black => (w - 1 - x, y),
        };
        (self.left + column * SQ, BOARD_TOP + row * SQ)
    }

    fn centre(&self, square: Square) -> (i32, i32) {
        let (x, y) = self.corner(square);
        (x + SQ / 2, y + SQ / 2)
    }

    fn bottom(&self) -> i32 {
        BOARD_TOP + i32::from(self.height) * SQ
    }

    fn right(&self) -> i32 {
        self.left + i32::from(self.width) * SQ
    }
}

/// The whole document, its text in `language`.
pub fn draw(diagram: &Diagram, label: Option<&str>, language: Language) -> String {
    let words = words(language);
    let layout = Layout::new(diagram);
    let lines = legend(diagram, language);
    let wrapped: Vec<(Option<Key>, Vec<String>)> =
        lines.iter().map(|l| (l.key, wrap(&l.text))).collect();
    let legend_top = layout.bottom() + 44;
    let legend_rows: i32 = wrapped.iter().map(|(_, rows)| rows.len() as i32).sum();
    let height = legend_top + legend_rows * LINE + wrapped.len() as i32 * 6 + 12;
    let code = diagram.genome.code().to_string();
    let name = label.unwrap_or(&code);
    let id = format!(
        "gmo-{code}-{}-{}x{}",
        diagram.color,
        diagram.size.width(),
        diagram.size.height()
    );
    let title = words.title(
        name,
        diagram.color,
        diagram.size.width(),
        diagram.size.height(),
    );
    let mut svg = String::with_capacity(8 * 1024);
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-labelledby=\"{id}-title {id}-desc\" \
         font-family=\"sans-serif\" font-size=\"13\">"
    );
    let _ = writeln!(svg, "<title id=\"{id}-title\">{}</title>", escape(&title));
    let _ = writeln!(
        svg,
        "<desc id=\"{id}-desc\">{}</desc>",
        escape(&description(diagram, &lines, words))
    );
    let _ = writeln!(
        svg,
        "<rect width=\"{WIDTH}\" height=\"{height}\" fill=\"#fff\"/>"
    );
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>",
        layout.left,
        escape(&title)
    );
    board(&mut svg, &layout);
    edges(&mut svg, &layout, diagram.wraps);
    piece(&mut svg, &layout, diagram, &code);
    marks(&mut svg, &layout, diagram, words);
    legend_block(&mut svg, legend_top, &wrapped, words);
    svg.push_str("</svg>\n");
    svg
}

/// The text a screen reader gets: where the piece stands, every marked square, then the legend.
fn description(diagram: &Diagram, lines: &[Line], words: &dyn Words) -> String {
    let squares: Vec<String> = diagram.marks.iter().map(|m| m.square.to_string()).collect();
    let marked = if squares.is_empty() {
        words.no_marks().to_owned()
    } else {
        words.marked(squares.len(), &squares.join(" "))
    };
    let mut text = format!("{} {marked} ", words.stands_on(diagram.from));
    let legend: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    text.push_str(&legend.join(" "));
    text
}

fn board(svg: &mut String, layout: &Layout) {
    svg.push_str("<g class=\"board\">\n");
    for y in 0..layout.height {
        for x in 0..layout.width {
            let Some(square) = Square::new(x, y) else {
                continue;
            };
            let (left, top) = layout.corner(square);
            let fill = if square.shade() == 0 { DARK } else { LIGHT };
            let _ = writeln!(
                svg,
                "<rect x=\"{left}\" y=\"{top}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"{fill}\"/>"
            );
        }
    }
    svg.push_str("</g>\n<g class=\"coordinates\" fill=\"#444\" font-size=\"11\">\n");
    for x in 0..layout.width {
        if let Some(square) = Square::new(x, 0) {
            let (cx, _) = layout.centre(square);
            let file = char::from(b'a' + x);
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\">{file}</text>",
                cx - 3,
                layout.bottom() + 15
            );
        }
    }
    for y in 0..layout.height {
        if let Some(square) = Square::new(0, y) {
            let (_, cy) = layout.centre(square);
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                layout.left - 14,
                cy + 4,
                y + 1
            );
        }
    }
    svg.push_str("</g>\n");
}

/// The side edges: dashed where the piece wraps around them, solid where it does not.
fn edges(svg: &mut String, layout: &Layout, wraps: bool) {
    let (top, bottom) = (BOARD_TOP, layout.bottom());
    let (class, style) = if wraps {
        (
            "edges joined",
            format!("stroke=\"{PLAIN}\" stroke-dasharray=\"8 6\""),
        )
    } else {
        ("edges closed", "stroke=\"#333\"".to_owned())
    };
    let _ = writeln!(
        svg,
        "<g class=\"{class}\" stroke-width=\"4\" {style}>\n\
         <line x1=\"{l}\" y1=\"{top}\" x2=\"{l}\" y2=\"{bottom}\"/>\n\
         <line x1=\"{r}\" y1=\"{top}\" x2=\"{r}\" y2=\"{bottom}\"/>\n</g>",
        l = layout.left - 2,
        r = layout.right() + 2,
    );
}

fn piece(svg: &mut String, layout: &Layout, diagram: &Diagram, code: &str) {
    let (cx, cy) = layout.centre(diagram.from);
    let (fill, ink) = match diagram.color {
        Color::White => ("#fff", "#222"),
        Color::Black => ("#222", "#fff"),
    };
    let _ = writeln!(
        svg,
        "<g class=\"piece\" data-square=\"{}\">\n\
         <circle cx=\"{cx}\" cy=\"{cy}\" r=\"19\" fill=\"{fill}\" stroke=\"#222\" stroke-width=\"2\"/>\n\
         <text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" font-family=\"monospace\" font-size=\"9\" \
         fill=\"{ink}\">{}</text>\n</g>",
        diagram.from,
        cy + 4,
        escape(code)
    );
}

fn marks(svg: &mut String, layout: &Layout, diagram: &Diagram, words: &dyn Words) {
    svg.push_str("<g class=\"marks\">\n");
    for mark in &diagram.marks {
        let (cx, cy) = layout.centre(mark.square);
        let _ = writeln!(
            svg,
            "<g class=\"mark {}\" data-square=\"{}\"><title>{}</title>{}</g>",
            class_of(mark.kind, mark.is_special()),
            mark.square,
            escape(&format!(
                "{}: {}",
                mark.square,
                words.mark(mark.kind, mark.is_special())
            )),
            shape(mark.kind, mark.is_special(), cx, cy)
        );
    }
    svg.push_str("</g>\n");
}

fn class_of(kind: MarkKind, more: bool) -> String {
    let kind = match kind {
        MarkKind::Move => "move",
        MarkKind::NeedsTarget => "needs-target",
        MarkKind::Home => "home",
    };
    format!("{kind} {}", if more { "special" } else { "plain" })
}

/// The shape of a mark centred on `(cx, cy)`: dot or diamond (ordinary or leaving more), filled
/// for a move onto an empty square, hollow when it needs a target, a dashed frame for its own
/// square.
fn shape(kind: MarkKind, more: bool, cx: i32, cy: i32) -> String {
    let colour = if more { MORE } else { PLAIN };
    match (kind, more) {
        (MarkKind::Home, _) => {
            let (x, y, side) = (cx - SQ / 2 + 2, cy - SQ / 2 + 2, SQ - 4);
            format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{side}\" fill=\"none\" \
                 stroke=\"{colour}\" stroke-width=\"3\" stroke-dasharray=\"6 4\"/>"
            )
        }
        (kind, false) => {
            let r = if kind == MarkKind::Move { 8 } else { 15 };
            let paint = paint(kind, colour);
            format!("<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" {paint}/>")
        }
        (kind, true) => {
            let r = if kind == MarkKind::Move { 10 } else { 16 };
            let paint = paint(kind, colour);
            format!(
                "<polygon points=\"{cx},{} {},{cy} {cx},{} {},{cy}\" {paint}/>",
                cy - r,
                cx + r,
                cy + r,
                cx - r
            )
        }
    }
}

fn paint(kind: MarkKind, colour: &str) -> String {
    if kind == MarkKind::NeedsTarget {
        format!("fill=\"none\" stroke=\"{colour}\" stroke-width=\"4\"")
    } else {
        format!("fill=\"{colour}\" fill-opacity=\"0.9\"")
    }
}

fn legend_block(
    svg: &mut String,
    top: i32,
    lines: &[(Option<Key>, Vec<String>)],
    words: &dyn Words,
) {
    let _ = writeln!(
        svg,
        "<g class=\"legend\">\n<text x=\"16\" y=\"{}\" font-weight=\"bold\">{}</text>",
        top - 12,
        escape(words.legend_heading())
    );
    let mut y = top;
    for (key, rows) in lines {
        if let Some(key) = key {
            svg.push_str(&key_symbol(*key, 26, y));
        }
        for row in rows {
            let _ = writeln!(svg, "<text x=\"44\" y=\"{}\">{}</text>", y + 4, escape(row));
            y += LINE;
        }
        y += 6;
    }
    svg.push_str("</g>\n");
}

fn key_symbol(key: Key, cx: i32, cy: i32) -> String {
    match key {
        Key::Mark(MarkKind::Home, more) => {
            let colour = if more { MORE } else { PLAIN };
            format!(
                "<rect x=\"{}\" y=\"{}\" width=\"16\" height=\"16\" fill=\"none\" stroke=\"{colour}\" \
                 stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n",
                cx - 8,
                cy - 8
            )
        }
        Key::Mark(kind, more) => {
            let shape = shape(kind, more, 0, 0);
            let scale = if kind == MarkKind::NeedsTarget {
                "0.5"
            } else {
                "0.8"
            };
            format!("<g transform=\"translate({cx} {cy}) scale({scale})\">{shape}</g>\n")
        }
        Key::Edges(wraps) => {
            let style = if wraps {
                format!("stroke=\"{PLAIN}\" stroke-dasharray=\"4 3\"")
            } else {
                "stroke=\"#333\"".to_owned()
            };
            format!(
                "<line x1=\"{cx}\" y1=\"{}\" x2=\"{cx}\" y2=\"{}\" stroke-width=\"4\" {style}/>\n",
                cy - 8,
                cy + 8
            )
        }
    }
}

/// Splits text into rows of at most [`WRAP`] characters at spaces (a longer word gets a row of
/// its own).
fn wrap(text: &str) -> Vec<String> {
    let mut rows = Vec::new();
    let mut row = String::new();
    for word in text.split_whitespace() {
        let needed = row.chars().count() + usize::from(!row.is_empty()) + word.chars().count();
        if !row.is_empty() && needed > WRAP {
            rows.push(std::mem::take(&mut row));
        }
        if !row.is_empty() {
            row.push(' ');
        }
        row.push_str(word);
    }
    if !row.is_empty() {
        rows.push(row);
    }
    rows
}
