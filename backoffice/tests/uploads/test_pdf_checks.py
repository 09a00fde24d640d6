"""Each kind of active or hidden PDF content is refused with its reason, and nothing is stored."""

import hashlib

import pikepdf
import pytest

from backoffice.uploads import InvalidFileType, UnsafeContent

from .corpus import handmade_pdf, javascript_action, pikepdf_pdf
from .helpers import stored_files

JS_ACTION = b"<< /S /JavaScript /JS (app.alert\\(1\\)) >>"


def refused(store, local_storage, content, error=UnsafeContent) -> str:
    with pytest.raises(error) as excinfo:
        store(content, "document.pdf")
    assert excinfo.value.status == 400
    assert stored_files(local_storage) == []
    return excinfo.value.details["file"][0]


def test_a_clean_pdf_is_stored_byte_for_byte_with_its_sha256(store, local_storage):
    content = handmade_pdf()
    stored = store(content, "Company Registration.PDF")
    assert stored.name == "vendors/7/kyc/Company_Registration.pdf"
    assert stored.kind == "pdf" and stored.content_type == "application/pdf" and stored.pages == 1
    assert stored.size == stored.received_size == len(content)
    assert stored.sha256 == stored.received_sha256 == hashlib.sha256(content).hexdigest()
    assert stored.sanitised is False
    with local_storage.open(stored.name) as f:
        assert f.read() == content


def test_a_pdf_with_javascript_is_refused(store, local_storage):
    content = handmade_pdf(catalog_extra=b"/Names << /JavaScript << /Names [(x) 4 0 R] >> >>", objects=(JS_ACTION,))
    assert refused(store, local_storage, content) == "The PDF contains JavaScript"


def test_a_pdf_with_an_open_action_is_refused(store, local_storage):
    content = handmade_pdf(catalog_extra=b"/OpenAction 4 0 R", objects=(b"<< /S /GoTo /D [3 0 R /Fit] >>",))
    assert refused(store, local_storage, content) == "The PDF has an automatic action (/OpenAction)"


def test_a_pdf_with_an_additional_action_is_refused(store, local_storage):
    content = handmade_pdf(catalog_extra=b"/AA << /WC 4 0 R >>", objects=(b"<< /S /GoTo /D [3 0 R /Fit] >>",))
    assert refused(store, local_storage, content) == "The PDF has an automatic action (/AA)"


def test_a_pdf_with_an_embedded_file_is_refused(store, local_storage):
    def attach(pdf):
        pdf.attachments["payload.exe"] = pikepdf.AttachedFileSpec(pdf, b"MZ...")

    assert refused(store, local_storage, pikepdf_pdf(build=attach)) == "The PDF has embedded files"


def test_a_pdf_with_an_xfa_form_is_refused(store, local_storage):
    content = handmade_pdf(catalog_extra=b"/AcroForm << /Fields [] /XFA 4 0 R >>", objects=(b"<< >>",))
    assert refused(store, local_storage, content) == "The PDF contains an XFA form"


def test_a_pdf_with_a_launch_action_is_refused(store, local_storage):
    content = handmade_pdf(
        objects=(b"<< /Type /Annot /Subtype /Link /Rect [0 0 9 9] /A << /S /Launch /F (cmd.exe) >> >>",)
    )
    assert refused(store, local_storage, content) == "The PDF has a launch action"


def test_a_hex_escaped_name_is_read_as_what_it_spells(store, local_storage):
    content = handmade_pdf(catalog_extra=b"/Names << /J#61vaScr#69pt << /Names [(x) 4 0 R] >> >>", objects=(JS_ACTION,))
    assert b"/JavaScript" not in content.replace(b"/S /JavaScript", b"")
    content = content.replace(b"/S /JavaScript", b"/S /J#61vaScript")
    assert refused(store, local_storage, content) == "The PDF contains JavaScript"


