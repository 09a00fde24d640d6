"""Benchmark: uploads of 10, 25 and 50 MB PDFs through Django's request path, to disk and to an S3 server.

    .venv/bin/python bench/uploads.py                  # 10, 25, 50 MB, 3 runs each
    .venv/bin/python bench/uploads.py --sizes 50 --runs 5

Three processes, so each one's memory is its own:
  server  this script with --serve: Django (the project's settings) behind wsgiref, one request at a time,
          a view that parses the multipart body and stores the file;
  s3      moto's server (a real S3 API over HTTP on a loopback port), holding the objects in its own memory;
  client  this script: streams each multipart body from a file on disk, resets the server's peak-RSS mark
          (/proc/PID/clear_refs) before each request and reads its VmHWM after.

Rows: ``ours`` is ``upload_store(policy=VENDOR_KYC)`` behind ``SizeCapUploadHandler``; ``naive`` is what a
first draft does (``data = upload.read()``, a magic-number test, ``storage.save(name, ContentFile(data))``).
Storages: ``disk`` (FileSystemStorage), ``s3`` (S3Storage with boto3's default transfer settings: 8 MB
parts, up to 10 in memory) and ``s3-bounded`` (5 MB parts, 2 in memory: the AWS_S3_TRANSFER_CONFIG that
docs/uploads.md recommends). Growth = peak RSS during the request - RSS before it, each sample in a fresh
server process warmed up by a 1 MB upload; medians of the runs.
Throughput = file size / request time (client side, the file's deletion excluded).
Target: growth under 20 MB for a 50 MB PDF.
"""

import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MB = 1024 * 1024
BUCKET = "bench-uploads"
STORAGES = ("disk", "s3", "s3-bounded")
MODES = ("ours", "naive")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing listens on port {port}")


# ---------------------------------------------------------------- server side


def _storages(s3_url: str) -> dict:
    from boto3.s3.transfer import TransferConfig
    from django.core.files.storage import FileSystemStorage
    from storages.backends.s3 import S3Storage

    bounded = TransferConfig(multipart_chunksize=5 * MB)
    bounded.max_in_memory_upload_chunks = 2  # s3transfer's knob; boto3's constructor does not take it
    options = {"bucket_name": BUCKET, "endpoint_url": s3_url, "region_name": "us-east-1"}
    return {
        "disk": FileSystemStorage(location=tempfile.mkdtemp(prefix="bench-uploads-")),
        "s3": S3Storage(**options),
        "s3-bounded": S3Storage(transfer_config=bounded, **options),
    }


def serve(port: int, s3_url: str) -> None:
    os.environ.setdefault("ENVIRONMENT", "development")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-not-for-production-use-0123456789")
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    import django
    from django.conf import settings

    django.setup()
    settings.ROOT_URLCONF = __name__
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    from django.core.files.base import ContentFile
    from django.core.wsgi import get_wsgi_application
    from django.http import JsonResponse
    from django.urls import path
    from django.views.decorators.csrf import csrf_exempt

    from backoffice.uploads import VENDOR_KYC, SizeCapUploadHandler, safe_filename, upload_store

    storages = _storages(s3_url)

    @csrf_exempt
    def upload(request, mode, storage):
        target = storages[storage]
        if mode == "ours":
            request.upload_handlers.insert(0, SizeCapUploadHandler(max_bytes=VENDOR_KYC.max_bytes))
        upload = request.FILES["file"]
        name = f"vendors/1/kyc/{uuid.uuid4().hex}_{safe_filename(upload.name)}"
        if mode == "ours":
            name = upload_store(file=upload, name=name, policy=VENDOR_KYC, storage=target).name
        else:
            data = upload.read()
            if not data.startswith(b"%PDF-"):
                return JsonResponse({"error": "not a PDF"}, status=400)
            name = target.save(name, ContentFile(data))
        started = time.perf_counter()
        target.delete(name)
        return JsonResponse({"deleteSeconds": time.perf_counter() - started})

    global urlpatterns
    urlpatterns = [path("upload/<str:mode>/<str:storage>", upload)]

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    with make_server("127.0.0.1", port, get_wsgi_application(), handler_class=Quiet) as server:
        server.serve_forever()


urlpatterns = []


# ---------------------------------------------------------------- client side


def make_pdf(path: Path, size: int) -> None:
    """A valid one-page PDF of exactly ``size`` bytes whose bulk is one stream of random bytes."""
    head = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
    objects = [
        b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n",
        b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n",
        b"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> >>\nendobj\n",
    ]
    fixed = len(head) + sum(map(len, objects)) + 300
    data_length = size - fixed
    stream_head = b"4 0 obj\n<< /Length %d >>\nstream\n" % data_length
    with open(path, "wb") as f:
        offsets = []
        f.write(head)
        for obj in objects:
            offsets.append(f.tell())
            f.write(obj)
        offsets.append(f.tell())
        f.write(stream_head)
        remaining = data_length - len(stream_head)
        while remaining > 0:
            f.write(os.urandom(min(MB, remaining)))
            remaining -= min(MB, remaining)
        f.write(b"\nendstream\nendobj\n")
        table = b"xref\n0 5\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)

        def ending(xref: int) -> bytes:
            return table + b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref

        # the padding is a comment line before the cross-reference table: nothing may follow %%EOF
        pad = size - f.tell() - len(ending(size))
        pad += size - (f.tell() + max(pad, 0) + len(ending(f.tell() + max(pad, 0))))
        if pad >= 2:
            f.write(b"%" * (pad - 1) + b"\n")
        f.write(ending(f.tell()))


