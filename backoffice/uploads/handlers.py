"""A Django upload handler that stops a request body at the policy's size instead of spooling all of it.

Django writes every uploaded file to disk (or memory) before a view sees it, however large. Put this handler
first for an upload view and the request is refused with ``FileTooLarge`` as soon as its declared length or
any one file passes ``max_bytes``, after at most one chunk (64 KB) too many:

    request.upload_handlers.insert(0, SizeCapUploadHandler(max_bytes=VENDOR_KYC.max_bytes))

(before the first access to ``request.data``, ``request.POST`` or ``request.FILES``).
"""

from django.core.files.uploadhandler import FileUploadHandler

from backoffice.uploads.errors import FileTooLarge
from backoffice.uploads.policy import MB

# The form fields and multipart boundaries around one file; a body past file + slack cannot be within the cap.
BODY_SLACK_BYTES = 1 * MB


class SizeCapUploadHandler(FileUploadHandler):
    """Refuses a body whose Content-Length passes the cap, and any file whose bytes do, while they arrive."""

    def __init__(self, request=None, *, max_bytes: int):
        super().__init__(request)
        self.max_bytes = max_bytes

    def _refuse(self):
        raise FileTooLarge(f"The file is larger than {self.max_bytes} bytes")

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        if content_length and content_length > self.max_bytes + BODY_SLACK_BYTES:
            self._refuse()
        return None  # let the other handlers go on

    def receive_data_chunk(self, raw_data, start):
        if start + len(raw_data) > self.max_bytes:
            self._refuse()
        return raw_data  # pass the chunk on to the handler that keeps it

    def file_complete(self, file_size):
        return None
