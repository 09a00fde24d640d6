import pytest

from backoffice.uploads import ATTACHMENT, IDENTITY_IMAGE, VENDOR_KYC, FileKind, InvalidFileType, check_kind
from backoffice.uploads.sniff import sniff_kind

from .corpus import handmade_pdf, jpeg, png

HTML = b"<!DOCTYPE html><html><body><script>alert(1)</script></body></html>"


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        (handmade_pdf(), FileKind.PDF),
        (jpeg(), FileKind.JPEG),
        (png(), FileKind.PNG),
        (HTML, None),
        (b"PK\x03\x04", None),
    ],
)
def test_the_first_bytes_decide_the_kind(content, kind):
    assert sniff_kind(content[:16]) is kind


@pytest.mark.parametrize(
    ("content", "filename"),
    [(handmade_pdf(), "a.pdf"), (handmade_pdf(), "A.PDF"), (jpeg(), "a.jpg"), (jpeg(), "a.JPEG"), (png(), "a.Png")],
)
def test_content_that_agrees_with_its_extension_whatever_the_case_is_accepted(content, filename):
    assert check_kind(content[:16], filename, VENDOR_KYC) is sniff_kind(content)


def reason(excinfo) -> str:
    error = excinfo.value
    assert error.status == 400 and error.code == "VALIDATION_ERROR" and error.message == "Invalid file type"
    return error.details["file"][0]


def test_an_html_page_named_pdf_is_refused():
    with pytest.raises(InvalidFileType) as excinfo:
        check_kind(HTML[:16], "statement.pdf", VENDOR_KYC)
    assert reason(excinfo) == "The content is not PDF, JPEG or PNG"


def test_a_png_named_jpg_is_refused_naming_both():
    with pytest.raises(InvalidFileType) as excinfo:
        check_kind(png()[:16], "photo.jpg", VENDOR_KYC)
    assert reason(excinfo) == "The content is PNG but the name ends in .jpg"


def test_an_empty_file_is_refused():
    with pytest.raises(InvalidFileType) as excinfo:
        check_kind(b"", "empty.pdf", VENDOR_KYC)
    assert reason(excinfo) == "The file is empty"


def test_a_name_without_extension_is_refused():
    with pytest.raises(InvalidFileType) as excinfo:
        check_kind(handmade_pdf()[:16], "blob", ATTACHMENT)
    assert reason(excinfo) == "The file name has no extension; it must end in .pdf, .jpg, .jpeg or .png"


def test_a_pdf_is_refused_where_only_images_are_accepted():
    with pytest.raises(InvalidFileType) as excinfo:
        check_kind(handmade_pdf()[:16], "selfie.pdf", IDENTITY_IMAGE)
    assert reason(excinfo) == "PDF files are not accepted here (only JPEG or PNG)"


def test_a_pdf_header_after_other_bytes_is_not_a_pdf():
    with pytest.raises(InvalidFileType):
        check_kind((b"<html>" + handmade_pdf())[:16], "x.pdf", VENDOR_KYC)
