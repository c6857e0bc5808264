//! The overhead model's disk cache: a measured excess table (measure.rs) costs a FECTCP
//! run about 0.25 s of CPU and tens of MB (issue 28), and is the same for every run of
//! the same code, K, trials and seed, so it is kept in one small text file per key and
//! read back by later processes. What the file holds is exactly what the measurement
//! returned, so a run from the cache is bit-identical to one that measured.
//!
//! Where: `$LOSSY_CACHE_DIR`, else `$XDG_CACHE_HOME/lossy`, else `~/.cache/lossy` (the
//! XDG base directory rule), in its `rateless-overhead/` folder; `LOSSY_CACHE_DIR=off`
//! turns the disk cache off. A file that is missing, truncated, corrupt (checksum) or
//! made for another key or format is never trusted: the table is measured again and
//! the file rewritten. Writers write a temporary file and rename it over the old one,
//! so concurrent processes (a sweep's workers) never see half a file.

use super::RatelessCode;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Bump when what a measurement returns for the same key changes (measure.rs, the LT
/// code, the RaptorQ adapter, or the pinned `raptorq` crate below): old files then no
/// longer match their key and are measured again.
pub const FORMAT: u32 = 1;

/// The `raptorq` crate whose decoder RaptorQ tables measure; Cargo.toml pins it (a test
/// checks that the two agree, so a crate update cannot reuse tables it did not make).
pub const RAPTORQ_CRATE: &str = "2.0.1";

/// The folder of the cache files inside the cache directory.
const FOLDER: &str = "rateless-overhead";

/// Everything a measurement depends on: its inputs, the format and the code versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub code: RatelessCode,
    pub k: u32,
    pub trials: u32,
    pub seed: u64,
}

impl Key {
    /// The file name: every input, so that two keys never share a file.
    pub fn file_name(&self) -> String {
        format!("{}-k{}-t{}-s{}-v{}.txt", self.code.name(), self.k, self.trials, self.seed, FORMAT)
    }

    /// The key line stored inside the file (a file copied or renamed onto another key's
    /// name is caught by it).
    fn line(&self) -> String {
        format!(
            "key code={} k={} trials={} seed={} format={} lossy={} raptorq={}",
            self.code.name(),
            self.k,
            self.trials,
            self.seed,
            FORMAT,
            env!("CARGO_PKG_VERSION"),
            RAPTORQ_CRATE
        )
    }
}

/// The cache folder from the environment, or None when the disk cache is off or no
/// directory can be found. Unit tests use None unless they pass a folder themselves.
pub fn default_dir() -> Option<PathBuf> {
    if cfg!(test) {
        return None;
    }
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let base = match var("LOSSY_CACHE_DIR") {
        Some(v) if v == "off" => return None,
        Some(v) => PathBuf::from(v),
        None => match var("XDG_CACHE_HOME") {
            Some(v) => PathBuf::from(v).join("lossy"),
            None => PathBuf::from(var("HOME")?).join(".cache").join("lossy"),
        },
    };
    Some(base.join(FOLDER))
}

/// The file's whole text for `key` and its table.
fn render(key: &Key, excess: &[u32]) -> String {
    let table: Vec<String> = excess.iter().map(u32::to_string).collect();
    let body = format!("lossy rateless overhead model\n{}\nexcess {}\n", key.line(), table.join(" "));
    format!("{body}fnv1a64 {:016x}\n", fnv1a64(body.as_bytes()))
}

/// The table in `text` if it is exactly what `render` makes for `key`: the right key and
/// format, `trials` entries, and a matching checksum; else None.
fn parse(key: &Key, text: &str) -> Option<Vec<u32>> {
    let line = text.lines().nth(2)?.strip_prefix("excess ")?;
    let excess: Vec<u32> = line.split(' ').map(|x| x.parse().ok()).collect::<Option<_>>()?;
    (excess.len() == key.trials as usize && render(key, &excess) == text).then_some(excess)
}

/// FNV-1a, 64 bits (Fowler, Noll, Vo): enough to catch a damaged file, not an attacker.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

/// The table stored for `key` in `dir`, if a valid one is there.
pub fn read(dir: &Path, key: &Key) -> Option<Vec<u32>> {
    parse(key, &fs::read_to_string(dir.join(key.file_name())).ok()?)
}

