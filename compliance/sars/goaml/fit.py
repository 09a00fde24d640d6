"""Fitting names and free text to what the unit's schema accepts, before a report is written.

A unit's XSD restricts more than goAML's published structure does. The one we
know of restricts every name (a person's first, middle and last name, an
organisation's name, the reporting person's) to ``[a-zA-Z0-9 .'-]`` and caps
each element's length (50, 100, 255 or 4,000 characters). Our data holds
names in any script ("José", "Владимир", "习近平"), with punctuation such as
parentheses, so an export written as stored would be refused at the unit.
Every element of a report goes through ``fit`` (``compliance.sars.goaml.xml.add``):

* names are transliterated to Latin letters with anyascii (a table per code
  point, the library the PEP matcher uses), punctuation the pattern refuses is
  replaced ("&" by "and", the rest by a space), spaces are collapsed, and the
  result is cut to the element's length at a word boundary when there is one;
* free text keeps its script (XML carries UTF-8) and is cut to its length
  with a marker saying the full text is in our records;
* codes, dates, amounts and e-mail addresses are left alone (the settings and
  the writers make them valid; a transliterated e-mail would be someone else's).

``NAME_TAGS`` and ``MAX_LENGTH`` mirror the XSD the tests validate against
(``compliance/sars/tests/goaml/goaml_5_0_2_subset.xsd``); a unit with other
limits changes them here and in its XSD.
"""

import re

from anyascii import anyascii

# Elements whose text is a name: the unit's name pattern applies.
NAME_TAGS = frozenset({"first_name", "middle_name", "last_name", "prefix", "mothers_name", "alias", "title", "name"})
NAME_CHARACTERS = re.compile(r"[^a-zA-Z0-9 .'\-]")
# What a name with nothing left after fitting is written as: the element is required and must not be empty.
NAME_UNKNOWN = "Unknown"

# Element -> its maximum length in the schema; elements not listed are free text of TEXT_MAX.
TEXT_MAX = 4000
MAX_LENGTH: dict[str, int] = {
    **dict.fromkeys(("title", "tph_number", "tph_extension", "house_number", "apartment_number", "zip", "ssn"), 50),
    **dict.fromkeys(("passport_number", "incorporation_number", "account", "info_type"), 50),
    **dict.fromkeys(
        (
            "first_name",
            "middle_name",
            "prefix",
            "last_name",
            "mothers_name",
            "alias",
            "address",
            "additional_address_line1",
            "additional_address_line2",
            "transactionnumber",
            "tax_number",
            "tax_reg_number",
        ),
        100,
    ),
    **dict.fromkeys(
        (
            "town",
            "city",
            "state",
            "number",
            "issued_by",
            "id_number",
            "occupation",
            "employer_name",
            "source_of_wealth",
            "function_name",
            "name",
            "commercial_name",
            "business",
            "institution_name",
            "account_name",
            "entity_reference",
            "fiu_ref_number",
            "rentity_branch",
            "internal_ref_number",
            "transaction_location",
            "from_funds_comment",
            "to_funds_comment",
            "transmode_comment",
            "info_subject",
            "birth_place",
        ),
        255,
    ),
}
# Elements whose value is a code, a date, an amount, a number or an address we must not alter.
UNTOUCHED = frozenset(
    {
        "email",
        "rentity_id",
        "submission_code",
        "report_code",
        "submission_date",
        "report_date",
        "currency_code_local",
        "gender",
        "birthdate",
        "issue_date",
        "expiry_date",
        "date_transaction",
        "value_date",
        "transmode_code",
        "amount_local",
        "info_numeric",
        "info_date",
        "info_boolean",
        "indicator",
        "significance",
        "tph_contact_type",
        "tph_communication_type",
        "tph_country_prefix",
        "address_type",
        "type",
        "country_code",
        "issue_country",
        "nationality1",
        "nationality2",
        "nationality3",
        "residence",
        "passport_country",
        "pep_country",
        "from_country",
        "to_country",
        "from_funds_code",
        "to_funds_code",
    }
)
CUT_MARKER = " [cut: the full text is in the institution's records]"
_SPACES = re.compile(r"\s+")


def _cut_words(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, at the last space when one is in the second half."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip(" .-'") or head.rstrip()


def fit_name(value: str, limit: int = 100) -> str:
    """A name in the unit's pattern ``[a-zA-Z0-9 .'-]``, at most ``limit`` characters, never empty."""
    text = anyascii(str(value))
    text = text.replace("&", " and ").replace("`", "'")
    text = NAME_CHARACTERS.sub(" ", text)
    text = _SPACES.sub(" ", text).strip()
    return _cut_words(text, limit) or NAME_UNKNOWN


def fit_text(value: str, limit: int = TEXT_MAX) -> str:
    """Free text within ``limit`` characters, cut with a marker that says where the rest is."""
    text = str(value)
    if len(text) <= limit:
        return text
    if limit <= len(CUT_MARKER) * 2:
        return text[:limit]
    return text[: limit - len(CUT_MARKER)] + CUT_MARKER


def fit(tag: str, value: str) -> str:
    """The text of element ``tag`` as the schema accepts it (see the module's docstring)."""
    if tag in UNTOUCHED:
        return value
    limit = MAX_LENGTH.get(tag, TEXT_MAX)
    if tag in NAME_TAGS:
        return fit_name(value, limit)
    return fit_text(value, limit)
