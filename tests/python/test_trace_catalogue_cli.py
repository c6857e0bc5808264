"""`lossy traces list | info | fetch` as a user runs them (a `lossy` process, slow):
against the test mirror, into a cache folder of the test's own."""

import json

import pytest

TMOBILE = "mahimahi:TMobile-LTE-short.down"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LOSSY_CACHE_DIR", str(tmp_path / "cache"))  # the lossy process inherits it
    return tmp_path / "cache" / "traces"


def test_list_shows_every_collection_and_what_is_cached(cli, trace_mirror, cache):
    before = cli("traces", "list")
    assert before.returncode == 0, before.stderr
    for heading in ("mahimahi: ", "pantheon: ", "lumos5g: "):
        assert any(line.startswith(heading) for line in before.stdout.splitlines())
    row = next(line for line in before.stdout.splitlines() if line.split()[:1] == [TMOBILE])
    assert row.split()[1:3] == ["mahimahi", "GPL-3+"] and row.endswith("no")
    assert f"cache: {cache}" in before.stdout and f"the mirror {trace_mirror}" in before.stdout
    assert cli("traces", "fetch", TMOBILE).returncode == 0
    rows = json.loads(cli("traces", "list", "mahimahi", "--json").stdout)
    assert len(rows) == 11 and {r["name"]: r["cached"] for r in rows}[TMOBILE] is True


def test_info_prints_the_issue_s_capacity(cli, trace_mirror, cache):
    done = cli("traces", "info", TMOBILE)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "duration 139.986 s" in text and "opportunities 194,846" in text
    assert "mean 16.70 Mbit/s" in text and "outage 0 s" in text
    assert "p5 4.12, median 13.87, p95 36.51" in text
    lumos = json.loads(cli("traces", "info", "lumos5g:5g_trace_100_walking", "--json").stdout)
    assert (lumos["samples"], lumos["outage_s"], lumos["mean_mbps"]) == (800, 17, pytest.approx(498.55))


def test_fetch_a_collection_from_the_mirror_then_again_from_the_cache(cli, trace_mirror, cache):
    first = cli("traces", "fetch", "pantheon")
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("copied from") == 14 and "without it, the same command downloads" in first.stdout
    assert len(list((cache / "pantheon").iterdir())) == 14
    again = cli("traces", "fetch", "pantheon:12mbps.trace")
    assert "cached, SHA-256 checked" in again.stdout


def test_fetch_without_the_file_in_the_mirror_says_what_would_fetch_it(cli, cache, tmp_path, monkeypatch):
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("LOSSY_TRACE_MIRROR", str(tmp_path / "empty"))
    done = cli("traces", "fetch", TMOBILE, "pantheon:12mbps.trace")
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith("lossy: ") for line in lines)
    assert f"`lossy traces fetch {TMOBILE}`" in lines[0] and "raw.githubusercontent.com" in lines[0]
