"""Packet captures (`lossy run --pcap DIR`) as Wireshark's tshark reads them: every
header field decoded, checksums valid, one record per packet a direction delivered."""

import json
import os
import shutil
import stat
import struct
import subprocess

import pytest

import lossy
from lossy import _core


@pytest.fixture(scope="module")
def tshark():
    """tshark, installed from Debian's package when missing and possible."""
    if shutil.which("tshark") is None and shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-q", "tshark"]
        if subprocess.run(install, env=env, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
            subprocess.run(install, env=env, capture_output=True)
    path = shutil.which("tshark")
    if path is None:
        pytest.skip("tshark is missing and could not be installed (apt-get install tshark needs "
                    "root and Debian's package archive); the pcap files are not checked by a reader")
    return path


FIELDS = ["frame.len", "frame.cap_len", "ip.src", "ip.dst", "ip.len", "ip.dsfield.dscp", "ip.dsfield.ecn",
          "ip.checksum.status", "tcp.srcport", "tcp.dstport", "tcp.seq_raw", "tcp.ack_raw", "tcp.len",
          "tcp.flags.ack", "tcp.flags.ece", "tcp.flags.cwr", "tcp.window_size_value", "tcp.options.sack_le",
          "tcp.options.sack_re", "tcp.options.experimental.exid", "tcp.options.experimental.data",
          "tcp.checksum.status", "udp.length", "udp.checksum.status", "_ws.malformed", "_ws.expert.severity"]
GOOD = "1"  # Wireshark's checksum status: 0 bad, 1 good, 2 unverified


def decode(tshark, path):
    """One dict of FIELDS per record (several occurrences joined by commas)."""
    cmd = [tshark, "-n", "-r", str(path), "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a",
           "-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
           "-o", "tcp.relative_sequence_numbers:FALSE"]
    for f in FIELDS:
        cmd += ["-e", f]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [dict(zip(FIELDS, line.split("\t"))) for line in proc.stdout.splitlines()]


def with_zero_payload(pcap: bytes) -> bytes:
    """The capture with each record's missing payload appended as zeros (captured length =
    original length), so that tshark can verify the TCP and UDP checksums: they are those
    of the real segment with an all-zero payload."""
    out, at = [pcap[:24]], 24
    while at < len(pcap):
        sec, nsec, caplen, origlen = struct.unpack_from("<IIII", pcap, at)
        out += [struct.pack("<IIII", sec, nsec, origlen, origlen), pcap[at + 16:at + 16 + caplen],
                bytes(origlen - caplen)]
        at += 16 + caplen
    return b"".join(out)


def test_every_field_of_hand_made_packets(tshark, tmp_path):
    example = _core.capture_example()
    (tmp_path / "x.pcap").write_bytes(example["pcap"])
    rows = decode(tshark, tmp_path / "x.pcap")
    assert len(rows) == example["packets"] == 6
    data, ce, noted, ack, eln, udp = rows
    for r in rows:
        assert r["ip.checksum.status"] == GOOD and r["ip.dsfield.dscp"] == "0"
        assert r["frame.len"] == r["ip.len"] and int(r["frame.cap_len"]) <= int(r["frame.len"])
    assert (data["ip.src"], data["ip.dst"], data["tcp.srcport"], data["tcp.dstport"]) == \
           ("10.0.0.1", "10.0.0.3", "1024", "5001")
    assert (data["tcp.seq_raw"], data["tcp.len"], data["ip.dsfield.ecn"], data["tcp.flags.ack"]) == \
           ("1000", "1000", "2", "1")
    assert (ce["ip.dsfield.ecn"], ce["tcp.flags.cwr"], ce["tcp.flags.ece"]) == ("3", "1", "0")
    assert noted["tcp.options.experimental.exid"] == "0x4c53"
    assert noted["tcp.options.experimental.data"] == "040500030000004d"  # CORRUPT, fec 5, epoch 3, count 77
    assert (ack["tcp.ack_raw"], ack["tcp.flags.ece"], ack["tcp.window_size_value"]) == ("2000", "1", "65535")
    assert (ack["tcp.options.sack_le"], ack["tcp.options.sack_re"]) == ("5000,3000", "6000,4000")
    assert eln["tcp.options.experimental.data"] == "03000000000003e8"  # ELN|EWLN, offset 1000
    assert (udp["udp.length"], udp["ip.len"], udp["tcp.srcport"]) == ("508", "528", "")
    # Checksums: with the payload restored as zeros, tshark verifies TCP's and UDP's too.
    (tmp_path / "full.pcap").write_bytes(with_zero_payload(example["pcap"]))
    full = decode(tshark, tmp_path / "full.pcap")
    assert [r["tcp.checksum.status"] or r["udp.checksum.status"] for r in full] == [GOOD] * 6
    assert not any(r["_ws.malformed"] for r in rows + full)


def test_a_lossy_last_hop_run(tshark, cli, last_hop, tmp_path):
    old = os.umask(0o022)
    try:
        proc = cli("run", last_hop, "--set", "duration=5s", "--pcap", tmp_path / "pcap", "--json")
    finally:
        os.umask(old)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    delivered = {link["name"]: link["packets_delivered"] for link in doc["links"]}
    files = {f["file"]: f["packets"] for f in doc["capture_files"]}
    names = sorted(os.path.basename(f) for f in files)
    assert names == ["BS-to-MH.pcap", "BS-to-S.pcap", "MH-to-BS.pcap", "S-to-BS.pcap"]
    assert sorted(os.listdir(tmp_path / "pcap")) == names  # no temp files left
    eln_acks = 0
    for file, packets in files.items():
        link = os.path.basename(file)[:-5].replace("-to-", "->")
        assert stat.S_IMODE(os.stat(file).st_mode) == 0o644
        rows = decode(tshark, file)
        assert len(rows) == packets == delivered[link] > 0, link
        assert all(r["ip.checksum.status"] == GOOD and not r["_ws.malformed"] for r in rows)
        data = [r for r in rows if r["tcp.len"] not in ("", "0")]
        assert all(r["tcp.dstport"] == "5001" and int(r["tcp.seq_raw"]) % 1000 == 0 for r in data)
        acks = [r for r in rows if r["tcp.len"] == "0"]
        assert all(r["tcp.srcport"] == "5001" and int(r["tcp.ack_raw"]) % 1000 == 0 for r in acks)
        eln_acks += sum(r["tcp.options.experimental.exid"] == "0x4c53" for r in acks)
        full = decode(tshark, _padded(file, tmp_path))
        assert {r["tcp.checksum.status"] for r in full} == {GOOD}
    assert eln_acks > 0  # the base station's ELN agent marks ACKs on BS->S


def _padded(file, tmp_path):
    out = tmp_path / ("full-" + os.path.basename(file))
    with open(file, "rb") as f:
        out.write_bytes(with_zero_payload(f.read()))
    return out


def test_the_scenario_names_the_directions(last_hop):
    r = lossy.run(last_hop, overrides={"duration": "2 s", "capture.links": ["BS->MH"]})
    assert [c["link"] for c in r.captures] == ["BS->MH"]
    assert r.captures[0]["packets"] == next(l["packets_delivered"] for l in r.links if l["name"] == "BS->MH")
    assert len(lossy.run(last_hop, overrides={"duration": "2 s"}, capture=True).captures) == 4
    assert lossy.run(last_hop, overrides={"duration": "2 s"}).captures == []


def test_an_unwritable_pcap_dir_is_one_line_before_the_run(cli, last_hop, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    proc = cli("run", last_hop, "--set", "duration=1000000 s", "--pcap", blocker, timeout=20)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == f"lossy: --pcap {blocker}: exists and is not a directory; name a directory"


def test_results_are_printed_when_writing_fails(cli, last_hop, tmp_path):
    (tmp_path / "BS-to-MH.pcap").mkdir()  # the file cannot replace a directory
    proc = cli("run", last_hop, "--set", "duration=2s", "--pcap", tmp_path, "--json")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["summary"]["sim_time_s"] == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"lossy: --pcap {tmp_path}: "), proc.stderr
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".")]


