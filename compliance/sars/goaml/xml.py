"""Small writers every part of a goAML report uses: elements, ISO date-times, amounts, country codes."""

import datetime as dt
import re
from decimal import Decimal
from xml.etree import ElementTree as ET

from django.utils import timezone

from compliance.sars.goaml.fit import fit
from names.countries import normalise_country

# Characters XML 1.0 cannot carry at all, escaped or not; free text loses them.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

# How people write a nationality ("Swazi") where a country is asked for; ISO's names cover the rest
# ("Eswatini", "SWZ", "South Africa"). The region's customers first.
_DEMONYMS = {
    "swazi": "SZ", "liswati": "SZ", "emaswati": "SZ", "south african": "ZA", "mozambican": "MZ",
    "mosotho": "LS", "basotho": "LS", "motswana": "BW", "batswana": "BW", "zimbabwean": "ZW", "zambian": "ZM",
    "malawian": "MW", "namibian": "NA", "angolan": "AO", "tanzanian": "TZ", "kenyan": "KE", "ugandan": "UG",
    "nigerian": "NG", "ghanaian": "GH", "congolese": "CD", "ethiopian": "ET", "somali": "SO", "indian": "IN",
    "pakistani": "PK", "bangladeshi": "BD", "chinese": "CN", "british": "GB", "american": "US", "portuguese": "PT",
}  # fmt: skip


def add(parent: ET.Element, tag: str, text=None) -> ET.Element:
    """A child element; its text fitted to the unit's pattern and length for ``tag`` (``fit``)."""
    element = ET.SubElement(parent, tag)
    if text is not None:
        element.text = fit(tag, NOT_XML.sub("", str(text)))
    return element


def add_optional(parent: ET.Element, tag: str, text) -> None:
    """An optional element, left out when there is nothing to say, also once what XML cannot carry is removed
    (the schema's minimum lengths: an empty optional element does not validate, an absent one does)."""
    if text is None or not NOT_XML.sub("", str(text)).strip():
        return
    add(parent, tag, text)


def iso_datetime(value: dt.datetime | dt.date) -> str:
    """goAML dates are xs:dateTime without a zone; ours are UTC. A date is its midnight."""
    if isinstance(value, dt.datetime):
        return timezone.localtime(value, dt.UTC).replace(tzinfo=None, microsecond=0).isoformat()
    return dt.datetime.combine(value, dt.time.min).isoformat()


def amount(value: Decimal) -> str:
    return f"{Decimal(value).quantize(Decimal('0.01'))}"


def country_code(value: str | None) -> str | None:
    """The ISO 3166 alpha-2 code of a code or country name, or None when it names no country."""
    return normalise_country(value) if value else None


def nationality_code(value: str | None) -> str | None:
    """A nationality written as a code, a country or a demonym ("Swazi") as alpha-2, or None."""
    if not value or not value.strip():
        return None
    return _DEMONYMS.get(" ".join(value.lower().split())) or country_code(value)
