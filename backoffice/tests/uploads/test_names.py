import pytest

from backoffice.uploads import safe_filename
from backoffice.uploads.names import MAX_FILENAME_LENGTH


@pytest.mark.parametrize(
    ("original", "safe"),
    [
        ("report.pdf", "report.pdf"),
        ("Bank Statement (March).PDF", "Bank_Statement_March.pdf"),
        ("../../etc/passwd", "passwd"),
        ("..\\..\\windows\\system32\\evil.png", "evil.png"),
        ("/absolute/path/id.jpeg", "id.jpeg"),
        ("....pdf", "file.pdf"),
        ("..", "file"),
        (".htaccess", "file.htaccess"),  # a dot file is all extension: it gets a stem, never a leading dot
        (".hidden.png", "hidden.png"),
        ("-rf.pdf", "rf.pdf"),
        ("photo.php.jpg", "photo_php.jpg"),
        ("a\x00b\x1f\x7fc.png", "a_b_c.png"),
        ("tab\there\nnewline.pdf", "tab_here_newline.pdf"),
        ("Résumé Ñandú.pdf", "Resume_Nandu.pdf"),
        ("ｆｕｌｌｗｉｄｔｈ.png", "fullwidth.png"),
        ("паспорт.jpg", "file.jpg"),
        ("身份证.PNG", "file.png"),
        ("invoice\u202egpj.pdf", "invoicegpj.pdf"),  # the right-to-left override that makes "fdp.jpg" read as ".jpg"
        ("report.pdf  ", "report.pdf"),
        ("report.pdf...", "report.pdf"),
        ("", "file"),
        (None, "file"),
        ("no-extension", "no-extension"),
    ],
)
def test_a_name_is_reduced_to_safe_characters_with_its_extension_lower_cased(original, safe):
    assert safe_filename(original) == safe


def test_a_very_long_name_is_capped_and_keeps_its_extension():
    name = safe_filename("a" * 5000 + ".pdf")
    assert len(name) == MAX_FILENAME_LENGTH
    assert name.endswith("a.pdf")


def test_a_safe_name_never_carries_a_separator_or_a_parent_reference():
    hostile = ["../" * 50 + "x.png", "a/../../b.pdf", "C:\\..\\x.jpg", "%2e%2e%2fx.pdf", "x/.", "/"]
    for original in hostile:
        name = safe_filename(original)
        assert name and "/" not in name and "\\" not in name and ".." not in name and not name.startswith(".")
