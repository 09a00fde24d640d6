"""Read-only JSON fields read as words on admin pages, not as a JSON document (issue 31: raw JSON on pages).

Unfold draws a read-only ``JSONField`` as pretty-printed JSON: a sanctions entry's dates of birth read
``["1971-12-04", "1977"]``, its publisher's details a page of braces. ``install()`` (from
``BackofficeConfig.ready()``) draws them instead as a person reads them: a list of plain values as one line
("1971-12-04, 1977"), an object as its keys in words with their values, nested as deep as it goes. Forms that
edit JSON have fields of their own (``backoffice.admin.fields``); the API and the stored values are unchanged.
"""

import re

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

EMPTY = "—"
_WORD_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|_")


def key_words(key) -> str:
    """A stored key as words: ``date_of_birth`` and ``dateOfBirth`` -> "Date of birth"."""
    words = _WORD_BREAK.sub(" ", str(key)).strip().lower()
    return words[:1].upper() + words[1:] if words else str(key)


def _scalar(value) -> str:
    if value is None or value == "":
        return EMPTY
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def readable(value) -> SafeString | str:
    """``value`` (a decoded JSON value) as HTML a person reads; escaped throughout."""
    if isinstance(value, dict):
        if not value:
            return EMPTY
        rows = format_html_join("", "<dt>{}</dt><dd>{}</dd>", ((key_words(k), readable(v)) for k, v in value.items()))
        return format_html('<dl class="vk-json">{}</dl>', rows)
    if isinstance(value, list):
        if not value:
            return EMPTY
        if all(not isinstance(item, dict | list) for item in value):
            return ", ".join(_scalar(item) for item in value)
        return format_html(
            '<ul class="vk-json">{}</ul>', format_html_join("", "<li>{}</li>", ((readable(i),) for i in value))
        )
    return _scalar(value)


def _prettify(data, encoder=None) -> SafeString:
    return format_html("{}", readable(data))


def install() -> None:
    import unfold.fields

    unfold.fields.prettify_json = _prettify