def status_of(pid: int) -> dict[str, int]:
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                key, value = line.split(":")
                values[key] = int(value.split()[0]) * 1024
    return values


def post_multipart(
    port: int, url: str, path: Path, server_pid: int, *, fields: dict | None = None, headers: dict | None = None
) -> tuple[float, float, int, bytes]:
    """Stream ``path`` as the multipart field ``file`` (plus ``fields``) to ``url`` on the server.

    Returns (seconds, peak RSS growth of ``server_pid`` in bytes, HTTP status, body). The body is read from
    disk in 256 KB chunks, so the client never holds the file either.
    """
    boundary = uuid.uuid4().hex
    form = "".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
        for name, value in (fields or {}).items()
    )
    preamble = (
        f'{form}--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="statement.pdf"\r\n'
        "Content-Type: application/pdf\r\n\r\n"
    ).encode()
    epilogue = f"\r\n--{boundary}--\r\n".encode()
    length = len(preamble) + path.stat().st_size + len(epilogue)

    def body():
        yield preamble
        with open(path, "rb") as f:
            while chunk := f.read(256 * 1024):
                yield chunk
        yield epilogue

    with open(f"/proc/{server_pid}/clear_refs", "w") as f:
        f.write("5")  # reset the peak-RSS mark to the current RSS
    before = status_of(server_pid)["VmRSS"]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.perf_counter()
    connection.request(
        "POST",
        url,
        body=body(),
        headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Content-Length": str(length),
            **(headers or {}),
        },
    )
    response = connection.getresponse()
    payload = response.read()
    elapsed = time.perf_counter() - started
    connection.close()
    return elapsed, status_of(server_pid)["VmHWM"] - before, response.status, payload


def _post(port: int, mode: str, storage: str, path: Path, server_pid: int) -> tuple[float, float]:
    """One upload to the bench view; (seconds, peak RSS growth in bytes) of the server process."""
    elapsed, growth, status, payload = post_multipart(port, f"/upload/{mode}/{storage}", path, server_pid)
    if status != 200:
        raise SystemExit(f"{mode}/{storage}: HTTP {status} {payload[:300]!r}")
    return elapsed - json.loads(payload)["deleteSeconds"], growth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10,25,50", help="file sizes in MB, comma-separated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--s3", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.s3)
        return

    import boto3

    s3_port = free_port()
    s3_url = f"http://127.0.0.1:{s3_port}"
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench"}
    moto = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(s3_port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workdir = Path(tempfile.mkdtemp(prefix="bench-uploads-files-"))

    def sample(mode: str, storage: str, path: Path) -> tuple[float, float]:
        # A fresh server per sample: memory freed by an earlier request stays in the process (glibc keeps
        # it), and would hide the next request's growth.
        port = free_port()
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--s3", s3_url], env=env)
        try:
            wait_for(port)
            _post(port, mode, storage, warm_up, server.pid)  # imports, connections, first-request work
            return _post(port, mode, storage, path, server.pid)
        finally:
            server.terminate()
            server.wait(10)

    try:
        wait_for(s3_port)
        boto3.client(
            "s3", endpoint_url=s3_url, region_name="us-east-1", aws_access_key_id="bench", aws_secret_access_key="bench"
        ).create_bucket(Bucket=BUCKET)
        warm_up = workdir / "warm-up.pdf"
        make_pdf(warm_up, MB)
        print(f"{'size':>6} {'storage':>11} {'mode':>6} {'MB/s':>8} {'growth MB':>10} {'growth/size':>12}")
        for size in [int(s) for s in args.sizes.split(",")]:
            path = workdir / f"{size}.pdf"
            make_pdf(path, size * MB)
            for storage in STORAGES:
                rows = {}
                for mode in MODES:
                    samples = [sample(mode, storage, path) for _ in range(args.runs)]
                    seconds = statistics.median(s for s, _ in samples)
                    growth = statistics.median(g for _, g in samples)
                    rows[mode] = (seconds, growth)
                    print(
                        f"{size:>4}MB {storage:>11} {mode:>6} {size / seconds:>8.1f} {growth / MB:>10.1f}"
                        f" {growth / (size * MB):>12.2f}",
                        flush=True,
                    )
                (ours_s, ours_g), (naive_s, naive_g) = rows["ours"], rows["naive"]
                print(
                    f"{'':>6} {'':>11} ratio  time ours/naive {ours_s / naive_s:.2f}, "
                    f"growth ours/naive {ours_g / max(naive_g, MB / 10):.2f}",
                    flush=True,
                )
            path.unlink()
    finally:
        moto.terminate()
        moto.wait(10)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
