# `make demo` and `make test` work on a fresh machine with python3 (3.9+), pip and cargo:
# they make .venv, build the Rust core in release mode into it, and run.
# A re-run rebuilds only when a Rust source, Cargo file or pyproject.toml changed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PIP_NO_INPUT := 1
export PIP_PROGRESS_BAR := off
export PIP_QUIET := 1
# maturin develop finds the environment through VIRTUAL_ENV.
export VIRTUAL_ENV := $(CURDIR)/$(VENV)

RUST_INPUTS := Cargo.toml Cargo.lock $(shell find crates \( -name '*.rs' -o -name Cargo.toml \) -not -path '*/target/*' 2>/dev/null)
DEPS  := $(VENV)/.lossy-deps
BUILT := $(VENV)/.lossy-built

.PHONY: build demo test test-scale cargo-test pytest typecheck docs docs-serve bench clean

build: $(BUILT)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The build tool itself; the package's own dependencies come with `maturin develop`.
$(DEPS): | $(BIN)/python
	$(BIN)/python -m pip install -q 'maturin>=1.9.4,<2'
	@touch $@

# Editable install: Python files are used in place, the compiled core is rebuilt here.
# Cargo's own progress shows (Compiling ...): the first build takes about 5 minutes on
# 2 cores, later ones only recompile what changed.
$(BUILT): $(DEPS) $(RUST_INPUTS) pyproject.toml
	@echo "make: building the Rust core in release mode and installing lossy into $(VENV)" \
	      "(the first time: about 5 minutes on 2 cores; then seconds)"
	$(BIN)/maturin develop --release --extras test,docs
	@touch $@

# The first reproduction: Reno and NewReno against the Mathis and PFTK models, and
# Reno with and without ELN on a wireless last hop; figures and report.md in
# results/reproduce-validation/ (stored runs are reused on a second call).
demo: $(BUILT)
	$(BIN)/lossy reproduce validation --quick

# pytest last: its summary line closes the output. The tests that need every
# reproduction's quick run read the one the site was built from (LOSSY_DOCS_RESULTS,
# inherited by the prerequisites) instead of making their own.
test: export LOSSY_DOCS_RESULTS := $(CURDIR)/$(DOCS_RESULTS)
test: $(BUILT) cargo-test typecheck docs pytest

cargo-test:
	cargo test --workspace --quiet

pytest: $(BUILT)
	$(BIN)/python -m pytest tests/python -q -m "not scale"

# The tests at full scale that do not fit make test's budget (a quick run never
# contradicts the full one, for the reproductions whose full scale takes minutes).
test-scale: $(BUILT)
	$(BIN)/python -m pytest tests/python -q -m scale

# The .pyi stub must match the compiled module, and the package must type-check.
typecheck: $(BUILT)
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
DOCS_RESULTS := build/reproductions
DOCS_SCALE ?= quick
DOCS_FLAGS := $(if $(filter full,$(DOCS_SCALE)),,--quick)
docs: $(BUILT)
	@mkdir -p $(DOCS_RESULTS)
	@echo "make docs: lossy reproduce all $(DOCS_FLAGS) --out $(DOCS_RESULTS) (log: $(DOCS_RESULTS).log)"
	@$(BIN)/lossy reproduce all $(DOCS_FLAGS) --out $(DOCS_RESULTS) > $(DOCS_RESULTS).log 2>&1 \
	  || { status=$$?; tail -n 5 $(DOCS_RESULTS).log; [ $$status -eq 1 ]; }
	LOSSY_DOCS_RESULTS=$(CURDIR)/$(DOCS_RESULTS) $(BIN)/mkdocs build --strict --quiet

docs-serve: $(BUILT)
	$(BIN)/mkdocs serve --strict --dev-addr 127.0.0.1:8000

bench: $(BUILT)
	$(BIN)/lossy bench

clean:
	rm -rf $(VENV) target site python/lossy/_core*.so
