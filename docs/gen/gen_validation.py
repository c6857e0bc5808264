"""The validation page (validation.md): the simulator against ns-3, the throughput models
and each paper, in one table with the band of every row.

Generated rather than written, so that its numbers are not typed in:

- the model rows are the claims of `lossy reproduce validation` with their bands, our
  estimates and verdicts, read from the same outcome.json as the gallery
  (reproduction_results.py), with the run's scale;
- the paper rows follow the registry: a paper whose reproduction is registered in
  lossy.papers shows its verdict counts and its run's scale, one that is not says which
  issue brings it;
- the ns-3 rows are the README's benchmark table (`lossy bench`, both simulators timed in
  one invocation), parsed here: ns-3 is not run when the site is built (its anchor takes
  minutes to build, and speeds are only comparable within one invocation). A README
  without that table fails the build with a message naming README.md.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import md_text as md  # noqa: E402
import reproduction_results as rr  # noqa: E402
import verdict_sections as vs  # noqa: E402

README = rr.ROOT / "README.md"


@dataclass(frozen=True)
class Paper:
    prefix: str  # its reproduction's registered name starts with this
    cite: str
    brings: str
    issue: int


# The five papers of /work/shared/papers/README.md and the issues that bring them.
PAPERS = [
    Paper("chen", "Chen, Hsiao, Hou, Ge, Fitz, *Syndrome*, WCMC 2002",
          "Snoop, Snoop+ELN, Syndrome, reordering, duplicates, hand-offs", 10),
    Paper("chockalingam", "Chockalingam, Zorzi, Tralli, *Wireless TCP performance with link layer FEC/ARQ*",
          "Rayleigh fading per bit, BCH codes, link-layer segmentation and ARQ", 11),
    Paper("miyoshi", "Miyoshi, Sugano, Murata, *adaptive FEC combined with ELN*, IEICE 2002",
          "fixed and adaptive BCH FEC driven by ELN, Gilbert channel, Tables 3 and 4", 12),
    Paper("shagdar", "Shagdar, Shirazi, Zhang, *ECN-based TCP with EWLN*",
          "802.11b MAC with retries, EWLN, ECN with RED, SACK variants", 13),
    Paper("botos", "Botoș, Polgar, Bota, *FECTCP for high packet error rate wireless channels*",
          "a rateless-coded transport, Neyman Type A losses, fairness", 14),
]

# The validation reproduction's claims that hold TCP against an analytic model.
MODEL_WORDS = ("PFTK", "Mathis")


def write() -> None:
    import mkdocs_gen_files

    with mkdocs_gen_files.open("validation.md", "w", encoding="utf-8") as f:
        f.write(page())


def page(root: Optional[Path] = None, readme: Path = README) -> str:
    root = rr.results_root() if root is None else root
    entries = {e.name: e for e in rr.entries(root)}
    bench = bench_rows(readme)
    rows = _ns3_rows(bench) + _model_rows(entries.get("validation"), root) + _paper_rows(entries, root)
    lines = [
        "# Validation", "",
        "What `lossy` is held against, and how far from it it may be: an independent simulator "
        "(ns-3), the analytic throughput models, and each paper it reproduces. One row per check, "
        "with the source's words, the band they allow, our number and the verdict.", "",
        "- The **model** rows are the claims of `lossy reproduce validation`, run when this site was "
        "built (each row says at which scale); their numbers and verdicts come from that run (the same "
        "as the [gallery](gallery/index.md)), not from this page's text.",
        "- The **ns-3** rows come from `lossy bench` as recorded in the README, where both simulators "
        "ran in one invocation on one machine (ns-3 is not run when the site is built).",
        "- The **paper** rows follow the registered reproductions: each paper's claims, bands "
        "and verdicts are on its gallery page.", "",
        "| against | what is compared | the source's words | band | ours | verdict |",
        "| --- | --- | --- | --- | --- | --- |",
        *rows, "",
    ]
    validation = entries.get("validation")
    if validation is None or validation.outcome is None:
        why = validation.missing if validation is not None else "`validation` is not registered"
        lines += [md.admonition("warning", "The model rows have no numbers",
                              f"{why}. " + rr.how_to_produce(root, validation)), ""]
    lines += _ns3_section(bench) + _models_section(validation) + _papers_section()
    return "\n".join(lines)


# --- ns-3 --------------------------------------------------------------------------------


def bench_rows(readme: Path = README) -> List[Dict[str, str]]:
    """The README's benchmark table (the first table under `## Benchmarks`, as `lossy bench
    --markdown` prints it): one dict per scenario with lossy's cells and, where an ns-3
    line (`· ns-3`) follows it, ns-3's. A README without it is an error that names
    README.md: the page is built from it."""
    text = readme.read_text(encoding="utf-8") if readme.is_file() else ""
    m = re.search(r"^## Benchmarks\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    table = [line.strip() for line in (m.group(1) if m else "").splitlines()]
    start = next((i for i, line in enumerate(table) if line.startswith("|")), None)
    need = ["scenario / side", "µs CPU / pkt (min/median/max)", "goodput", "ratio (min/median/max)"]
    if start is None:
        raise RuntimeError(f"validation.md: {readme} has no table under '## Benchmarks' "
                           f"(docs/gen/gen_validation.py reads its ns-3 rows from it)")
    rows = []
    for line in table[start:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    header, body = rows[0], [r for r in rows[2:] if len(r) == len(rows[0])]
    missing = [c for c in need if c not in header]
    if missing:
        raise RuntimeError(f"validation.md: the table under '## Benchmarks' in {readme} has no column "
                           f"{', '.join(map(repr, missing))} (docs/gen/gen_validation.py reads them)")
    out: List[Dict[str, str]] = []
    for cells in (dict(zip(header, r)) for r in body):
        side = cells["scenario / side"]
        if not side.startswith("·"):
            out.append({"scenario": side, "lossy µs / pkt": cells["µs CPU / pkt (min/median/max)"],
                        "goodput": cells["goodput"], "ns-3 µs / pkt": "", "ns-3 goodput": "", "ns-3 ÷ lossy": ""})
        elif side == "· ns-3" and out:
            out[-1].update({"ns-3 µs / pkt": cells["µs CPU / pkt (min/median/max)"],
                            "ns-3 goodput": cells["goodput"], "ns-3 ÷ lossy": cells["ratio (min/median/max)"]})
    return out


NS3_PATH = ("S —10 Mb/s, 10 ms→ BS —{rate}, 5 ms, p = 0.01→ R, NewReno without SACK, "
            "16 MiB buffers, 100 s")


def _ns3_rows(bench: List[Dict[str, str]]) -> List[str]:
    compared = [r for r in bench if r["ns-3 µs / pkt"]]
    if not compared:
        return ["| ns-3 3.44 | speed and goodput on the ns3-compare path | – | – | not in the README's last "
                "benchmark (run `lossy bench` with the ns-3 anchor built) | – |"]
    out = []
    for r in compared:
        rate = r["scenario"].replace("ns3-compare", "").strip(" ,")
        out.append(f"| ns-3 3.44 | speed: CPU µs per delivered packet (min/median/max), {rate} last hop | "
                   f"{r['ns-3 µs / pkt']} | none: a measurement, compared within one invocation | "
                   f"{r['lossy µs / pkt']} (ns-3 ÷ lossy {r['ns-3 ÷ lossy']}) | measured |")
    for r in compared:
        rate = r["scenario"].replace("ns3-compare", "").strip(" ,")
        if "SACK" in rate:  # one run at p = 0.01; the SACK claims above hold the means
            out.append(f"| ns-3 3.44 `--sack=1` | goodput, {rate.replace(' SACK', '').strip(' ,')} last hop, SACK on "
                       f"both sides, one run | {r['ns-3 goodput']} | none for one run: the SACK claims above "
                       f"compare means | {r['goodput']} | measured |")
            continue
        out.append(f"| ns-3 3.44 | goodput, {rate} last hop, NewReno without SACK | {r['ns-3 goodput']} | "
                   f"none: not comparable without SACK ([why](#ns-3)); held to the models instead | "
                   f"{r['goodput']} | differs, explained |")
    return out


def _ns3_section(bench: List[Dict[str, str]]) -> List[str]:
    fast = next((r["goodput"] for r in bench if "100" in r["scenario"] and "ns3" in r["scenario"]),
                "goodput")
    lines = [
        "## ns-3", "",
        "`lossy bench` runs `scenarios/ns3-compare.toml` and ns-3.44 (its [anchor](guide/anchors.md), "
        "`python/lossy/anchors/ns3/bulk.cc`) on the same path: S —10 Mb/s, 10 ms→ BS —2 Mb/s (or 100 Mb/s), 5 ms, "
        "Bernoulli p = 0.01 on data→ R; NewReno with RFC 6582 recovery, SACK off, MSS 1000 B, an ACK "
        "per segment, 16 MiB buffers, initial window 10, minimum RTO 1 s, DropTail queues of 100 "
        "packets; each side sized so that its event loop runs at least 1 s of CPU (ns-3 at 100 Mb/s "
        "without SACK: 20 s simulated), interleaved rounds of fresh processes, both simulators "
        "timed around their event loop only (CPU time per delivered packet). The README's table, "
        "from one invocation on a 2-core machine of this project:", "",
        "| scenario | lossy µs / pkt | goodput | ns-3 µs / pkt | ns-3 goodput | ns-3 ÷ lossy |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    lines += [f"| {r['scenario']} | {r['lossy µs / pkt']} | {r['goodput']} | {r['ns-3 µs / pkt']} | "
              f"{r['ns-3 goodput']} | {r['ns-3 ÷ lossy']} |" for r in bench if r["ns-3 µs / pkt"]]
    lines += [
        "", "What differs, and why:", "",
        "- **Speed.** Compare CPU time per delivered packet, not events: a plain link in `lossy` "
        "needs an event at the end of a frame only when a packet waits behind it, so it executes about "
        "5 events per delivered packet on these paths where ns-3 executes about 15. At 100 Mb/s with "
        "16 MiB buffers ns-3's cost grows faster than linearly in simulated time (its TCP "
        "transmit-buffer scans dominate), so that row is what a user of ns-3 experiences, not its "
        "best. Speeds depend on the machine and its load: only ratios taken within one round of one "
        "invocation are compared, and the table gives their min/median/max.",
        "- **Goodput.** Without SACK, ns-3.44's NewReno keeps more data in flight than its window (its "
        "recovery \"pipe\" is computed from emulated SACK marks) and, with large buffers, falls into "
        "a cycle of timeout, go-back-N and spurious fast retransmit; an RFC 6582 NewReno is not "
        "expected to match it. So the goodputs are not held to each other: `lossy`'s "
        f"{fast} at 100 Mb/s is within 10 % of the Mathis formula for that path (README), and the model "
        "rows above hold `lossy` to the models with stated bands. With `--sack=1` ns-3 behaves "
        "like a textbook TCP, and the two SACK claims above hold `lossy`'s RFC 6675 sender to ns-3 "
        "3.44 `--sack=1` at seven loss rates and two windows (ns-3's numbers: 10 runs per point, "
        "measured once with `tools/ns3_sack_reference.py`). Two rules differ, and `lossy` follows "
        "the RFC in both: ns-3 halves its pipe rather than the FlightSize when recovery starts "
        "(about one segment less ssthresh: ns-3 lower at moderate loss, by more than 10 % with "
        "16 MiB windows at p = 0.02 and 0.05), and it ends an RTO backoff on any ACK of new data "
        "rather than on a new RTT sample (RFC 6298 §5.7: `lossy` waits longer at high loss). The "
        "table and figure are in the validation report's \"SACK against ns-3\" section.",
        "",
    ]
    return lines


# --- the models ----------------------------------------------------------------------------


def _model_rows(e: Optional[rr.Entry], root: Path) -> List[str]:
    if e is None:
        return ["| throughput models | – | – | – | – | `validation` is not registered |"]
    if e.outcome is None:
        return [f"| {_against(c.text, c.source)} | {md.cell(c.text)} | {md.cell(c.words)} | "
                f"{md.cell(c.band.text())} | not run | not run ([how](#the-throughput-models)) |"
                for c in e.repro.claims]
    scale = "quick" if e.outcome.get("quick") else "full scale"
    return [f"| {_against(c['text'], c.get('source', ''))} | {md.cell(c['text'])} | "
            f"{md.cell(c.get('words', ''))} | {md.cell(vs._band(c))} | "
            f"{md.cell(c['ours'])} ({scale}) | {vs._verdict(c)} |"
            for c in e.outcome.get("claims", [])]


def _against(*texts: str) -> str:
    """What a validation claim holds lossy against, from its own words."""
    def says(*words: str) -> bool:
        return any(w in t for t in texts for w in words)
    if says(*MODEL_WORDS):
        return "throughput models"
    if says("ns-3"):
        return "ns-3 3.44 `--sack=1`"
    if says("ELN"):
        return "ELN's purpose"
    return "TCP's loss recovery"


def _models_section(e: Optional[rr.Entry]) -> List[str]:
    lines = [
        "## The throughput models", "",
        "`lossy reproduce validation` runs Reno and NewReno on one lossy hop "
        "(`scenarios/one-hop.toml`: 10 Mb/s, 50 ms each way, W_max 32 segments, an ACK per segment, "
        "minimum RTO 1 s) against the Mathis formula ($C = \\sqrt{3/2}$) and the full PFTK model ($b = 1$, "
        "$T_0$ = 1 s, $W_\\text{max} = 32$), both with the RTT measured in the runs; and Reno with and without ELN "
        "on a wireless last hop (`scenarios/last-hop.toml`), paired by common random numbers. Each "
        "claim's band and where it comes from are with the claim (on its gallery page); none was "
        "tuned to these runs. Its figures, tables and every verdict's reason are on its "
        "[gallery page](gallery/validation.md).", "",
    ]
    if e is not None and e.outcome is not None:
        o = e.outcome
        lines += [f"The numbers above are from `{o.get('command', '')}` ({rr.scale(o)}), "
                  f"{o.get('finished', '')}; {o.get('provenance', '')}"
                  + (" The full scale (more points and replications, longer runs): "
                     "`lossy reproduce validation`." if o.get("quick") else ""), ""]
    else:
        lines += ["The numbers are filled in when the reproduction has run: `make docs` runs it; or "
                  "`lossy reproduce all --quick --out build/reproductions`.", ""]
    return lines


# --- the papers ----------------------------------------------------------------------------


def _paper_rows(entries: Dict[str, rr.Entry], root: Path) -> List[str]:
    rows, claimed = [], {"validation"}
    for paper in PAPERS:
        mine = [e for n, e in entries.items() if n.startswith(paper.prefix)]
        claimed.update(e.name for e in mine)
        if not mine:
            rows.append(f"| {paper.cite} | {paper.brings} | the paper's figures and tables | "
                        f"per claim, stated with each | – | to come: issue {paper.issue} |")
        rows += [_registered_row(e, paper.cite) for e in mine]
    rows += [_registered_row(e, md.cell(e.repro.title)) for n, e in entries.items() if n not in claimed]
    return rows


def _registered_row(e: rr.Entry, against: str) -> str:
    link = f"[`{e.name}`](gallery/{e.name}.md)"
    if e.outcome is None:
        return (f"| {against} | {link}: {len(e.repro.claims)} claims | the paper's figures and tables | "
                f"per claim, on its gallery page | not run | not run (`make docs` runs it) |")
    n = len(e.claims)
    counts = ", ".join(f"{e.count(s)} {s}" for s in rr.STATES)
    verdict = (rr.verdict_cell("reproduced") + " all" if n and e.count("reproduced") == n
               else f"{e.count('reproduced')} of {n} reproduced")
    return (f"| {against} | {link}: {n} claims | the paper's figures and tables | "
            f"per claim, on its gallery page | {counts} ({md.cell(rr.scale(e.outcome))}) | {verdict} |")


def _papers_section() -> List[str]:
    return [
        "## The papers", "",
        "Each paper's reproduction is a package registered in `lossy.papers`; each of its claims "
        "carries the paper's words and the band they allow, read before any run (where a paper was "
        "vague, the reading chosen is written in its report and on its gallery page). When one lands, its row "
        "above fills in from its run and its [gallery](gallery/index.md) page appears; where each "
        "paper stands is on the [Papers](papers/index.md) pages.", "",
    ]
