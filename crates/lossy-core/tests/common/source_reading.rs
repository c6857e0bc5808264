//! The crate's own source as the family-shape tests read it: every non-test file under
//! `src/`, its code before `#[cfg(test)]` with `//` comments and `"..."` strings blanked,
//! so a name counts only where code uses it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/` but the test files (`*_tests.rs`, `tests.rs`), as its
/// path relative to `src/` and its code (`code_of`).
pub fn sources() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut dirs: Vec<PathBuf> = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                dirs.push(path);
            } else if name.ends_with(".rs") && !name.ends_with("_tests.rs") && name != "tests.rs" {
                let rel = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, code_of(&std::fs::read_to_string(&path).expect("source is text")));
            }
        }
    }
    out
}

/// `text`'s code before its test module, each `//` comment cut and each string literal
/// left as `""`.
pub fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut out = String::new();
    for line in text.lines() {
        let (mut chars, mut in_str) = (line.chars().peekable(), false);
        while let Some(c) = chars.next() {
            if in_str {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => in_str = false,
                    _ => {}
                }
            } else if c == '"' {
                in_str = true;
                out.push_str("\"\"");
            } else if c == '/' && chars.peek() == Some(&'/') {
                break;
            } else {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// Whether `text` names `word` (an identifier or a path) whole, not as part of a longer one.
pub fn names(text: &str, word: &str) -> bool {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(word).any(|(i, _)| !ident(text[..i].chars().next_back()) && !ident(text[i + word.len()..].chars().next()))
}

/// `ByteCounting` → `byte_counting`: a scheme's file name from its type's.
pub fn snake(name: &str) -> String {
    let mut s = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            s.push('_');
        }
        s.push(c.to_ascii_lowercase());
    }
    s
}
