# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Bytecode caches are written even where the shell asks not to (PYTHONDONTWRITEBYTECODE, set on this machine and in
# CI's image): without them every process compiles the checkout again, and every pytest process rewrites the
# assertions of ~870 test modules (9 s of CPU per worker, per pass); the caches sit in .gitignore'd __pycache__.
unexport PYTHONDONTWRITEBYTECODE
# What serving needs (requirements.txt), and the development tools besides (requirements-dev.txt, which
# includes it): `make run` installs the first only, `make test` and the rest of the tooling the second.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
TESSERACT_NOTE := command -v tesseract >/dev/null 2>&1 || echo "note: tesseract is not installed (apt-get install tesseract-ocr); identity verification reads cards with RapidOCR instead (slower)"
# `make run` shows the product as a bank runs it (the environment overrides each): maker-checker on, a
# wallet credit over SZL 5,000 waiting for a second person (docs/kyc.md), and a goAML reporting-entity id,
# a stand-in for the one the FIU gives a deployment, without which no SAR can be submitted (docs/sars.md).
# Rule changes too: a change to a live rule waits for a second person (RULE_FOUR_EYES, docs/aml-rules.md); a
# vendor is verified only on approved documents (VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS, docs/vendor-kyc.md); releasing
# a held payment over SZL 5,000, a service key made in the admin site and access given to staff there wait for a
# second person (docs/dual-control.md).
# The audit chain's checkpoints are signed with a key made once per checkout (.audit_signing_key, never committed)
# and written daily by beat to .run/audit-checkpoints (docs/audit-chain.md); a deployment keeps both elsewhere.
RUN_ENV = CREDIT_APPROVAL_THRESHOLD=$${CREDIT_APPROVAL_THRESHOLD:-5000} GOAML_RENTITY_ID=$${GOAML_RENTITY_ID:-1001} \
	RULE_FOUR_EYES=$${RULE_FOUR_EYES:-true} HELD_RELEASE_FOUR_EYES_ABOVE=$${HELD_RELEASE_FOUR_EYES_ABOVE:-5000} \
	SERVICE_KEY_FOUR_EYES=$${SERVICE_KEY_FOUR_EYES:-true} STAFF_FOUR_EYES=$${STAFF_FOUR_EYES:-true} \
	VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS=$${VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS:-true} AUDIT_SIGNING_KEY=$${AUDIT_SIGNING_KEY:-$$(cat .audit_signing_key)} \
	AUDIT_CHECKPOINT_DIR=$${AUDIT_CHECKPOINT_DIR:-.run/audit-checkpoints}

.PHONY: install install-dev run serve test test-fast lint format migrate demo bench bench-kyc bench-sars bench-aml bench-aml-backtest bench-uploads bench-vendor-kyc bench-peps bench-sanctions bench-verification bench-audit bench-webhooks clean

install: $(RUN_STAMP)

install-dev: $(DEV_STAMP)

