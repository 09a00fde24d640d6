"""The size cap of a job's upload: up to three images of at most 10 MB each."""

from backoffice.uploads import IDENTITY_IMAGE, SizeCapUploadHandler
from backoffice.uploads.errors import FileTooLarge
from backoffice.uploads.handlers import BODY_SLACK_BYTES

IMAGES_PER_JOB = 3


class JobUploadHandler(SizeCapUploadHandler):
    """Each file at most 10 MB while it arrives; the whole body at most three of them."""

    def __init__(self, request=None):
        super().__init__(request, max_bytes=IDENTITY_IMAGE.max_bytes)

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        if content_length and content_length > IMAGES_PER_JOB * self.max_bytes + BODY_SLACK_BYTES:
            raise FileTooLarge("The images are larger than 10 MB each")
        return None
