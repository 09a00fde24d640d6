"""Benchmark: a vendor KYC document of 10, 25 and 50 MB through the real endpoint, to disk and to an S3 server.

    .venv/bin/python bench/vendor_kyc_upload.py                  # 10, 25, 50 MB, 3 runs each
    .venv/bin/python bench/vendor_kyc_upload.py --sizes 50 --runs 5

``POST /api/v1/admin/vendors/:id/kyc/upload`` as a client calls it: a staff bearer token, multipart/form-data,
the project's settings, URLs, authentication, rate limiting, size cap, content checks, storage write, row,
status move and audit entry. Processes, so each one's memory is its own:

  server  this script with --serve: the project's WSGI application behind wsgiref (one request at a time, like
          ``manage.py runserver``), on a SQLite database of its own, a fresh process for every sample, warmed
          up by a 1 MB upload;
  s3      moto's server (a real S3 API over HTTP on a loopback port); the project's own S3 settings
          (AWS_S3_TRANSFER_CONFIG: 5 MB parts, 2 in memory);
  client  this script: streams each body from a file on disk and reads the server's peak RSS (VmHWM, reset
          through /proc/PID/clear_refs before each request).

Rows: ``endpoint`` is the upload; ``drain`` (the baseline, in the same server) reads the same request body and
throws it away: what HTTP and the socket cost before any parsing. Growth = peak RSS during the request - RSS
before it; throughput = file size / request time; medians of the runs. Target: growth under 20 MB for 50 MB.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from uploads import MB, free_port, make_pdf, post_multipart, wait_for  # noqa: E402 - the sibling benchmark

BUCKET = "bench-vendor-kyc"
STORAGES = ("disk", "s3")
MODES = ("endpoint", "drain")


def _environment(workdir: Path, storage: str, s3_url: str) -> dict[str, str]:
    env = {
        **os.environ,
        "ENVIRONMENT": "development",
        "SECRET_KEY": "bench-only-secret-key-not-for-production-use-0123456789",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "MEDIA_ROOT": str(workdir / "media"),
        "LOG_LEVEL": "WARNING",
        "RATE_LIMIT_STANDARD": "100000/m",
        "ACCESS_TOKEN_MINUTES": "600",
        "AWS_ACCESS_KEY_ID": "bench",
        "AWS_SECRET_ACCESS_KEY": "bench",
        "DJANGO_SETTINGS_MODULE": "backoffice.settings",
        "PYTHONWARNINGS": "ignore::UserWarning",  # WhiteNoise's "no staticfiles directory": not ours to measure
    }
    env.pop("REDIS_URL", None)
    if storage == "s3":
        env.update(AWS_STORAGE_BUCKET_NAME=BUCKET, AWS_S3_ENDPOINT_URL=s3_url, AWS_S3_REGION_NAME="us-east-1")
    return env


# ---------------------------------------------------------------- server side


def _drain(request):
    from django.http import JsonResponse

    stream, read = request, 0
    while chunk := stream.read(64 * 1024):
        read += len(chunk)
    return JsonResponse({"read": read})


def serve(port: int) -> None:
    import django
    from django.conf import settings

    django.setup()
    settings.ROOT_URLCONF = __name__
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    from django.core.wsgi import get_wsgi_application
    from django.urls import include, path
    from django.views.decorators.csrf import csrf_exempt

    global urlpatterns
    urlpatterns = [path("bench/drain", csrf_exempt(_drain)), path("", include("backoffice.urls"))]

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    with make_server("127.0.0.1", port, get_wsgi_application(), handler_class=Quiet) as server:
        server.serve_forever()


urlpatterns = []


def prepare() -> None:
    """In a migrated database: a compliance officer's token and a vendor, printed as JSON for the client."""
    import django

    django.setup()
    from backoffice.auth import tokens
    from backoffice.services import staff_upsert
    from vendors.models import Vendor

    staff, _ = staff_upsert(email="bench@vikela.bench", password="Bench-Passw0rd!x", role="compliance_officer")
    vendor, _ = Vendor.objects.get_or_create(
        email="bench@vendors.bench", defaults={"business_name": "Bench Traders", "phone_number": "+26879999999"}
    )
    pair = tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk)
    print(json.dumps({"token": pair.access, "vendor": str(vendor.pk)}))


