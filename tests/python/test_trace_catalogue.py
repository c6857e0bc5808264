"""The trace catalogue (issue 30): its entries, fetching into a cache from a local mirror
(never the network here), the checksum refusal, the missing-file message, close names,
and the Python API `lossy.trace_catalogue.path`. The command line is in
test_trace_catalogue_cli.py, scenario references in test_trace_references.py."""

import hashlib
import re
import shutil
from pathlib import Path

import pytest

from lossy import trace_catalogue as tc
from lossy.trace_catalogue import registry, store

TMOBILE = "mahimahi:TMobile-LTE-short.down"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of the test's own."""
    monkeypatch.setenv("LOSSY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "traces"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_file_mirror(root: Path, source: Path, e, data: bytes = None) -> Path:
    """A mirror holding only `e`'s file: a copy of `source`'s, or `data`."""
    target = root / e.mirror_path
    target.parent.mkdir(parents=True, exist_ok=True)
    if data is None:
        shutil.copyfile(source / e.mirror_path, target)
    else:
        target.write_bytes(data)
    return root


def test_every_entry_is_pinned_checksummed_and_named_by_collection():
    entries = tc.entries()
    assert len({e.name for e in entries}) == len(entries)
    counts = {c: sum(e.collection == c for e in entries) for c in tc.COLLECTIONS}
    # The mirror's README: 11 Mahimahi traces of 14 (3 larger than 4 MiB are not there),
    # 14 Pantheon traces, 296 Lumos5G logs.
    assert counts == {"mahimahi": 11, "pantheon": 14, "lumos5g": 296}
    for e in entries:
        assert e.name == f"{e.collection}:{Path(e.mirror_path).name}"
        assert e.format == ("rate_schedule" if e.collection == "lumos5g" else "mahimahi")
        assert re.fullmatch(r"https://raw\.githubusercontent\.com/[\w.-]+/[\w.-]+/[0-9a-f]{40}/\S+", e.url), e.url
        assert e.url.endswith("/" + e.mirror_path.split("/", 1)[1]), e.url
        assert re.fullmatch(r"[0-9a-f]{64}", e.sha256)
    assert {e.licence for e in entries if e.collection == "mahimahi"} == {"GPL-3+"}


def test_every_entry_matches_the_mirror(trace_mirror):
    for e in tc.entries():
        file = trace_mirror / e.mirror_path
        assert file.stat().st_size == e.bytes, e.name
        assert sha256(file) == e.sha256, e.name


def test_path_copies_from_the_mirror_into_the_cache_once(trace_mirror, cache):
    e = tc.entry(TMOBILE)
    assert not tc.is_cached(e)
    got = tc.path(TMOBILE)
    assert got == cache / "mahimahi" / "TMobile-LTE-short.down"
    assert sha256(got) == e.sha256 and tc.is_cached(e)
    stamp = got.stat().st_mtime_ns
    assert tc.path(TMOBILE) == got and got.stat().st_mtime_ns == stamp  # not copied again


def test_a_damaged_cached_file_is_fetched_again(trace_mirror, cache):
    got = tc.path(TMOBILE)
    got.write_text("0\n1\n")
    assert sha256(tc.path(TMOBILE)) == tc.entry(TMOBILE).sha256


def test_a_wrong_checksum_is_refused_naming_both_sums_and_not_cached(trace_mirror, cache, tmp_path, monkeypatch):
    e = tc.entry(TMOBILE)
    good = (trace_mirror / e.mirror_path).read_bytes()
    bad = good[:-2] + b"9\n"
    mirror = one_file_mirror(tmp_path / "mirror", trace_mirror, e, bad)
    monkeypatch.setenv("LOSSY_TRACE_MIRROR", str(mirror))
    with pytest.raises(tc.ChecksumMismatch) as err:
        tc.path(TMOBILE)
    message = str(err.value)
    assert hashlib.sha256(bad).hexdigest() in message and e.sha256 in message
    assert message.startswith(TMOBILE) and "\n" not in message
    assert not tc.is_cached(e) and not [p for p in cache.rglob("*") if p.is_file()]  # no half file left either


def test_a_file_the_mirror_lacks_names_the_command_that_fetches_it(cache, tmp_path, monkeypatch):
    (tmp_path / "empty-mirror").mkdir()
    monkeypatch.setenv("LOSSY_TRACE_MIRROR", str(tmp_path / "empty-mirror"))
    with pytest.raises(tc.TraceUnavailable) as err:
        tc.path(TMOBILE)
    message = str(err.value)
    assert f"`lossy traces fetch {TMOBILE}`" in message
    assert "LOSSY_TRACE_MIRROR" in message and tc.entry(TMOBILE).url in message


def test_a_mirror_that_is_not_a_folder_is_named(cache, tmp_path, monkeypatch):
    monkeypatch.setenv("LOSSY_TRACE_MIRROR", str(tmp_path / "nowhere"))
    with pytest.raises(tc.TraceUnavailable, match=f"LOSSY_TRACE_MIRROR={tmp_path / 'nowhere'} is not a folder"):
        tc.path(TMOBILE)


def test_a_cache_folder_that_cannot_be_made_names_the_variable(monkeypatch):
    monkeypatch.setenv("LOSSY_CACHE_DIR", "/proc/lossy-nowhere")
    with pytest.raises(tc.CatalogueError, match="cannot create the cache folder /proc/lossy-nowhere/traces/mahimahi"
                                                ".*set LOSSY_CACHE_DIR to a folder lossy can write"):
        tc.path(TMOBILE)


def test_without_a_mirror_the_file_is_downloaded_with_pooch_and_checked(cache, monkeypatch, tmp_path):
    pooch = pytest.importorskip("pooch")
    monkeypatch.delenv("LOSSY_TRACE_MIRROR", raising=False)
    e = tc.entry("pantheon:12mbps.trace")
    asked = []

    class Downloader:  # stands in for pooch's HTTP downloader: no network in tests
        def __init__(self, **kwargs):
            pass

        def __call__(self, url, output_file, pooch_instance):
            asked.append(url)
            Path(output_file).write_bytes(payload)

    monkeypatch.setattr(pooch, "HTTPDownloader", Downloader)
    payload = b"2\n"  # not the catalogue's "1\n"
    with pytest.raises(tc.ChecksumMismatch, match=hashlib.sha256(payload).hexdigest()):
        tc.path(e.name)
    assert asked == [e.url]
    payload = b"1\n"
    assert tc.path(e.name).read_bytes() == b"1\n"


def test_a_failed_download_names_the_command_that_fetches_it(cache, monkeypatch):
    pooch = pytest.importorskip("pooch")
    monkeypatch.delenv("LOSSY_TRACE_MIRROR", raising=False)

    def unreachable(**kwargs):
        def download(url, output_file, pooch_instance):
            raise ConnectionError("Name or service not known")
        return download

    monkeypatch.setattr(pooch, "HTTPDownloader", unreachable)
    with pytest.raises(tc.TraceUnavailable) as err:
        tc.path(TMOBILE)
    assert f"`lossy traces fetch {TMOBILE}`" in str(err.value)
    assert "ConnectionError: Name or service not known" in str(err.value)


def test_the_cache_folder_follows_lossy_cache_dir_else_pooch_s_user_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("LOSSY_CACHE_DIR", str(tmp_path))
    assert tc.cache_dir() == tmp_path / "traces"
    monkeypatch.setenv("LOSSY_CACHE_DIR", "off")
    with pytest.raises(tc.CatalogueError, match="LOSSY_CACHE_DIR=off"):
        tc.cache_dir()
    pooch = pytest.importorskip("pooch")
    monkeypatch.delenv("LOSSY_CACHE_DIR")
    assert tc.cache_dir() == Path(pooch.os_cache("lossy")) / "traces"


@pytest.mark.parametrize("typed, first", [
    ("mahimahi:TMobile-LTE-shrt.down", TMOBILE),
    ("TMobile-LTE-short.down", TMOBILE),            # without its collection
    ("lumos5g:5g_trace_100_walkin", "lumos5g:5g_trace_100_walking"),
    ("pantheon:12mbps", "pantheon:12mbps.trace"),
])
def test_a_name_not_in_the_catalogue_lists_the_close_ones(typed, first):
    with pytest.raises(tc.UnknownTrace) as err:
        tc.entry(typed)
    message = str(err.value)
    assert f"close names: {first}" in message and "lossy traces list" in message


def test_an_unknown_collection_lists_the_collections():
    with pytest.raises(tc.UnknownTrace, match="the collections are mahimahi, pantheon, lumos5g"):
        tc.entry("cellular:x")


def test_the_package_holds_no_trace_only_metadata():
    # The wheel packs python/lossy whole (pyproject: python-source): no file of it may be
    # one of the catalogue's traces (GPL-3+ or unlicensed), and the registry stays small.
    package = Path(tc.__file__).resolve().parents[1]
    sums = {e.sha256 for e in tc.entries()}
    for file in package.rglob("*"):
        if file.is_file() and file.stat().st_size < 8 << 20:
            assert sha256(file) not in sums, file
    assert registry.REGISTRY.stat().st_size < 200_000
    assert [p.name for p in registry.REGISTRY.parent.iterdir() if p.suffix not in (".py", ".pyc", "")] == ["registry.csv"]


# --- what `lossy traces info` computes (stats.py), on small traces written here -------------

from lossy.trace_catalogue.stats import trace_stats  # noqa: E402


def write(tmp_path, text, name="t"):
    (tmp_path / name).write_text(text)
    return tmp_path / name


def test_one_opportunity_a_millisecond_is_12_mbit_s_in_every_second(tmp_path):
    # traces/README: a file holding "1" is a 12 Mbit/s link (one 1500-byte packet a ms).
    s = trace_stats(write(tmp_path, "1\n"), "mahimahi")
    assert s.duration_s == 0.001 and s.events == 1 and s.bins == 1
    assert s.mean_mbps == pytest.approx(12.0) and s.percentiles_mbps == {5: 12.0, 50: 12.0, 95: 12.0}
    assert s.mean_mbps_1504 == pytest.approx(12.032)


def test_seconds_without_an_opportunity_are_outage(tmp_path):
    # 1000 opportunities in (0, 1] s, none in (1, 2] s, one at 3 s: T = 3 s, three bins.
    s = trace_stats(write(tmp_path, "".join(f"{t}\n" for t in range(1, 1001)) + "3000\n"), "mahimahi")
    assert s.bins == 3 and s.outage_s == 1
    assert s.mean_mbps == pytest.approx(1001 * 12000 / 3 / 1e6)
    assert s.max_mbps == pytest.approx(12.0) and s.percentiles_mbps[50] == pytest.approx(0.012)


def test_a_rate_schedule_is_one_sample_a_second_in_file_order(tmp_path):
    # The first column is not read (Lumos5G's 4G logs start at 0, repeat or skip seconds).
    s = trace_stats(write(tmp_path, "0 10.0\n1\t0.0\n1 20.0\n5 30\n"), "rate_schedule")
    assert (s.duration_s, s.events, s.bins, s.outage_s) == (4.0, 4, 4, 1)
    assert s.mean_mbps == pytest.approx(15.0) and s.max_mbps == 30.0


@pytest.mark.parametrize("fmt, text, says", [
    ("mahimahi", "1\n2\nx\n", ":3: 'x' is not a whole number of milliseconds"),
    ("mahimahi", "1\n\n3\n", ":2: '' is not a whole number"),
    ("mahimahi", "5\n3\n", ":2: the timestamps decrease (5 then 3)"),
    ("mahimahi", "0\n0\n", "the trace lasts 0 ms"),
    ("mahimahi", "", "the trace is empty"),
    ("rate_schedule", "1.0 5\n2.0 -1\n", ":2: the rate -1 is not a non-negative number of Mbit/s"),
    ("rate_schedule", "1.0 5\n2.0\n", ":2: '2.0' is not `<second> <Mbit/s>`"),
])
def test_a_malformed_trace_names_the_file_and_line(tmp_path, fmt, text, says):
    with pytest.raises(tc.CatalogueError) as err:
        trace_stats(write(tmp_path, text), fmt)
    assert str(err.value).startswith(str(tmp_path / "t")) and says in str(err.value)


@pytest.mark.parametrize("name, mean", [(TMOBILE, 16.70), ("mahimahi:Verizon-LTE-short.down", 5.03)])
def test_the_issue_s_capacities(name, mean, trace_mirror, cache):
    # Issue 30: TMobile-LTE-short.down 16.70 Mbit/s, Verizon-LTE-short.down 5.03.
    assert round(trace_stats(tc.path(name), "mahimahi").mean_mbps, 2) == mean
