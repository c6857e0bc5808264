//! Data files a scenario references by path (issue 26 item 3), where it would otherwise
//! paste data inline: a loss trace's entries (`channel/trace.rs`) today, a capacity
//! trace next. The field is a key named `file`: the Python loader resolves a relative
//! path against the scenario file's directory (`python/lossy/scenario.py`) and hashes
//! the file's content into the scenario's identity in the store; the core reads the
//! file, at most [`MAX_DATA_FILE_BYTES`], once per parsed scenario. Errors are one
//! line: `file: <path>: <what is wrong>` (the caller nests the field under its table,
//! `links.0.loss.file`), with the line number for bad contents.

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::io::Read;
use std::sync::{Arc, OnceLock};

/// The largest data file a scenario may reference: 64 MiB (a Mahimahi trace of a
/// minute at 1 Gbit/s is about 40 MiB); a bigger one is refused before it is read.
pub const MAX_DATA_FILE_BYTES: u64 = 64 << 20;

/// A path to a data file; its text is read on first use and kept (clones share it).
#[derive(Clone, Debug)]
pub struct DataFile {
    path: String,
    text: Arc<OnceLock<Result<Arc<str>, String>>>,
}

impl DataFile {
    pub fn new(path: impl Into<String>) -> Self {
        DataFile { path: path.into(), text: Arc::default() }
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    /// The file's text, or `file: <path>: <why not>`.
    pub fn text(&self) -> Result<&str, String> {
        match self.text.get_or_init(|| read_limited(&self.path).map(Arc::from)) {
            Ok(t) => Ok(t),
            Err(m) => Err(format!("file: {}: {m}", self.path)),
        }
    }

    /// The entries: each line without surrounding blanks, numbered from 1, blank lines
    /// and `#` comments left out.
    pub fn entries(&self) -> Result<impl Iterator<Item = (usize, &str)>, String> {
        Ok(self.text()?.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#')))
    }

    /// `file: <path> line <n>: <message>`, for bad contents.
    pub fn bad_line(&self, line: usize, message: impl std::fmt::Display) -> String {
        format!("file: {} line {line}: {message}", self.path)
    }
}

fn read_limited(path: &str) -> Result<String, String> {
    let unreadable = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => format!("cannot be read ({e})"),
    };
    // Looked at before it is opened: opening a FIFO waits for a writer, and `/dev/zero`
    // never ends (issue 27: only regular files are read as data files).
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if meta.is_dir() {
        return Err("is a directory, not a data file".into());
    }
    if !meta.is_file() {
        return Err("is not a regular file (a device, FIFO or socket); give a data file".into());
    }
    let file = std::fs::File::open(path).map_err(unreadable)?;
    if meta.len() > MAX_DATA_FILE_BYTES {
        return Err(format!("{} B is over the limit of {} B (64 MiB) for a data file", meta.len(), MAX_DATA_FILE_BYTES));
    }
    let mut text = String::new();
    // `take`: a file that grew since its size was read stops at the limit + 1.
    file.take(MAX_DATA_FILE_BYTES + 1).read_to_string(&mut text).map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => "not UTF-8 text".to_string(),
        _ => format!("cannot be read ({e})"),
    })?;
    if text.len() as u64 > MAX_DATA_FILE_BYTES {
        return Err(format!("over the limit of {MAX_DATA_FILE_BYTES} B (64 MiB) for a data file"));
    }
    Ok(text)
}

/// Two references are the same when they name the same path (what a scenario says).
impl PartialEq for DataFile {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}

impl Serialize for DataFile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.path.serialize(s)
    }
}

impl<'de> Deserialize<'de> for DataFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(DataFile::new)
    }
}

impl JsonSchema for DataFile {
    fn schema_name() -> Cow<'static, str> {
        "DataFile".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A path to a data file: relative to the scenario file's directory (or to the working directory for a scenario not read from a file); at most 64 MiB",
            "type": "string"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, text: &[u8]) -> String {
        let dir = std::env::temp_dir().join(format!("lossy-data-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    }

    #[test]
    fn entries_skip_blanks_and_comments_and_keep_their_line_numbers() {
        let f = DataFile::new(temp("entries.txt", b"# losses\n3\n\n  17 \n"));
        assert_eq!(f.entries().unwrap().collect::<Vec<_>>(), [(2, "3"), (4, "17")]);
        assert_eq!(f.bad_line(4, "bad"), format!("file: {} line 4: bad", f.path()));
    }

    #[test]
    fn a_missing_a_binary_or_a_directory_file_is_one_line_naming_it() {
        let missing = DataFile::new("/nonexistent/lossy/trace.txt");
        assert_eq!(missing.text().unwrap_err(), "file: /nonexistent/lossy/trace.txt: no such file");
        let binary = DataFile::new(temp("binary.txt", &[0xff, 0xfe, 0x00]));
        assert_eq!(binary.text().unwrap_err(), format!("file: {}: not UTF-8 text", binary.path()));
        let dir = DataFile::new(std::env::temp_dir().to_string_lossy().into_owned());
        assert!(dir.text().unwrap_err().ends_with(": is a directory, not a data file"));
    }

    /// Issue 27: `/dev/zero` was read to the limit, and a FIFO would wait for a writer.
    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_is_read() {
        let zero = DataFile::new("/dev/zero");
        assert_eq!(zero.text().unwrap_err(), "file: /dev/zero: is not a regular file (a device, FIFO or socket); give a data file");
        let fifo = std::env::temp_dir().join(format!("lossy-data-file-fifo-{}", std::process::id()));
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
        let e = DataFile::new(fifo.to_string_lossy().into_owned()).text().unwrap_err();
        std::fs::remove_file(&fifo).unwrap();
        assert!(e.ends_with(": is not a regular file (a device, FIFO or socket); give a data file"), "{e}");
    }

    #[test]
    fn a_file_over_the_limit_is_refused_with_the_limit() {
        let path = temp("big.txt", b"");
        std::fs::File::create(&path).unwrap().set_len(MAX_DATA_FILE_BYTES + 1).unwrap();
        let e = DataFile::new(path.clone()).text().unwrap_err();
        assert_eq!(e, format!("file: {path}: 67108865 B is over the limit of 67108864 B (64 MiB) for a data file"));
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn it_is_written_back_as_its_path() {
        let f: DataFile = serde_json::from_str(r#""losses.txt""#).unwrap();
        assert_eq!(serde_json::to_string(&f).unwrap(), r#""losses.txt""#);
        assert_eq!(f, DataFile::new("losses.txt"));
    }
}
