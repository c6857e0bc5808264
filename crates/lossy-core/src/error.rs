//! The crate's one error type. Messages are single lines that name where the problem is.

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A scenario that cannot be run: `path: what is wrong, and what is allowed`.
    #[error("{path}: {message}")]
    Scenario { path: String, message: String },
    /// A whole-run invariant failed: a bug in the simulator, never the user's fault.
    #[error("invariant violated: {0}")]
    Invariant(String),
}

impl Error {
    /// Every scenario error is made here, so every value it echoes is cut to a bounded
    /// length ([`shorten`]): a 10,000-character node name comes back as 60 and "…".
    pub fn scenario(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Scenario { path: shorten(&path.into()), message: bounded(&shorten(&message.into())) }
    }

    /// A message from a nested `validate()` that starts with its own field name
    /// ("p: 1.5 is not a probability") joins that name onto `path` ("links.1.loss.p").
    pub fn nested(path: &str, message: String) -> Self {
        match message.split_once(": ") {
            Some((field, rest)) if !field.is_empty() && field.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '[' || c == ']') => {
                Error::scenario(format!("{path}.{field}"), rest)
            }
            _ => Error::scenario(path, message),
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// The longest value a message echoes, in characters (issue 27: a line stays short
/// enough to read, and well under the catalogue's 400-character limit with the field
/// and the rule around it).
pub const LONGEST_ECHO: usize = 60;

/// `text` with every quoted span ("…", `…`) and every other word longer than
/// [`LONGEST_ECHO`] characters cut to that many and an ellipsis: what a user typed is
/// echoed, but never unbounded. Short text is returned as it is.
pub fn shorten(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(8 * LONGEST_ECHO));
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' || c == '`' {
            // A quoted value: its content up to the closing quote, cut; the quotes kept.
            out.push(c);
            let (mut n, mut closed) = (0, false);
            for d in chars.by_ref() {
                if d == c {
                    closed = true;
                    break;
                }
                n += 1;
                if n <= LONGEST_ECHO {
                    out.push(d);
                }
            }
            if n > LONGEST_ECHO {
                out.push('…');
            }
            if closed {
                out.push(c);
            }
        } else if c.is_whitespace() {
            out.push(c);
        } else {
            // A bare word (a number, a dotted path): a long number in short form, any
            // other word cut the same way as a quoted value.
            let mut word = String::from(c);
            while let Some(&d) = chars.peek() {
                if d.is_whitespace() || d == '"' || d == '`' {
                    break;
                }
                word.push(d);
                chars.next();
            }
            out.push_str(&short_word(&word));
        }
    }
    out
}

/// The longest path a message echoes whole (a temporary directory's data file is ~100).
pub const LONGEST_PATH: usize = 160;

/// The longest message after the path, in characters: with a path (one dotted word, at
/// most [`LONGEST_ECHO`] + 1) and "lossy: ", a line stays under the catalogue's 400.
pub const LONGEST_MESSAGE: usize = 320;

/// `message` cut to [`LONGEST_MESSAGE`] characters and "…": what is wrong and what is
/// allowed come first in every message, so only the tail of a long list (many values,
/// each already cut by [`shorten`]) goes.
fn bounded(message: &str) -> String {
    if message.chars().count() <= LONGEST_MESSAGE {
        return message.to_string();
    }
    let mut cut: String = message.chars().take(LONGEST_MESSAGE).collect();
    cut.push('…');
    cut
}

/// A word of a message, bounded: a number Rust wrote out in full (`1e300` as 301
/// digits, from `{}` of an f64) in short scientific form, "1e300"; any other word longer
/// than [`LONGEST_ECHO`] cut with an ellipsis. Brackets and punctuation around a number
/// stay.
fn short_word(word: &str) -> String {
    let core = word.trim_start_matches(['(', '[']).trim_end_matches([',', ';', ':', ')', ']']);
    if core.len() > 16 {
        if let Ok(v) = core.parse::<f64>() {
            if v.is_finite() && (v.abs() >= 1e15 || (v != 0.0 && v.abs() < 1e-6)) {
                return word.replacen(core, &format!("{v:e}"), 1);
            }
        }
    }
    let n = word.chars().count();
    if core.contains('/') {
        // A path (a data file's): echoed longer, and cut at its start, since its file
        // name is what tells the user which one.
        return if n <= LONGEST_PATH { word.to_string() } else { format!("…{}", word.chars().skip(n + 1 - LONGEST_PATH).collect::<String>()) };
    }
    if n <= LONGEST_ECHO {
        return word.to_string();
    }
    let mut cut: String = word.chars().take(LONGEST_ECHO).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_messages_extend_the_path() {
        let e = Error::nested("links.1.loss", "p: 1.5 is not a probability".into());
        assert_eq!(e.to_string(), "links.1.loss.p: 1.5 is not a probability");
        let e = Error::nested("flows.0.app", "exactly one of packets or times".into());
        assert_eq!(e.to_string(), "flows.0.app: exactly one of packets or times");
    }

    #[test]
    fn long_values_are_cut_with_an_ellipsis_and_short_ones_kept() {
        let long = "x".repeat(10_000);
        let e = Error::scenario("nodes.0", format!("\"{long}\" is listed twice; node names must be unique"));
        assert_eq!(e.to_string(), format!("nodes.0: \"{}…\" is listed twice; node names must be unique", "x".repeat(LONGEST_ECHO)));
        let e = Error::scenario(format!("flows.0.{long}"), format!("unknown field `{long}`; use one of: name, from"));
        assert_eq!(e.to_string(), format!("flows.0.{}…: unknown field `{}…`; use one of: name, from", "x".repeat(LONGEST_ECHO - 8), "x".repeat(LONGEST_ECHO)));
        let words = "a b ".repeat(100);
        assert_eq!(shorten(&words), words, "many short words stay whole");
        // ... but a message of many long values stays bounded as a whole.
        let names: Vec<String> = (0..12).map(|i| format!("{i}{}", "n".repeat(100))).collect();
        let e = Error::scenario("flows.0.to", format!("\"x\" is not a node; nodes are {}", names.join(", ")));
        let text = e.to_string();
        assert!(text.chars().count() <= "flows.0.to: ".len() + LONGEST_MESSAGE + 1, "{text}");
        assert!(text.starts_with("flows.0.to: \"x\" is not a node; nodes are 0nnn") && text.ends_with('…'), "{text}");
        assert_eq!(shorten("é".repeat(61).as_str()), format!("{}…", "é".repeat(60)));
        // A path keeps its file name: whole up to LONGEST_PATH, else cut at its start.
        let path = format!("/tmp/{}/losses.txt:", "d".repeat(80));
        assert_eq!(shorten(&format!("{path} no such file")), format!("{path} no such file"));
        let long = format!("/tmp/{}/losses.txt:", "d".repeat(400));
        let cut = shorten(&long);
        assert!(cut.starts_with('…') && cut.ends_with("/losses.txt:") && cut.chars().count() == LONGEST_PATH, "{cut}");
        // An f64 written out by `{}` comes back in short form, whatever its field.
        let e = Error::scenario("links.1.loss.p", format!("{} is not a probability; use a number in [0, 1]", 1e300));
        assert_eq!(e.to_string(), "links.1.loss.p: 1e300 is not a probability; use a number in [0, 1]");
        assert_eq!(shorten(&format!("{} s is above max_rto ({} s), which is far too long for anything", 1e-300, -2e40)), "1e-300 s is above max_rto (-2e40 s), which is far too long for anything");
    }
}