def test_a_bad_direction_is_named(cli, last_hop, tmp_path):
    proc = cli("run", last_hop, "--set", 'capture.links=["MH->S"]', "--pcap", tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith('lossy: capture.links.0: "MH->S" is not a link direction; use one of "S->BS"')


# Issue 27: `capture=True` (`lossy run --pcap`) named every link direction before the core
# had validated the links, so a malformed one raised a raw TypeError or KeyError (all 63
# non-clean cases of 32,000 fuzzed scenarios). Each shape must get the core's ScenarioError.
MALFORMED_LINKS = {
    "links-not-a-list": {"links": 5},
    "links-a-table": {"links": {"between": ["S", "BS"]}},
    "link-not-a-table": {"links.0": "S-BS"},
    "between-missing": {"links.0": {"rate": "1 Mbps", "delay": "1 ms"}},
    "between-a-string": {"links.0.between": "S BS"},
    "between-one-name": {"links.0.between": ["S"]},
    "between-three-names": {"links.0.between": ["S", "BS", "MH"]},
    "between-numbers": {"links.0.between": [1, 2]},
}


@pytest.mark.parametrize("overrides", MALFORMED_LINKS.values(), ids=MALFORMED_LINKS.keys())
def test_malformed_links_with_capture_get_the_cores_message(last_hop, overrides):
    with pytest.raises(lossy.ScenarioError, match=r"^links"):
        lossy.run(last_hop, overrides=overrides, capture=True)
