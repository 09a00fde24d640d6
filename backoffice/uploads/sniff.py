"""What a file is, from its first bytes, and whether its name agrees."""

from backoffice.uploads.errors import InvalidFileType
from backoffice.uploads.names import file_extension
from backoffice.uploads.policy import FileKind, UploadPolicy

HEAD_BYTES = 16

# A PDF must start with its header: readers accept it anywhere in the first KB, but a file that starts with
# something else (an HTML page with a PDF glued on) is a polyglot, and we have no use for one.
_SIGNATURES = (
    (b"%PDF-", FileKind.PDF),
    (b"\xff\xd8\xff", FileKind.JPEG),
    (b"\x89PNG\r\n\x1a\n", FileKind.PNG),
)


def sniff_kind(head: bytes) -> FileKind | None:
    """The kind whose signature ``head`` starts with, or None."""
    for signature, kind in _SIGNATURES:
        if head.startswith(signature):
            return kind
    return None


def kind_for_extension(extension: str) -> FileKind | None:
    for kind in FileKind:
        if extension.lower() in kind.extensions:
            return kind
    return None


def check_kind(head: bytes, filename: str, policy: UploadPolicy) -> FileKind:
    """The kind of a file whose content starts with ``head`` and is named ``filename``, or InvalidFileType.

    The content decides the kind; the name must then end in one of that kind's extensions (case does not
    matter). An empty file, a kind the policy does not accept and a disagreeing name each say so.
    """
    if not head:
        raise InvalidFileType("The file is empty")
    kind = sniff_kind(head)
    if kind is None:
        raise InvalidFileType(f"The content is not {policy.kinds_text()}")
    if kind not in policy.kinds:
        raise InvalidFileType(f"{kind.label} files are not accepted here (only {policy.kinds_text()})")
    extension = file_extension(filename)
    if not extension:
        raise InvalidFileType(f"The file name has no extension; it must end in {policy.extensions_text()}")
    if extension not in kind.extensions:
        raise InvalidFileType(f"The content is {kind.label} but the name ends in {extension}")
    return kind