def test_javascript_packed_in_a_compressed_object_stream_is_found_by_the_parser(store, local_storage):
    def open_action(pdf):
        pdf.Root.Names = pikepdf.Dictionary(JavaScript=pikepdf.Dictionary(Names=["x", javascript_action(pdf)]))

    content = pikepdf_pdf(build=open_action, object_streams=True)
    assert b"JavaScript" not in content  # compressed: the raw bytes do not show it
    assert refused(store, local_storage, content) == "The PDF contains JavaScript"


def test_an_encrypted_pdf_that_opens_without_a_password_is_refused(store, local_storage):
    content = pikepdf_pdf(encryption=pikepdf.Encryption(owner="owner-secret", user=""))
    assert refused(store, local_storage, content) == "The PDF is encrypted"


def test_a_password_protected_pdf_is_refused(store, local_storage):
    content = pikepdf_pdf(encryption=pikepdf.Encryption(owner="owner-secret", user="user-secret"))
    assert refused(store, local_storage, content) == "The PDF is encrypted"


def test_a_pdf_that_cannot_be_parsed_is_refused_as_damaged(store, local_storage):
    content = b"%PDF-1.7\n" + bytes(range(256)) * 40
    assert refused(store, local_storage, content, InvalidFileType) in (
        "The PDF is damaged and cannot be read",
        "The PDF has no pages",
    )


def test_names_inside_stream_data_do_not_count(store, local_storage):
    data = b"BT /JS 12 Tf (x) Tj ET /AA /OpenAction"  # operand names in a content stream run nothing
    content = handmade_pdf(objects=(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data),))
    assert store(content, "statement.pdf").pages == 1


def test_a_pdf_with_too_many_objects_is_refused(store, local_storage):
    from dataclasses import replace

    from backoffice.uploads import VENDOR_KYC

    small = replace(VENDOR_KYC, pdf_max_objects=50)
    with pytest.raises(UnsafeContent) as excinfo:
        store(pikepdf_pdf(pages=30), "long.pdf", small)
    assert "too many objects" in excinfo.value.reason
    assert stored_files(local_storage) == []


@pytest.mark.parametrize(
    "tail, reason",
    [
        (b"<html><script>alert(document.cookie)</script></html>\n", "The PDF has content after its end marker (%%EOF)"),
        (b"\n\n<!-- -->", "The PDF has content after its end marker (%%EOF)"),
        # the page brings an end marker of its own, so the file still ends in %%EOF
        (
            b"<html></html>\n%%EOF\n",
            "The PDF does not end as a PDF must (startxref, its offset, then the end marker %%EOF)",
        ),
    ],
    ids=["html page", "comment", "html with its own end marker"],
)
def test_a_pdf_with_anything_after_its_end_is_refused_as_a_polyglot(store, local_storage, tail, reason):
    assert refused(store, local_storage, handmade_pdf() + tail, InvalidFileType) == reason


def test_a_pdf_whose_end_is_cut_off_is_refused(store, local_storage):
    content = handmade_pdf()
    assert refused(store, local_storage, content[: content.rindex(b"%%EOF")], InvalidFileType) == (
        "The PDF does not end as a PDF must (startxref, its offset, then the end marker %%EOF)"
    )


@pytest.mark.parametrize("ending", [b"", b"\r\n", b"\n\n", b"\x00\x00"], ids=["none", "crlf", "blank line", "nul"])
def test_line_ends_and_padding_after_the_end_marker_are_a_pdfs_own(store, ending):
    content = handmade_pdf()
    assert store(content.rstrip(b"\n") + ending, "document.pdf").pages == 1


def test_a_pdf_made_by_a_library_ends_as_it_should(store):
    assert store(pikepdf_pdf(pages=2), "document.pdf").pages == 2


def test_an_incremental_update_ends_where_its_own_end_marker_is(store):
    # a signed or edited PDF: a second body, cross-reference section and end appended after the first
    first = handmade_pdf()
    xref = len(first)
    update = b"xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 4 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n"
    offset_of_first_xref = int(first.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    assert store(first + update % (offset_of_first_xref, xref), "document.pdf").pages == 1
