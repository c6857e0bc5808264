"""Before blessing new golden files: every value the golden files held at an older commit
is still there, bit for bit (new keys may appear). Exit 1 and list what changed otherwise.

    LOSSY_BLESS=1 cargo test -p lossy-core --test golden
    python3 crates/lossy-core/tests/golden_kept.py HEAD     # or the commit before yours
"""
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def walk(old, new, path, problems, added):
    if isinstance(old, dict):
        if not isinstance(new, dict):
            problems.append(f"{path}: no longer a table")
            return
        for k, v in old.items():
            if k not in new:
                problems.append(f"{path}.{k}: missing")
            else:
                walk(v, new[k], f"{path}.{k}", problems, added)
        added.update(k for k in new if k not in old)
    elif isinstance(old, list):
        if not isinstance(new, list) or len(old) != len(new):
            problems.append(f"{path}: list changed length")
            return
        for i, (a, b) in enumerate(zip(old, new)):
            walk(a, b, f"{path}.{i}", problems, added)
    elif type(old) is not type(new) or repr(old) != repr(new):
        problems.append(f"{path}: {old!r} -> {new!r}")


def main(commit):
    problems, added, files = [], set(), 0
    for f in sorted(glob.glob(os.path.join(ROOT, "crates/lossy-core/tests/golden/*.json"))):
        rel = os.path.relpath(f, ROOT)
        try:
            text = subprocess.check_output(["git", "-C", ROOT, "show", f"{commit}:{rel}"], stderr=subprocess.DEVNULL)
        except subprocess.CalledProcessError:
            continue  # a new golden file
        files += 1
        walk(json.loads(text), json.load(open(f)), os.path.basename(f), problems, added)
    print("\n".join(problems))
    print(f"{files} files compared with {commit}: {len(problems)} values changed; keys added: {', '.join(sorted(added)) or 'none'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "HEAD"))
