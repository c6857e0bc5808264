//! Records the git commit the module is built from, so that an installed wheel, which has
//! no checkout to ask, still reports it (`_core.build_commit()`, read by
//! `lossy.sweep.store.git_commit()` when lossy does not run from a checkout).
//!
//! The commit is `LOSSY_GIT_COMMIT` when set (a build from an sdist, which has no .git),
//! else `git rev-parse HEAD` in this crate's checkout, else "unknown". The script runs
//! again when HEAD moves (a commit, a checkout), so the recorded commit follows it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).current_dir(dir).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=LOSSY_GIT_COMMIT");
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let given = std::env::var("LOSSY_GIT_COMMIT").ok().filter(|c| !c.trim().is_empty());
    let commit = given.or_else(|| git(&dir, &["rev-parse", "HEAD"])).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=LOSSY_BUILD_COMMIT={}", commit.trim());

    // What HEAD names: .git/HEAD, the branch's ref file, and packed-refs (where a ref
    // may live instead). Only files that exist: cargo reruns on every build for a missing one.
    let Some(git_dir) = git(&dir, &["rev-parse", "--absolute-git-dir"]) else { return };
    let common = git(&dir, &["rev-parse", "--git-common-dir"])
        .map(|c| if Path::new(&c).is_absolute() { PathBuf::from(c) } else { dir.join(c) })
        .unwrap_or_else(|| PathBuf::from(&git_dir));
    let mut watched = vec![Path::new(&git_dir).join("HEAD"), common.join("packed-refs")];
    if let Some(branch) = git(&dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(common.join(branch));
    }
    for path in watched.iter().filter(|p| p.is_file()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