$(RUN_STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@$(TESSERACT_NOTE)
	touch $(RUN_STAMP)

$(DEV_STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@$(TESSERACT_NOTE)
	touch $(RUN_STAMP) $(DEV_STAMP)

# A random SECRET_KEY made once per checkout (never committed) unless the environment gives one.
.secret_key:
	$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > .secret_key

# The audit chain's Ed25519 signing key (base64 of 32 random bytes), made once per checkout like the secret key.
.audit_signing_key:
	$(PYTHON) -c "import base64, os; print(base64.b64encode(os.urandom(32)).decode())" > .audit_signing_key

migrate: install .secret_key .audit_signing_key
	SECRET_KEY=$${SECRET_KEY:-$$(cat .secret_key)} $(RUN_ENV) $(PY) manage.py migrate --noinput

demo: migrate
	SECRET_KEY=$${SECRET_KEY:-$$(cat .secret_key)} $(RUN_ENV) $(PY) manage.py seed_demo

run: demo
	SECRET_KEY=$${SECRET_KEY:-$$(cat .secret_key)} $(RUN_ENV) $(PY) manage.py collectstatic --noinput -v0
	@echo "Serving on http://$(HOST):$(PORT)  (API http://$(HOST):$(PORT)/api/v1, admin http://$(HOST):$(PORT)/admin/)"
	SECRET_KEY=$${SECRET_KEY:-$$(cat .secret_key)} $(RUN_ENV) ./scripts/run $(HOST) $(PORT)

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/python scripts/contract_coverage.py

format: install-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

TEST_ENV := ENVIRONMENT=test SECRET_KEY=test-only-secret-key-not-for-production-use-0123456789
# The tests run in two passes (conftest.py): in parallel, one worker process per core (pytest-xdist; each worker has
# its own test database, test_<name>_gw0 ...), then the few marked serial (a shared broker, fixed-name databases,
# outage deadlines) in their own pass (SERIAL_PARALLEL below). PARALLEL= and SERIAL_PARALLEL= run a pass in one process.
# One worker more than the machine has cores: a browser test spends much of its time waiting for a page to settle
# (each walk of the admin pages waits for the network to be idle on every page), time another worker can use.
# --dist worksteal: a worker that runs out takes queued tests from another, so a long test near the end does not
# leave the others idle.
PARALLEL ?= -n $(shell echo $$(( $$(nproc) + 1 ))) --dist worksteal
# The serial pass in two workers where there are two cores, each file whole in one (conftest.py says why that is safe).
SERIAL_PARALLEL ?= $(shell [ $$(nproc) -ge 2 ] && echo "-n 2 --dist loadfile")
# -rs: every skipped test says why (no chromium, no redis-server, PostgreSQL-only on SQLite: docs/testing.md)
REPORT ?= -rs --durations=15
# One value for both passes of a run: the first leaves the files holding serial tests for the second (conftest.py).
TEST_RUN := $(shell date +%s%N)
# a pass that PYTEST_ARGS leaves empty (a path with no serial test) is not a failure: pytest exits 5
NONE_IS_FINE = || test $$? -eq 5

# check --deploy runs with the settings a deployment sets (GOAML_RENTITY_ID: the id the FIU gave us; 1 stands in).
test: install-dev lint
	ENVIRONMENT=test SECRET_KEY=test-only-secret-key-not-for-production-use-0123456789 \
		$(PY) manage.py check
	ENVIRONMENT=test SECRET_KEY=test-only-secret-key-not-for-production-use-0123456789 \
		$(PY) manage.py makemigrations --check --dry-run
	ENVIRONMENT=production DEBUG=false SECRET_KEY=$$($(PY) -c "import secrets; print(secrets.token_urlsafe(50))") \
		SECURE_HTTPS=true GOAML_RENTITY_ID=$${GOAML_RENTITY_ID:-1} \
		$(PY) manage.py check --deploy --fail-level WARNING
	$(TEST_ENV) VIKELA_TEST_RUN=$(TEST_RUN) $(PY) -m pytest $(PARALLEL) -m "not serial" $(REPORT) $(PYTEST_ARGS) \
		$(NONE_IS_FINE)
	$(TEST_ENV) VIKELA_TEST_RUN=$(TEST_RUN) $(PY) -m pytest $(SERIAL_PARALLEL) -m serial $(REPORT) $(PYTEST_ARGS) \
		$(NONE_IS_FINE)

# The inner loop: lint and the tests that take seconds, not the slow, browser and outage ones (make test runs all).
test-fast: install-dev lint
	$(TEST_ENV) $(PY) -m pytest $(PARALLEL) -m "not slow and not browser and not outage and not serial" \
		$(PYTEST_ARGS) $(NONE_IS_FINE)
	$(TEST_ENV) $(PY) -m pytest -m "serial and not slow and not browser and not outage" $(PYTEST_ARGS) $(NONE_IS_FINE)

# Benchmarks load large data sets into their own PostgreSQL databases; run them on purpose, not in CI.
bench: bench-kyc bench-sars bench-aml bench-aml-backtest bench-peps bench-sanctions bench-verification

bench-kyc: install-dev
	$(PY) bench/kyc_users.py $(BENCH_ARGS)

bench-sars: install-dev
	$(PY) bench/sars.py $(BENCH_ARGS)

bench-aml: install-dev
	$(PY) bench/aml_engine.py $(BENCH_ARGS)
	$(PY) bench/aml_decisions.py --reuse $(BENCH_ARGS)

# Backtest of every catalogue rule over 30 days against the batch scan (reuses bench-aml's ledger when there).
bench-aml-backtest: install-dev
	$(PY) bench/aml_backtest.py --reuse $(BACKTEST_ARGS)

# Uploads of 10-50 MB PDFs (peak memory of the server process, throughput), to disk and to a moto S3 server:
# the upload mechanism against a naive view, and the vendor KYC endpoint against draining the same body.
bench-uploads: install-dev
	$(PY) bench/uploads.py $(BENCH_ARGS)

bench-vendor-kyc: install-dev
	$(PY) bench/vendor_kyc_upload.py $(BENCH_ARGS)

bench-peps: install-dev
	$(PY) bench/pep_matcher_quality.py --no-rigour --quiet
	$(PY) bench/names/evaluation.py
	$(PY) bench/pep_screening.py $(BENCH_ARGS)

# Sanctions: UN + OFAC import, screening against them and a million generated entries, the decision's added
# latency, the re-screening of a million customers after a delta, PEPs through the same index (own database).
bench-sanctions: install-dev
	$(PY) bench/sanctions.py $(BENCH_ARGS)

# The local verification engine (dlib, tesseract): stage times, OCR accuracy on rendered cards, 1:N face search.
bench-verification: install-dev
	$(PY) bench/verification_engine.py $(BENCH_ARGS)

# Webhooks from commit to a local receiver's 2xx with Celery workers (1, 4 and 16 endpoints; one call in five 500).
bench-webhooks: install-dev
	$(PY) bench/webhooks.py $(BENCH_ARGS)

# What the audit hash chain adds to a write (1 and 8 writers) and verify_audit over 1,000,000 entries.
bench-audit: install-dev
	$(PY) bench/audit_chain.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