/// Stores `excess` for `key` in `dir` (created if missing): written to a temporary file
/// of this process and thread, then renamed over the key's file in one step.
pub fn write(dir: &Path, key: &Key, excess: &[u32]) -> std::io::Result<()> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{}.{}.{}.tmp", key.file_name(), std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)));
    let written = fs::File::create(&tmp).and_then(|mut f| f.write_all(render(key, excess).as_bytes()));
    match written.and_then(|()| fs::rename(&tmp, dir.join(key.file_name()))) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// The table for `key`: read from `dir` when a valid file is there, else `measure()`d
/// and written (a cache that cannot be written, e.g. a read-only home, only costs the
/// next process the measurement again).
pub fn load_or_measure(dir: Option<&Path>, key: &Key, measure: impl FnOnce() -> Vec<u32>) -> Vec<u32> {
    let Some(dir) = dir else { return measure() };
    if let Some(excess) = read(dir, key) {
        return excess;
    }
    let excess = measure();
    let _ = write(dir, key, &excess);
    excess
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh, empty folder of this test's own under the system's temp directory.
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lossy-overhead-cache-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    const KEY: Key = Key { code: RatelessCode::Lt, k: 50, trials: 4, seed: 3 };

    #[test]
    fn a_written_table_reads_back_and_a_missing_one_is_measured() {
        let dir = temp_dir("roundtrip");
        assert_eq!(read(&dir, &KEY), None);
        let mut calls = 0;
        let first = load_or_measure(Some(&dir), &KEY, || { calls += 1; vec![0, 1, 1, 7] });
        let again = load_or_measure(Some(&dir), &KEY, || { calls += 1; vec![9, 9, 9, 9] });
        assert_eq!((first, again, calls), (vec![0, 1, 1, 7], vec![0, 1, 1, 7], 1));
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left behind");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damaged_or_foreign_files_are_measured_again_and_rewritten() {
        let dir = temp_dir("damaged");
        let path = dir.join(KEY.file_name());
        let good = render(&KEY, &[0, 1, 1, 7]);
        let other = Key { seed: 4, ..KEY };
        let damaged = [
            good[..good.len() - 20].to_string(),            // truncated
            good.replace("excess 0 1 1 7", "excess 0 1 1 8"), // a changed entry: checksum
            good.replace("excess 0 1 1 7", "excess 0 1 1"),   // an entry short
            render(&other, &[0, 1, 1, 7]),                     // another key's file
            good.replace(&format!("format={FORMAT}"), &format!("format={}", FORMAT + 1)),
            "\u{0}\u{ff}garbage".to_string(),
            String::new(),
        ];
        for text in damaged {
            fs::create_dir_all(&dir).unwrap();
            fs::write(&path, &text).unwrap();
            assert_eq!(read(&dir, &KEY), None, "trusted: {text:?}");
            assert_eq!(load_or_measure(Some(&dir), &KEY, || vec![2, 2, 3, 3]), vec![2, 2, 3, 3], "{text:?}");
            assert_eq!(fs::read_to_string(&path).unwrap(), render(&KEY, &[2, 2, 3, 3]), "rewritten");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn concurrent_writers_leave_one_whole_file() {
        let dir = temp_dir("concurrent");
        let table: Vec<u32> = (0..4).collect();
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..25 {
                        write(&dir, &KEY, &table).unwrap();
                        // A reader at any moment sees the whole file or none, never a part.
                        if let Ok(text) = fs::read_to_string(dir.join(KEY.file_name())) {
                            assert_eq!(parse(&KEY, &text).as_deref(), Some(&table[..]));
                        }
                    }
                });
            }
        });
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left behind");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_input_is_in_the_file_name_and_the_key_line() {
        let keys = [KEY, Key { code: RatelessCode::RaptorQ, ..KEY }, Key { k: 51, ..KEY }, Key { trials: 5, ..KEY }, Key { seed: 4, ..KEY }];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a.file_name(), b.file_name());
                assert_ne!(a.line(), b.line());
            }
        }
    }

    #[test]
    fn the_raptorq_version_in_the_key_is_the_one_cargo_pins() {
        let manifest = include_str!("../../../Cargo.toml");
        assert!(manifest.contains(&format!("raptorq = \"={RAPTORQ_CRATE}\"")), "Cargo.toml pins another raptorq: bump RAPTORQ_CRATE");
    }
}
