"""The API's request parsers (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``): DRF's, made strict.

* JSON goes through ``backoffice.strictjson.decode`` (depth, duplicate keys, NUL and surrogates,
  exact numbers), after a size check: more than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes is 413.
* A form body is held to the same size; form and multipart fields, and uploaded files' names, are
  refused with a 400 naming the field when they hold a NUL character.
* A multipart body sent to a view that declared no upload cap (``SizeCapUploadHandler``) is held to
  ``DATA_UPLOAD_MAX_MEMORY_SIZE`` as a whole, files included, so an endpoint that takes no file cannot
  be made to spool gigabytes to disk.

``ApiInputMiddleware`` decodes JSON bodies before the view (so even an endpoint that never reads its
body refuses a hostile one) and leaves the result on the request; the JSON parser then reuses it.
"""

from django.conf import settings
from rest_framework import parsers

from backoffice import strictjson
from backoffice.errors import PayloadTooLarge
from backoffice.uploads import SizeCapUploadHandler

# The attribute of the Django request where ApiInputMiddleware leaves a decoded JSON body.
DECODED_JSON = "_backoffice_decoded_json"


def body_limit() -> int:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def declared_length(meta) -> int:
    try:
        return max(0, int(meta.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


def too_large(length: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"Request body is too large (more than {body_limit()} bytes)")


def form_values(data) -> dict:
    """A QueryDict as a plain dict for ``refuse_bad_text``: one value, or the list of several."""
    return {key: values[0] if len(values) == 1 else values for key, values in data.lists()}


class StrictJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        django_request = getattr(request, "_request", request)
        if django_request is not None and hasattr(django_request, DECODED_JSON):
            return getattr(django_request, DECODED_JSON)
        length = declared_length(getattr(django_request, "META", {}))
        if length > body_limit():
            raise too_large(length)
        raw = stream.read(body_limit() + 1)
        if len(raw) > body_limit():
            raise too_large(len(raw))
        return strictjson.decode(raw)


class StrictFormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        length = declared_length(getattr(request, "META", {}))
        if length > body_limit():
            raise too_large(length)
        data = super().parse(stream, media_type, parser_context)
        strictjson.refuse_bad_text(form_values(data))
        return data


class StrictMultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):

        request = parser_context["request"]
        capped = any(isinstance(handler, SizeCapUploadHandler) for handler in request.upload_handlers)
        length = declared_length(request.META)
        if not capped and length > body_limit():
            raise too_large(length)
        result = super().parse(stream, media_type, parser_context)
        names = {f"{key}.filename": upload.name for key, upload in result.files.items()}
        strictjson.refuse_bad_text({**form_values(result.data), **names})
        return result
