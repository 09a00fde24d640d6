# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# What serving needs (requirements.txt), and the development tools besides (requirements-dev.txt, which
# includes it): `make run` installs the first only, `make test` and the rest of the tooling the second.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
TESSERACT_NOTE := command -v tesseract >/dev/null 2>&1 || echo "note: tesseract is not installed (apt-get install tesseract-ocr); identity verification reads cards with RapidOCR instead (slower)"
# `make run` shows the product as a bank runs it (the environment overrides each): maker-checker on, a
# wallet credit over SZL 5,000 waiting for a second person (docs/kyc.md), and a goAML reporting-entity id,
# a stand-in for the one the FIU gives a deployment, without which no SAR can be submitted (docs/sars.md).
# Rule changes too: a change to a live rule waits for a second person (RULE_FOUR_EYES, docs/aml-rules.md).
RUN_ENV = CREDIT_APPROVAL_THRESHOLD=$${CREDIT_APPROVAL_THRESHOLD:-5000} GOAML_RENTITY_ID=$${GOAML_RENTITY_ID:-1001} \
	RULE_FOUR_EYES=$${RULE_FOUR_EYES:-true}

.PHONY: install install-dev run serve test test-fast lint format migrate demo bench bench-kyc bench-sars bench-aml bench-aml-backtest bench-uploads bench-vendor-kyc bench-peps bench-verification clean

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

migrate: install .secret_key
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

format: install-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# check --deploy runs with the settings a deployment sets (GOAML_RENTITY_ID: the id the FIU gave us; 1 stands in).
test: install-dev lint
	ENVIRONMENT=test SECRET_KEY=test-only-secret-key-not-for-production-use-0123456789 \
		$(PY) manage.py check
	ENVIRONMENT=test SECRET_KEY=test-only-secret-key-not-for-production-use-0123456789 \
		$(PY) manage.py makemigrations --check --dry-run
	ENVIRONMENT=production DEBUG=false SECRET_KEY=$$($(PY) -c "import secrets; print(secrets.token_urlsafe(50))") \
		SECURE_HTTPS=true GOAML_RENTITY_ID=$${GOAML_RENTITY_ID:-1} \
		$(PY) manage.py check --deploy --fail-level WARNING
	ENVIRONMENT=test SECRET_KEY=test-only-secret-key-not-for-production-use-0123456789 \
		$(PY) -m pytest $(PYTEST_ARGS)

# The inner loop: lint and the tests that take seconds, not the slow, browser and outage ones (make test runs all).
test-fast: install-dev lint
	ENVIRONMENT=test SECRET_KEY=test-only-secret-key-not-for-production-use-0123456789 \
		$(PY) -m pytest -m "not slow and not browser and not outage" $(PYTEST_ARGS)

# Benchmarks load large data sets into their own PostgreSQL databases; run them on purpose, not in CI.
bench: bench-kyc bench-sars bench-aml bench-aml-backtest bench-peps bench-verification

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
	$(PY) bench/pep_screening.py $(BENCH_ARGS)

# The local verification engine (dlib, tesseract): stage times, OCR accuracy on rendered cards, 1:N face search.
bench-verification: install-dev
	$(PY) bench/verification_engine.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
