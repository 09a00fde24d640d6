"""Images named by URL (the two test endpoints): this service's own stored files, or an allowed host.

A link this service handed out (``/api/v1/files/<token>`` on the local disk, a presigned URL of the bucket
on S3) is read straight from storage, never fetched over the network. Any other URL goes through the
engine's safe fetch, which allows only the hosts of ``VERIFICATION_ALLOWED_IMAGE_HOSTS``.
"""

from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.core.files.storage import FileSystemStorage, default_storage
from django.urls import Resolver404, resolve

from backoffice.files import file_name_from_token
from verification.engine import errors as engine_errors
from verification.engine.fetch import fetch_image
from verification.engine.images import MAX_IMAGE_BYTES, load_image
from verification.errors import ImageNotUsable, ImageUrlNotAllowed


def _own_file_name(url: str, request) -> str | None:
    """The storage name behind a link of ours, or None when the URL is not one."""
    parts = urlsplit(url)
    own_host = request.get_host().lower() if request is not None else ""
    if parts.netloc == "" or parts.netloc.lower() == own_host:
        try:
            match = resolve(parts.path)
        except Resolver404:
            match = None
        if match is not None and match.url_name == "file-download":
            name = file_name_from_token(match.kwargs["token"])
            if name is None:
                raise ImageNotUsable("This file link has expired or is not valid; ask for a new one")
            return name
    if not isinstance(default_storage, FileSystemStorage):
        # a presigned URL of our bucket: path-style (endpoint/bucket/key) or virtual-host (bucket.endpoint/key)
        bucket = settings.AWS_STORAGE_BUCKET_NAME or ""
        path = unquote(parts.path.lstrip("/"))
        endpoint = urlsplit(settings.AWS_S3_ENDPOINT_URL or "").netloc.lower()
        host = parts.netloc.lower()
        if endpoint and host == endpoint and path.startswith(bucket + "/"):
            return path[len(bucket) + 1 :]
        # virtual-host style: <bucket>.<the endpoint's domain, or AWS's>
        if host.startswith(bucket.lower() + ".") and host.endswith("." + (endpoint or "amazonaws.com")):
            return path
    return None


def image_from_url(url: str, *, request=None) -> bytes:
    """The bytes of the image at ``url``: 400 IMAGE_URL_NOT_ALLOWED for a URL outside the allowed sources,
    400 for something that is not a JPEG or PNG of at most 10 MB or cannot be fetched."""
    url = (url or "").strip()
    name = _own_file_name(url, request)
    if name is not None:
        if not default_storage.exists(name):
            raise ImageNotUsable("No stored image at this URL (the link may have expired)")
        if default_storage.size(name) > MAX_IMAGE_BYTES:
            raise ImageNotUsable("The image is larger than 10 MB")
        with default_storage.open(name, "rb") as handle:
            data = handle.read()
    else:
        try:
            data = fetch_image(url, allowed_hosts=settings.VERIFICATION_ALLOWED_IMAGE_HOSTS)
        except engine_errors.ImageUrlNotAllowed as error:
            raise ImageUrlNotAllowed(str(error) or None) from None
        except engine_errors.EngineError as error:
            raise ImageNotUsable(str(error) or None) from None
    try:
        load_image(data)
    except engine_errors.EngineError as error:
        raise ImageNotUsable(str(error) or None) from None
    return data
