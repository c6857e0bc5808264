#!/usr/bin/env python3
"""Rewrites the code's citations of the old DESIGN.md into links to sections of
docs/architecture.md (issue 26 item 6).

    python tools/cite_architecture.py            # rewrite, print each change
    python tools/cite_architecture.py --dry-run  # print what would change, write nothing
    python tools/cite_architecture.py --check    # exit 1 if any DESIGN.md citation is left

It works by pattern, not by line numbers, so it runs on any tree: every `DESIGN.md`
in a .rs, .py or .pyi file under crates/, python/ and tests/ (or the roots given) is
read with what follows it:

    DESIGN.md "Seeds"               -> docs/architecture.md#seeds
    DESIGN.md `QueueDisc`           -> docs/architecture.md#family-queue
    DESIGN.md "Seams inside the     -> docs/architecture.md#packet-flow   (a label wrapped
    //! entities"                      over a comment line: the lines are joined, re-wrapped)
    DESIGN.md: a coding, not a layer -> docs/architecture.md#family-link-layer: a coding, ...
    (DESIGN.md) / See DESIGN.md     -> docs/architecture.md#<the file's section>

The section is chosen by the label (LABELS; a few labels by file first, OVERRIDES), else
by the file's place in the tree (BY_FILE). A file that holds the line
`cite_architecture: leave this file` is skipped. Every anchor written must exist in
docs/architecture.md (as `{#anchor}`), or nothing is written. Idempotent: a second run
finds no DESIGN.md and changes nothing.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
DOC = "docs/architecture.md"
DEFAULT_ROOTS = ("crates", "python", "tests")
SUFFIXES = (".rs", ".py", ".pyi")
WIDTH = 90  # re-wrap a comment paragraph whose line a citation made longer than this
# A file holding this line is left alone (a test that quotes DESIGN.md citations).
LEAVE = "cite_architecture: leave this file"

# Labels (lower case, spaces collapsed) -> anchor. DESIGN.md's headings and lead-ins,
# the seams of its table, and the labels the code cited.
LABELS: Dict[str, str] = {
    "layers and the way data flows": "layers",
    "layers": "layers",
    "module map": "modules",
    "the world and its three kinds of entity": "world",
    "the world": "world",
    "world": "world",
    "engine": "engine",
    "events": "engine",
    "timers": "engine",
    "actions": "actions",
    "scheduled actions": "actions",
    "seams inside the entities": "families",
    "seams": "families",
    "the packet": "packet",
    "packet": "packet",
    "conventions (examples to follow)": "conventions",
    "conventions": "conventions",
    "sans-io state machines": "sans-io",
    "sans-io": "sans-io",
    "integer time": "integer-time",
    "config is plain serde structs with documented defaults": "config",
    "config is plain serde structs": "config",
    "config": "config",
    "errors": "config",
    "typed traces": "run-result",
    "reproducible randomness": "seeds",
    "seeds": "seeds",
    "no allocation per packet": "hot-path",
    "files stay small": "hot-path",
    "conservation with every path named": "conservation",
    "conservation": "conservation",
    "pyo3 at the edge": "bindings",
    "pyo3 stays at the edge": "bindings",
    "tests at three depths": "tests",
    "golden results": "golden",
    "results, sweeps and scale": "results",
    "results": "run-result",
    "sweeps": "sweeps",
    "parallel and distributed": "parallel",
    "dependencies we chose, and why": "dependencies",
    "dependencies": "dependencies",
    "papers": "reproductions",
    "closed enums": "closed-enums",
    "channels are given time and size": "family-loss-model",
    "one event says what it was": "family-congestion-control",
    "a coding, not a layer": "family-link-layer",
    # the seams of DESIGN.md's table
    "congestioncontrol": "family-congestion-control",
    "lossrecovery": "family-loss-recovery",
    "scoreboard": "family-loss-recovery",
    "lossinference": "loss-inference",
    "queuedisc": "family-queue",
    "linklayer": "family-link-layer",
    "coding": "family-link-layer",
    "lossprocess": "family-loss-model",
    "pipeline": "pipeline",
    "endpoint": "endpoints",
    "agent": "family-agent",
    "segment": "segments",
}

# (file pattern, label or None for a bare citation, anchor), tried before LABELS.
OVERRIDES: List[Tuple[str, Optional[str], str]] = [
    (r"/tcp/inference/", "seams", "loss-inference"),
    (r"/net/pipeline\.rs$", "seams", "pipeline"),
    (r"/net/p2p\.rs$", "seams inside the entities", "packet-flow"),
    (r"/net/", "the world and its three kinds of entity", "segments"),
    (r"/transport/", "the world and its three kinds of entity", "endpoints"),
    (r"/tcp/", "the world and its three kinds of entity", "endpoints"),
    (r"/agents/", "the world and its three kinds of entity", "agents"),
    (r"/lossy-core/src/lib\.rs$", None, "modules"),
    (r"/tcp/mod\.rs$", None, "sans-io"),
    (r"/result\.rs$", None, "conservation"),
    (r"/transport/fectcp/", None, "packet"),
    (r"/tests/golden\.rs$", "tests at three depths", "golden"),
]

# File pattern -> anchor, for a label nobody knows or a bare citation; first match wins.
BY_FILE: List[Tuple[str, str]] = [
    (r"/lossy-core/src/world[^/]*\.rs$", "world"),
    (r"/lossy-core/src/engine\.rs$", "engine"),
    (r"/lossy-core/src/packet\.rs$", "packet"),
    (r"/lossy-core/src/rng\.rs$", "seeds"),
    (r"/lossy-core/src/time\.rs$", "integer-time"),
    (r"/lossy-core/src/closed\.rs$", "closed-enums"),
    (r"/lossy-core/src/(error|units)\.rs$", "config"),
    (r"/lossy-core/src/(result|run|columns|aggregate|trace)\.rs$", "run-result"),
    (r"/lossy-core/src/apps\.rs$", "family-app"),
    (r"/lossy-core/src/capture/", "dependencies"),
    (r"/lossy-core/src/net/queue/", "family-queue"),
    (r"/lossy-core/src/net/pipeline\.rs$", "pipeline"),
    (r"/lossy-core/src/net/p2p\.rs$", "packet-flow"),
    (r"/lossy-core/src/net/", "segments"),
    (r"/lossy-core/src/link/", "family-link-layer"),
    (r"/lossy-core/src/channel/", "family-loss-model"),
    (r"/lossy-core/src/tcp/inference/", "loss-inference"),
    (r"/lossy-core/src/tcp/(congestion|cc)", "family-congestion-control"),
    (r"/lossy-core/src/tcp/(recovery|sack|scoreboard)", "family-loss-recovery"),
    (r"/lossy-core/src/tcp/", "family-transport"),
    (r"/lossy-core/src/transport/", "endpoints"),
    (r"/lossy-core/src/agents/", "family-agent"),
    (r"/lossy-core/src/scenario/", "config"),
    (r"/lossy-core/src/coding/", "dependencies"),
    (r"/lossy-core/tests/golden", "golden"),
    (r"/lossy-core/tests/", "tests"),
    (r"/lossy-py/", "bindings"),
    (r"/python/lossy/sweep/", "sweeps"),
    (r"/python/lossy/papers/", "reproductions"),
    (r"/python/lossy/summary\.py$", "confidence-intervals"),
    (r"/python/", "python"),
    (r"^tests/", "tests"),
    (r"", "architecture"),
]

QUOTED = re.compile(r'DESIGN\.md[ \t]*(?:"(?P<q>[^"\n]*)"|`(?P<b>[^`\n]*)`)')
COLON = re.compile(r"DESIGN\.md(?=:[ \t]*(?P<c>[^)\n]*))")
# `DESIGN.md "` whose label does not close on its line: it goes on on the next one.
OPEN_QUOTE = re.compile(r'DESIGN\.md[ \t]*"[^"\n]*$')
# A comment line's prefix with the spaces after it: `    //! `, `/// `, `# `.
PREFIX = re.compile(r"[ \t]*(?://[/!]?|#)[ \t]*")
# Comment lines that do not continue running text: a list item, a fence, a table row,
# a heading, a quote.
BLOCK = re.compile(r"(?:[-*+] |\d+[.)] |```|\||#|>)")


@dataclass
class Change:
    path: str
    line: int
    label: str  # what the citation said ("" for a bare one)
    anchor: str
    how: str  # "label", "file override", "file"


def norm(label: str) -> str:
    return " ".join(label.lower().strip().strip(".,;:").split())


def anchors_of(doc_text: str) -> List[str]:
    """Explicit anchors (`{#id}`, `{: #id}`) of a Markdown page."""
    return re.findall(r"\{:?[ \t]*#([A-Za-z0-9_-]+)[^}]*\}", doc_text)


def choose(rel: str, label: str) -> Tuple[str, str]:
    """(anchor, how) for a citation of `label` ("" when bare) in file `rel`."""
    path = "/" + rel
    key = norm(label) or None
    for pattern, want, anchor in OVERRIDES:
        if want == key and re.search(pattern, path):
            return anchor, "file override"
    if key is not None:
        if key in LABELS:
            return LABELS[key], "label"
        # The longest known label the citation starts with ("Seeds of the channel").
        known = sorted((k for k in LABELS if key.startswith(k + " ")), key=len, reverse=True)
        if known:
            return LABELS[known[0]], "label"
    for pattern, anchor in BY_FILE:
        if re.search(pattern, path):
            return anchor, "file"
    return "architecture", "file"


def link(anchor: str) -> str:
    return f"{DOC}#{anchor}"


def label_at(line: str, pos: int) -> Tuple[str, int]:
    """The label of the citation at `pos` of `line`, and where the part to replace ends:
    a quoted or backticked label is replaced with `DESIGN.md`; text after a colon stays."""
    m = QUOTED.match(line, pos)
    if m:
        return (m["q"] if m["q"] is not None else m["b"]), m.end()
    m = COLON.match(line, pos)
    if m:
        return m["c"], m.end()
    return "", pos + len("DESIGN.md")


def prefix_of(line: str) -> Optional[str]:
    m = PREFIX.match(line)
    return m.group(0) if m else None


def continues(line: str, prefix: str) -> bool:
    """Whether `line` continues a paragraph of comment lines that start with `prefix`."""
    if prefix_of(line) != prefix:
        return False
    rest = line[len(prefix):]
    return bool(rest.strip()) and not BLOCK.match(rest)


def refill(lines: List[str], i: int) -> int:
    """Re-wraps the comment paragraph from line `i` to its end at WIDTH columns (a
    citation made line `i` too long); the lines before `i` stay as they are. Returns the
    number of lines added."""
    prefix = prefix_of(lines[i])
    if prefix is None:
        return 0  # not a comment (a docstring, code): left long
    j = i + 1
    while j < len(lines) and continues(lines[j], prefix):
        j += 1
    words = " ".join(line[len(prefix):] for line in lines[i:j]).split()
    out: List[str] = []
    cur = ""
    for w in words:
        if cur and len(prefix) + len(cur) + 1 + len(w) > WIDTH:
            out.append(prefix + cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    out.append(prefix + cur)
    lines[i:j] = out
    return len(out) - (j - i)


def rewrite(rel: str, text: str) -> Tuple[str, List[Change]]:
    """`text` with every DESIGN.md citation replaced, and the changes made."""
    changes: List[Change] = []
    lines = text.split("\n")
    i = 0
    shift = 0  # lines added so far (a line's number in the file as it was: i + 1 - shift)
    while i < len(lines):
        line = lines[i]
        if "DESIGN.md" not in line:
            i += 1
            continue
        was = i + 1 - shift
        joined = False
        prefix, nxt = prefix_of(line), lines[i + 1] if i + 1 < len(lines) else ""
        nxt_prefix = prefix_of(nxt)
        if OPEN_QUOTE.search(line) and prefix is not None and nxt_prefix is not None and '"' in nxt:
            # A quoted label wrapped onto the next comment line: join the two lines.
            line = line.rstrip() + " " + nxt[len(nxt_prefix):].strip()
            del lines[i + 1]
            shift -= 1
            joined = True
        was_long = len(lines[i]) > WIDTH
        while "DESIGN.md" in line:
            pos = line.index("DESIGN.md")
            label, end = label_at(line, pos)
            anchor, how = choose(rel, label)
            changes.append(Change(rel, was, norm(label), anchor, how))
            line = line[:pos] + link(anchor) + line[end:]
        lines[i] = line
        if len(line) > WIDTH and (joined or not was_long):
            shift += refill(lines, i)
        i += 1
    return "\n".join(lines), changes



def sources(root: Path, roots: Sequence[str]) -> Iterator[Path]:
    me = Path(__file__).resolve()
    for r in roots:
        base = root / r
        if base.is_file():
            yield base
            continue
        for p in sorted(base.rglob("*")):
            if p.suffix in SUFFIXES and p.is_file() and p.resolve() != me and "target" not in p.parts:
                yield p


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="*", default=list(DEFAULT_ROOTS), help="directories or files, relative to the repository (default: crates python tests)")
    ap.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this script's)")
    ap.add_argument("--dry-run", "-n", action="store_true", help="print what would change; write nothing")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if any DESIGN.md citation is left")
    args = ap.parse_args(argv)
    root: Path = args.root.resolve()
    anchors = set(anchors_of((root / DOC).read_text(encoding="utf-8")))
    plans: List[Tuple[Path, str, List[Change]]] = []
    for path in sources(root, args.roots):
        text = path.read_text(encoding="utf-8")
        if "DESIGN.md" not in text or LEAVE in text:
            continue
        rel = path.relative_to(root).as_posix()
        new, changes = rewrite(rel, text)
        plans.append((path, new, changes))
    every = [c for _, _, cs in plans for c in cs]
    for c in every:
        print(f"{c.path}:{c.line}: {c.label or '(bare)'!r} -> {link(c.anchor)} (by {c.how})")
    missing = sorted({c.anchor for c in every} - anchors)
    if missing:
        print(f"error: {DOC} has no anchor {', '.join('#' + a for a in missing)}; add it or fix the mapping; nothing written", file=sys.stderr)
        return 2
    print(f"{len(every)} citation(s) of DESIGN.md in {len(plans)} file(s)", file=sys.stderr)
    if args.check:
        return 1 if every else 0
    if not args.dry_run:
        for path, new, _ in plans:
            path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
