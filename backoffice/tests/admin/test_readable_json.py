"""A read-only JSON field reads as words on an admin page (backoffice.admin.readable_json)."""

from backoffice.admin.readable_json import key_words, readable


def test_lists_read_as_a_line_and_objects_as_keys_in_words():
    assert readable(["1971-12-04", "1977"]) == "1971-12-04, 1977"
    assert readable([]) == "—" and readable({}) == "—" and readable(None) == "—" and readable(True) == "yes"
    html = readable({"placeOfBirth": "Riyadh", "ids": [{"type": "passport", "number": "<b>1</b>"}]})
    assert "<dt>Place of birth</dt><dd>Riyadh</dd>" in html
    assert "<dt>Type</dt><dd>passport</dd>" in html and "&lt;b&gt;1&lt;/b&gt;" in html  # escaped throughout
    assert key_words("date_of_birth") == key_words("dateOfBirth") == "Date of birth"