# ---------------------------------------------------------------- client side


def _setup(storage: str, s3_url: str) -> tuple[Path, dict, dict]:
    workdir = Path(tempfile.mkdtemp(prefix=f"bench-vendor-kyc-{storage}-"))
    env = _environment(workdir, storage, s3_url)
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v0"], env=env, check=True, cwd=ROOT)
    out = subprocess.run([sys.executable, __file__, "--prepare"], env=env, check=True, capture_output=True, cwd=ROOT)
    return workdir, env, json.loads(out.stdout.decode().strip().splitlines()[-1])


def _sample(env: dict, who: dict, mode: str, path: Path, warm_up: Path) -> tuple[float, float]:
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)], env=env, cwd=ROOT)
    url = f"/api/v1/admin/vendors/{who['vendor']}/kyc/upload" if mode == "endpoint" else "/bench/drain"
    headers = {"Authorization": f"Bearer {who['token']}"}
    try:
        wait_for(port, 60)
        # imports, database and storage connections, the first request's work
        post_multipart(port, url, warm_up, server.pid, fields={"documentKey": "other"}, headers=headers)
        seconds, growth, status, payload = post_multipart(
            port, url, path, server.pid, fields={"documentKey": "bankStatement"}, headers=headers
        )
        if status not in (200, 201):
            raise SystemExit(f"{mode}: HTTP {status} {payload[:300]!r}")
        return seconds, growth
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10,25,50", help="file sizes in MB, comma-separated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    if args.prepare:
        prepare()
        return

    import boto3

    s3_port = free_port()
    s3_url = f"http://127.0.0.1:{s3_port}"
    moto = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(s3_port)],
        env={**os.environ, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    files = Path(tempfile.mkdtemp(prefix="bench-vendor-kyc-files-"))
    workdirs = []
    try:
        wait_for(s3_port)
        boto3.client(
            "s3", endpoint_url=s3_url, region_name="us-east-1", aws_access_key_id="bench", aws_secret_access_key="bench"
        ).create_bucket(Bucket=BUCKET)
        warm_up = files / "warm-up.pdf"
        make_pdf(warm_up, MB)
        setups = {}
        for storage in STORAGES:
            workdir, env, who = _setup(storage, s3_url)
            workdirs.append(workdir)
            setups[storage] = (env, who)
        print(f"{'size':>6} {'storage':>7} {'mode':>8} {'MB/s':>8} {'growth MB':>10} {'growth/size':>12}")
        for size in [int(s) for s in args.sizes.split(",")]:
            path = files / f"{size}.pdf"
            make_pdf(path, size * MB)
            for storage in STORAGES:
                env, who = setups[storage]
                rows = {}
                for mode in MODES:
                    samples = [_sample(env, who, mode, path, warm_up) for _ in range(args.runs)]
                    seconds = statistics.median(s for s, _ in samples)
                    growth = statistics.median(g for _, g in samples)
                    rows[mode] = (seconds, growth)
                    print(
                        f"{size:>4}MB {storage:>7} {mode:>8} {size / seconds:>8.1f} {growth / MB:>10.1f}"
                        f" {growth / (size * MB):>12.2f}",
                        flush=True,
                    )
                (up_s, up_g), (drain_s, drain_g) = rows["endpoint"], rows["drain"]
                print(
                    f"{'':>6} {'':>7} ratio    time endpoint/drain {up_s / drain_s:.2f}, "
                    f"growth endpoint-drain {(up_g - drain_g) / MB:.1f} MB",
                    flush=True,
                )
            path.unlink()
    finally:
        moto.terminate()
        moto.wait(10)
        shutil.rmtree(files, ignore_errors=True)
        for workdir in workdirs:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
