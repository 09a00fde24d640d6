"""The text an entry is found by in the lists' search: its names without case, accents or punctuation."""

import re
import unicodedata


def fold(text: str) -> str:
    """``Abū al-Ḥasan`` -> ``abu al hasan``: what a search term and a name are compared as."""
    text = unicodedata.normalize("NFKD", text or "")
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())


def search_text(names: list[str]) -> str:
    """The names folded, one per line, so a search term never matches across two names."""
    return "\n".join(dict.fromkeys(fold(name) for name in names if fold(name)))
