"""A FECTCP run with the measured overhead model gives the same result, bit for bit,
whether its table was measured (no cache, an empty one) or read from the disk cache, and
a damaged cache file is measured again and rewritten (issue 28; the cache itself is
tested in crates/lossy-core/src/coding/rateless/overhead_cache.rs). Each run is a fresh
process, as the process-wide cache would answer a second run in this one."""

import json
import os
import subprocess
import sys

import pytest

# Botoș's path with the LT code, whose measured excesses vary from trial to trial (a
# RaptorQ table at this K is nearly all zeros): a table read back wrong would show.
PROBE = """
import json, lossy
r = lossy.run("botos", seed=2, overrides={"links.2.loss.p": 0.1, "flows.0.fectcp": {"code": "lt"},
                                          "flows.0.app.size": "300 kB"})
print(json.dumps(r.comparable_summary(), sort_keys=True))
"""


def run_with_cache(cache: str) -> dict:
    env = {**os.environ, "LOSSY_CACHE_DIR": cache}
    proc = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.slow
def test_a_cached_model_gives_the_measured_result_and_a_damaged_file_is_rewritten(tmp_path):
    measured = run_with_cache("off")
    assert measured["flows.0.fectcp_symbols_at_decode"] > 0  # the model was used

    cold = run_with_cache(str(tmp_path))
    files = list((tmp_path / "rateless-overhead").iterdir())
    assert [f.name.split("-k")[0] for f in files] == ["lt"], files
    text = files[0].read_text()
    warm = run_with_cache(str(tmp_path))
    assert measured == cold == warm

    files[0].write_text(text[: len(text) // 2])  # truncated: not trusted, measured again
    assert run_with_cache(str(tmp_path)) == measured
    assert files[0].read_text() == text
