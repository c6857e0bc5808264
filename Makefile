# `make demo` and `make test` work on a fresh machine with python3 (3.9+), pip and cargo:
# they make .venv, build the Rust core in release mode into it, and run.
# A re-run rebuilds only when a Rust source, Cargo file or pyproject.toml changed.
# `make wheel` packs that build into dist/ as a wheel that installs without cargo.
# Times below were measured on this project's 2-core machine while other builds ran
# (load average 10-16, issue 27): `make demo` on a fresh clone with empty caches took
# 6.2 minutes; a quiet machine is faster.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PIP_NO_INPUT := 1
# pip's and uv's own progress (Downloading ...) is left on: the dependency install was
# the longest silent step (issue 27).
# maturin develop finds the environment through VIRTUAL_ENV.
export VIRTUAL_ENV := $(CURDIR)/$(VENV)

RUST_INPUTS := Cargo.toml Cargo.lock $(shell find crates \( -name '*.rs' -o -name Cargo.toml \) -not -path '*/target/*' 2>/dev/null)
# (Named for what it holds since uv joined maturin: an older .venv installs uv on its next make.)
DEPS  := $(VENV)/.lossy-build-tools
BUILT := $(VENV)/.lossy-built
# The test and docs extras: only `make test`, `make docs` and their kin install them.
TEST_TOOLS := $(VENV)/.lossy-test-tools
DOCS_TOOLS := $(VENV)/.lossy-docs-tools

.PHONY: build wheel demo test test-fast test-scale cargo-test cargo-test-default cargo-test-release pytest \
        notebooks typecheck docs docs-serve bench clean

build: $(BUILT)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The build tool and the installer; the package's own dependencies come with `maturin
# develop`. uv (from PyPI, as maturin) installs them: on the loaded 2-core machine pip
# took 2.5 minutes for what uv does in 10 s, most of it unpacking in silence.
$(DEPS): | $(BIN)/python
	@echo "make: installing maturin, the build tool, and uv, the installer, into $(VENV) (a 29 MB download)"
	$(BIN)/python -m pip install 'maturin>=1.9.4,<2' 'uv>=0.4'
	@touch $@

# Editable install: Python files are used in place, the compiled core is rebuilt here.
# maturin first installs what running needs with uv (its progress shows), then cargo
# builds the core (cargo's progress shows: Compiling ...). No extras: the demo needs none.
$(BUILT): $(DEPS) $(RUST_INPUTS) pyproject.toml
	@echo "make: installing what lossy needs to run into $(VENV): NumPy, SciPy, pandas, pyarrow," \
	      "matplotlib, typer, rich (about 150 MB to download, 470 MB installed: 10 s on a loaded" \
	      "2-core machine), then building the Rust core in release mode (the first time: 5 minutes on" \
	      "a loaded 2-core machine, 16 with another release build beside it; then seconds)"
	$(BIN)/maturin develop --release --uv
	@touch $@

# The requirements of the extras named, one a line, as pyproject.toml lists them (the
# TOML reader is a dependency of lossy, so it is installed by now).
EXTRA_REQUIREMENTS = $(BIN)/python -c 'import sys; t = __import__("tomllib" if sys.version_info >= (3, 11) else "tomli"); \
  x = t.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]; print("\n".join(r for e in sys.argv[1:] for r in x[e]))'

$(TEST_TOOLS): pyproject.toml | $(BUILT)
	@echo "make: installing the test tools into $(VENV): pytest, hypothesis, mypy, Dask, galois, uv" \
	      "(about 320 MB installed; 5 s on a loaded 2-core machine)"
	$(EXTRA_REQUIREMENTS) test > $@.txt
	$(BIN)/uv pip install -r $@.txt
	@touch $@

$(DOCS_TOOLS): pyproject.toml | $(BUILT)
	@echo "make: installing the documentation tools into $(VENV): MkDocs with Material," \
	      "mkdocstrings, Jupyter's kernel (46 MB to download, 380 MB installed: 8 s on a loaded" \
	      "2-core machine)"
	$(EXTRA_REQUIREMENTS) docs > $@.txt
	$(BIN)/uv pip install -r $@.txt
	@touch $@

