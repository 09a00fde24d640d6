"""The raw-byte scanner on its own: it must find names however the bytes are chunked, and only outside streams."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backoffice.uploads.pdf import PdfNameScanner

from .corpus import handmade_pdf


def scan(data: bytes, chunk: int) -> list[str]:
    scanner = PdfNameScanner()
    for start in range(0, len(data), chunk):
        scanner.feed(data[start : start + chunk])
    scanner.close()
    return list(scanner.reasons)


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, 10_000])
def test_a_hex_escaped_name_is_found_however_the_bytes_are_split(chunk):
    content = handmade_pdf(catalog_extra=b"/OpenAction 4 0 R", objects=(b"<< /S /J#61#76#61Script /JS (x) >>",))
    content = content.replace(b"/OpenAction", b"/Op#65nAction")
    assert scan(content, chunk) == ["The PDF has an automatic action (/OpenAction)", "The PDF contains JavaScript"]


@pytest.mark.parametrize("chunk", [1, 5, 4096])
def test_names_in_stream_data_are_skipped_however_the_bytes_are_split(chunk):
    data = b"/JS /AA /JavaScript /Launch" * 100
    content = handmade_pdf(objects=(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data),))
    assert scan(content, chunk) == []


def test_a_name_that_only_starts_like_a_forbidden_one_is_not_flagged():
    assert scan(b"<< /JSON 1 /AAB 2 /Launcher 3 /XFAX 4 >>", 4) == []


def test_a_name_right_before_a_delimiter_is_flagged():
    assert scan(b"<</AA<</O 4 0 R>>>>", 3) == ["The PDF has an automatic action (/AA)"]


def test_an_encrypt_entry_in_the_trailer_is_flagged():
    content = handmade_pdf(trailer_extra=b"/Encrypt 9 0 R")
    assert scan(content, 13) == ["The PDF is encrypted"]


SAMPLE = handmade_pdf(
    catalog_extra=b"/Op#65nAction 4 0 R /AcroForm << /XFA 5 0 R >>",
    objects=(
        b"<< /S /Launch /F (x) >>",
        b"<< /Length 24 >>\nstream\n/JS /AA /EmbeddedFiles..\nendstream",
        b"<< /Type /EmbeddedFile >>",
    ),
)


@given(cuts=st.lists(st.integers(min_value=1, max_value=len(SAMPLE) - 1), unique=True, max_size=40))
@settings(max_examples=150, deadline=None)
def test_any_split_of_the_bytes_finds_what_one_pass_finds(cuts):
    whole = scan(SAMPLE, len(SAMPLE))
    scanner = PdfNameScanner()
    edges = [0, *sorted(cuts), len(SAMPLE)]
    for start, end in zip(edges, edges[1:], strict=False):
        scanner.feed(SAMPLE[start:end])
    scanner.close()
    assert set(scanner.reasons) == set(whole)
    assert set(whole) == {
        "The PDF has an automatic action (/OpenAction)",
        "The PDF contains an XFA form",
        "The PDF has a launch action",
        "The PDF has embedded files",
    }
