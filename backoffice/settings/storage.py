"""Files: uploads on the local disk or S3 (django-storages), static files through WhiteNoise."""

from boto3.s3.transfer import TransferConfig
from botocore.config import Config

from backoffice.env import env_int, env_str
from backoffice.settings.base import BASE_DIR, DEBUG

MEDIA_ROOT = env_str("MEDIA_ROOT", str(BASE_DIR / "media"))
MEDIA_URL = env_str("MEDIA_URL", "/media/")
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Collected files are served by WhiteNoise; before collectstatic (tests, dev) it finds them in the apps.
WHITENOISE_USE_FINDERS = True
STATICFILES_DIRS = [BASE_DIR / "static"]

AWS_STORAGE_BUCKET_NAME = env_str("AWS_STORAGE_BUCKET_NAME")
AWS_S3_ENDPOINT_URL = env_str("AWS_S3_ENDPOINT_URL")
AWS_S3_REGION_NAME = env_str("AWS_S3_REGION_NAME", "af-south-1")
# Private documents: S3 links are always presigned, and live as long as the local signed links (15 minutes).
AWS_QUERYSTRING_AUTH = True
AWS_QUERYSTRING_EXPIRE = env_int("AWS_QUERYSTRING_EXPIRE", 15 * 60, minimum=60, maximum=7 * 24 * 3600)
AWS_DEFAULT_ACL = None
# Never replace an object that has the same key (django-storages overwrites by default), and sign with
# SigV4: regions opened since 2014, af-south-1 among them, accept nothing else.
AWS_S3_FILE_OVERWRITE = False
AWS_S3_SIGNATURE_VERSION = "s3v4"
if AWS_STORAGE_BUCKET_NAME:
    _default_storage = {"BACKEND": "storages.backends.s3.S3Storage"}
else:
    _default_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES = {
    "default": _default_storage,
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Bounded memory for object-store uploads (docs/uploads.md, bench/uploads.py): boto3 holds up to ten 8 MB
# parts of a multipart upload in memory by default; two parts of 5 MB (S3's smallest) keep a 50 MB upload's
# growth under 20 MB at the same throughput. s3transfer takes the in-memory bound only as an attribute.
AWS_S3_TRANSFER_CONFIG = TransferConfig(multipart_chunksize=5 * 1024 * 1024)
AWS_S3_TRANSFER_CONFIG.max_in_memory_upload_chunks = 2
# Give up on an unresponsive S3 endpoint instead of holding a request thread (botocore waits 60 s to connect
# and 60 s for each answer by default, and retries): a frozen S3 (it accepts connections, never answers) held
# every uploading thread of the load run's gunicorns. Each call now takes at most AWS_S3_MAX_ATTEMPTS x
# (connect or read timeout) plus botocore's sub-second back-off (the defaults: about 11 s), then the request
# answers 503 SERVICE_UNAVAILABLE in the envelope (backoffice.uploads.writes, backoffice.api.exceptions).
# The read timeout bounds each wait for an answer (and each socket send), not a whole transfer.
AWS_S3_CONNECT_TIMEOUT = env_int("AWS_S3_CONNECT_TIMEOUT", 2, minimum=1, maximum=60)
AWS_S3_READ_TIMEOUT = env_int("AWS_S3_READ_TIMEOUT", 5, minimum=1, maximum=300)
# Attempts of one call, the first included ("standard" retry mode: throttling, 5xx and connection errors).
AWS_S3_MAX_ATTEMPTS = env_int("AWS_S3_MAX_ATTEMPTS", 2, minimum=1, maximum=10)
AWS_S3_CLIENT_CONFIG = Config(
    connect_timeout=AWS_S3_CONNECT_TIMEOUT,
    read_timeout=AWS_S3_READ_TIMEOUT,
    retries={"max_attempts": AWS_S3_MAX_ATTEMPTS, "mode": "standard"},
    signature_version=AWS_S3_SIGNATURE_VERSION,
)

# A JSON or form body above this is 413 (files of upload endpoints have their own caps: docs/uploads.md);
# more query parameters or form fields than this is 400.
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
# Django keeps an uploaded file in memory up to this size, then spools it to FILE_UPLOAD_TEMP_DIR; 2 MB keeps
# every request's memory small (a 10 MB identity image would otherwise sit whole in memory).
FILE_UPLOAD_MAX_MEMORY_SIZE = env_int(
    "FILE_UPLOAD_MAX_MEMORY_SIZE", 2 * 1024 * 1024, minimum=0, maximum=64 * 1024 * 1024
)
# Where larger uploads are spooled: a disk with room for the concurrent request bodies (50 MB each). Unset:
# the system's temporary directory.
FILE_UPLOAD_TEMP_DIR = env_str("FILE_UPLOAD_TEMP_DIR")
