# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: install run serve test lint format migrate demo bench bench-kyc bench-sars bench-aml bench-uploads bench-vendor-kyc bench-peps bench-verification clean

install: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@command -v tesseract >/dev/null 2>&1 || echo "note: tesseract is not installed (apt-get install tesseract-ocr); identity verification reads cards with RapidOCR instead (slower)"
	touch $(STAMP)

# A random SECRET_KEY made once per checkout (never committed) unless the environment gives one.
.secret_key:
	$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > .secret_key

migrate: install .secret_key
	SECRET_KEY=$${SECRET_KEY:-$$(cat .secret_key)} $(PY) manage.py migrate --noinput

demo: migrate
	SECRET_KEY=$${SECRET_KEY:-$$(cat .secret_key)} $(PY) manage.py seed_demo

run: demo
	SECRET_KEY=$${SECRET_KEY:-$$(cat .secret_key)} $(PY) manage.py collectstatic --noinput -v0
	@echo "Serving on http://$(HOST):$(PORT)  (API http://$(HOST):$(PORT)/api/v1, admin http://$(HOST):$(PORT)/admin/)"
	SECRET_KEY=$${SECRET_KEY:-$$(cat .secret_key)} ./scripts/serve $(HOST) $(PORT)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# check --deploy runs with the settings a deployment sets (GOAML_RENTITY_ID: the id the FIU gave us; 1 stands in).
test: install lint
	ENVIRONMENT=test SECRET_KEY=test-only-secret-key-not-for-production-use-0123456789 \
		$(PY) manage.py check
	ENVIRONMENT=test SECRET_KEY=test-only-secret-key-not-for-production-use-0123456789 \
		$(PY) manage.py makemigrations --check --dry-run
	ENVIRONMENT=production DEBUG=false SECRET_KEY=$$($(PY) -c "import secrets; print(secrets.token_urlsafe(50))") \
		SECURE_HTTPS=true GOAML_RENTITY_ID=$${GOAML_RENTITY_ID:-1} \
		$(PY) manage.py check --deploy --fail-level WARNING
	ENVIRONMENT=test SECRET_KEY=test-only-secret-key-not-for-production-use-0123456789 \
		$(PY) -m pytest $(PYTEST_ARGS)

# Benchmarks load large data sets into their own PostgreSQL databases; run them on purpose, not in CI.
bench: bench-kyc bench-sars bench-aml bench-peps bench-verification

bench-kyc: install
	$(PY) bench/kyc_users.py $(BENCH_ARGS)

bench-sars: install
	$(PY) bench/sars.py $(BENCH_ARGS)

bench-aml: install
	$(PY) bench/aml_engine.py $(BENCH_ARGS)
	$(PY) bench/aml_decisions.py --reuse $(BENCH_ARGS)

# Uploads of 10-50 MB PDFs (peak memory of the server process, throughput), to disk and to a moto S3 server:
# the upload mechanism against a naive view, and the vendor KYC endpoint against draining the same body.
bench-uploads: install
	$(PY) bench/uploads.py $(BENCH_ARGS)

bench-vendor-kyc: install
	$(PY) bench/vendor_kyc_upload.py $(BENCH_ARGS)

bench-peps: install
	$(PY) bench/pep_matcher_quality.py --no-rigour --quiet
	$(PY) bench/pep_screening.py $(BENCH_ARGS)

# The local verification engine (dlib, tesseract): stage times, OCR accuracy on rendered cards, 1:N face search.
bench-verification: install
	$(PY) bench/verification_engine.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
