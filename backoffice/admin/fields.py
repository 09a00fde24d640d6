"""Form fields that keep raw JSON and codes out of the admin's forms (issue 31).

- ``KeyValueField``: a JSON object edited as rows of name and value inputs (a PEP's additional info), with
  room for new rows; a value that is not text (a number, a list) is shown as JSON and kept as it was unless
  its text is changed.
- ``CountryField``: one country list for every form, ISO alpha-2 codes named ("Eswatini (SZ)"); a stored
  name or code ("Eswatini", "SZ", "Swaziland") opens on its code, so each is saved as that one code.
"""

import json

from django import forms
from django.utils.html import format_html, format_html_join
from unfold.widgets import INPUT_CLASSES, SELECT_CLASSES

from names import country_choices, normalise_country

EMPTY_ROWS = 2


def _text(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class KeyValueWidget(forms.Widget):
    """Rows of <name> = <value> text inputs, posted as ``<name>-key-<n>`` and ``<name>-value-<n>``."""

    def value_from_datadict(self, data, files, name):
        rows, n = [], 0
        while f"{name}-key-{n}" in data:
            rows.append((data.get(f"{name}-key-{n}", ""), data.get(f"{name}-value-{n}", "")))
            n += 1
        return rows if n else None

    def value_omitted_from_data(self, data, files, name):
        return f"{name}-key-0" not in data

    def render(self, name, value, attrs=None, renderer=None):
        if isinstance(value, dict):
            rows = [(k, _text(v)) for k, v in value.items()]
        elif isinstance(value, list):
            rows = [(k, v) for k, v in value if k or v]
        else:
            rows = []
        rows += [("", "")] * EMPTY_ROWS
        classes = " ".join(INPUT_CLASSES)
        body = format_html_join(
            "",
            '<div class="vk-kv-row"><input type="text" name="{0}-key-{1}" value="{2}" aria-label="Name {3}" '
            'class="{5}" placeholder="name"><input type="text" name="{0}-value-{1}" value="{4}" '
            'aria-label="Value {3}" class="{5}" placeholder="value"></div>',
            ((name, i, k, i + 1, v, classes) for i, (k, v) in enumerate(rows)),
        )
        return format_html('<div class="vk-kv" data-testid="{}-rows">{}</div>', name, body)


class KeyValueField(forms.Field):
    """A JSON object as rows of names and values; empty names drop their row, a name twice is refused."""

    widget = KeyValueWidget

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("help_text", "One fact per row: a name and its value. Empty rows are ignored.")
        super().__init__(*args, **kwargs)

    def clean(self, value):
        original = self.initial if isinstance(self.initial, dict) else {}
        if value is None:
            return dict(original)
        result: dict = {}
        for key, text in value:
            key, text = (key or "").strip(), (text or "").strip()
            if not key:
                if text:
                    raise forms.ValidationError(f"The value “{text}” has no name.")
                continue
            if key in result:
                raise forms.ValidationError(f"“{key}” is given twice.")
            before = original.get(key)
            result[key] = before if before is not None and _text(before) == text else text
        return result

    def has_changed(self, initial, data):
        return self.clean(data) != (initial or {})


class CountrySelect(forms.Select):
    """The country list with a stored name or code shown on its ISO code."""

    def format_value(self, value):
        return super().format_value(normalise_country(value) or value)


class CountryField(forms.ChoiceField):
    """A country from the one list, saved as its ISO alpha-2 code ("Eswatini" and "SZ" are both SZ)."""

    def __init__(self, *, required=False, **kwargs):
        kwargs.setdefault("widget", CountrySelect(attrs={"class": " ".join(SELECT_CLASSES)}))
        super().__init__(choices=[("", "—"), *country_choices()], required=required, **kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        return normalise_country(value) or value

    def prepare_value(self, value):
        return normalise_country(value) or value


class Badge(tuple):
    """A status shown as a badge: ``Badge(code, words)`` is coloured by its code in a list (unfold's ``label``
    table is keyed by codes) and reads its words, never the stored code in capitals ("Manual review", not
    MANUAL_REVIEW). Where a page shows it as plain text (a read-only field on a change form), it is its words."""

    def __new__(cls, code, words):
        return super().__new__(cls, (code, str(words)))

    def __str__(self) -> str:
        return self[1]