# An abi3 wheel (one file for CPython 3.9 and later) for this machine's platform, in
# dist/: it installs with pip and runs without cargo. It packs the release build that
# `maturin develop --release` made (same profile, same interpreter), so it does not
# compile again: 2 s. Other platforms: see the README ("Install without cargo").
wheel: $(BUILT)
	$(BIN)/maturin build --release --interpreter $(BIN)/python --out dist
	@ls -l dist/*.whl

# The first reproduction: Reno and NewReno against the Mathis and PFTK models, and
# Reno with and without ELN on a wireless last hop; figures and report.md in
# results/reproduce-validation/ (stored runs are reused on a second call).
demo: $(BUILT)
	@echo "make demo: lossy reproduce validation --quick (on a loaded 2-core machine: 36 s to" \
	      "1.75 minutes the first time, 27 s with its runs stored)"
	$(BIN)/lossy reproduce validation --quick

# The tests, in tiers so that each expensive step runs once (issue 26):
# - the Rust tests, every one once, in one build: the release tier (optimised without
#   link-time optimisation, with debug assertions and overflow checks in our crates)
#   runs the default tier's tests and the ones #[ignore]d with "release tier: ..."
#   (statistical and Monte-Carlo tests too slow unoptimised). Compiling the default
#   tier as well cost make test 3.3 minutes (issue 28); `cargo test` and make
#   test-fast still use it, quick to rebuild after an edit;
# - `make docs`: every reproduction's quick run and the site, once; the tests that read
#   them get them through LOSSY_DOCS_RESULTS and LOSSY_SITE (tests/python/conftest.py;
#   inherited by the prerequisites) instead of making their own;
# - pytest last: its summary line closes the output ("shared runs:" says what it read).
DOCS_RESULTS := build/reproductions
SITE_DIR := site
test: export LOSSY_DOCS_RESULTS := $(CURDIR)/$(DOCS_RESULTS)
test: export LOSSY_SITE := $(CURDIR)/$(SITE_DIR)
test: $(BUILT) $(TEST_TOOLS) $(DOCS_TOOLS) cargo-test typecheck docs pytest

cargo-test:
	cargo test --profile release-tier --workspace --quiet -- --include-ignored

cargo-test-default:
	cargo test --workspace --quiet

RELEASE_TIER := $(shell grep -rl 'ignore = "release tier' crates/lossy-core/tests 2>/dev/null | sed 's|.*/||; s|\.rs$$||')
cargo-test-release:
	cargo test --profile release-tier -p lossy-core --quiet --lib $(RELEASE_TIER:%=--test %) -- --ignored

pytest: $(BUILT) $(TEST_TOOLS) $(DOCS_TOOLS)
	$(BIN)/python -m pytest tests/python -q -n 2 -m "not scale"

# The edit loop, about a minute once the build is current (the Python tests on two
# workers, pytest-xdist): the default tier of the Rust
# tests and the Python tests that read no reproduction and no site and are not marked
# slow (conftest.py marks the ones that read the shared runs `shared`). It leaves out the
# release tier, `make docs`, the type checks and those tests: `make test` runs them all.
test-fast: $(BUILT) $(TEST_TOOLS) $(DOCS_TOOLS) cargo-test-default
	$(BIN)/python -m pytest tests/python -q -n 2 -m "not scale and not slow and not shared"

# The tests at full scale that do not fit make test's budget (a quick run never
# contradicts the full one, for the reproductions whose full scale takes minutes).
test-scale: $(BUILT) $(TEST_TOOLS)
	$(BIN)/python -m pytest tests/python -q -m scale

# Refresh the tutorial's committed outputs (the site shows them as they are): the test
# executes it in a tmp dir and, with this, writes it back.
notebooks: $(BUILT) $(TEST_TOOLS) $(DOCS_TOOLS)
	LOSSY_REFRESH_NOTEBOOKS=1 $(BIN)/python -m pytest tests/python/test_docs_tutorial.py -q

# The .pyi stub must match the compiled module, and the package must type-check.
typecheck: $(BUILT) $(TEST_TOOLS)
	$(BIN)/python -m mypy.stubtest lossy._core
	$(BIN)/python -m mypy --no-error-summary

# The documentation site into site/ (--strict: a broken link or reference fails it).
# First every reproduction into $(DOCS_RESULTS) at DOCS_SCALE, the one run every page
# that shows a verdict reads (LOSSY_DOCS_RESULTS), so no two pages can disagree and
# each says its scale: quick by default, which keeps `make test` within CI's budget;
# `make docs DOCS_SCALE=full` for the full-scale site. Stored runs are reused on a
# second call. A reproduction with a defect (exit status 1) still gets its page, which
# names the defect; any other failure stops the build.
export DISABLE_MKDOCS_2_WARNING := true
export NO_MKDOCS_2_WARNING := 1
DOCS_SCALE ?= quick
DOCS_FLAGS := $(if $(filter full,$(DOCS_SCALE)),,--quick)
docs: $(BUILT) $(DOCS_TOOLS)
	@mkdir -p $(DOCS_RESULTS)
	@echo "make docs: lossy reproduce all $(DOCS_FLAGS) --out $(DOCS_RESULTS) (on a loaded 2-core" \
	      "machine: 7 minutes, about as long again with the runs stored, which judging and drawing" \
	      "take; a line per reproduction and sweep below, the claims in $(DOCS_RESULTS).log)"
	@$(BIN)/lossy reproduce all $(DOCS_FLAGS) --out $(DOCS_RESULTS) > $(DOCS_RESULTS).log \
	  || { status=$$?; tail -n 5 $(DOCS_RESULTS).log; [ $$status -eq 1 ]; }
	@echo "make docs: mkdocs build --strict into $(SITE_DIR)/ (25 s on a loaded 2-core machine)"
	LOSSY_DOCS_RESULTS=$(CURDIR)/$(DOCS_RESULTS) $(BIN)/mkdocs build --strict --quiet --site-dir $(SITE_DIR)

docs-serve: $(BUILT) $(DOCS_TOOLS)
	$(BIN)/mkdocs serve --strict --dev-addr 127.0.0.1:8000

bench: $(BUILT)
	$(BIN)/lossy bench

clean:
	rm -rf $(VENV) target site dist python/lossy/_core*.so
