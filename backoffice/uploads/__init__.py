"""One mechanism for every file the back office accepts (vendor KYC documents, evidence, identity images).

    from backoffice.uploads import VENDOR_KYC, IfExists, safe_filename, upload_store

    safe = safe_filename(upload.name)
    stored = upload_store(file=upload, name=f"vendors/{vendor.pk}/kyc/{key}_{safe}", policy=VENDOR_KYC)

Each caller declares an ``UploadPolicy`` (kinds, byte cap, pixel cap, whether images are rebuilt); the checks,
the errors and the all-or-nothing write are shared. See docs/uploads.md.
"""

from backoffice.uploads.errors import (
    FileAlreadyStored,
    FileTooLarge,
    InvalidFileType,
    StorageUnavailable,
    UnsafeContent,
    UploadRejected,
    UploadStorageError,
    UploadTimeout,
)
from backoffice.uploads.handlers import SizeCapUploadHandler
from backoffice.uploads.names import file_extension, safe_filename
from backoffice.uploads.policy import ATTACHMENT, IDENTITY_IMAGE, MB, VENDOR_KYC, FileKind, UploadPolicy
from backoffice.uploads.previews import image_thumbnail_png, pdf_preview_png, preview_png
from backoffice.uploads.sniff import check_kind, sniff_kind
from backoffice.uploads.store import StoredUpload, upload_discard, upload_store
from backoffice.uploads.writes import IfExists

__all__ = [
    "ATTACHMENT",
    "IDENTITY_IMAGE",
    "MB",
    "VENDOR_KYC",
    "FileAlreadyStored",
    "FileKind",
    "FileTooLarge",
    "IfExists",
    "InvalidFileType",
    "SizeCapUploadHandler",
    "StorageUnavailable",
    "StoredUpload",
    "UnsafeContent",
    "UploadPolicy",
    "UploadRejected",
    "UploadStorageError",
    "UploadTimeout",
    "check_kind",
    "file_extension",
    "image_thumbnail_png",
    "pdf_preview_png",
    "preview_png",
    "safe_filename",
    "sniff_kind",
    "upload_discard",
    "upload_store",
]
