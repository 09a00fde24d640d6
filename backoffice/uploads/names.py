"""Safe file names: what is left of a client's file name once nothing in it can steer a path or a header."""

import re
import unicodedata

MAX_FILENAME_LENGTH = 100
FALLBACK_STEM = "file"

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
_EXTENSION = re.compile(r"\.([A-Za-z0-9]{1,10})$")


def _ascii(text: str) -> str:
    # NFKD splits "é" into "e" + a combining accent and folds compatibility forms (full-width letters,
    # ligatures) into plain ones; whatever is still not ASCII (Cyrillic, CJK, bidi controls) is dropped.
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii")


def _clean(text: str) -> str:
    return _UNSAFE.sub("_", text).strip("_-")


def file_extension(name: str) -> str:
    """The lower-cased extension of a (safe or raw) file name with its dot, or '' when it has none."""
    match = _EXTENSION.search(name.strip().rstrip(". "))
    return "." + match.group(1).lower() if match else ""


def safe_filename(original: str | None, *, max_length: int = MAX_FILENAME_LENGTH) -> str:
    """``original`` reduced to ``[A-Za-z0-9_-]`` plus one lower-cased extension, never empty.

    The last path component only (``/`` and ``\\`` both separate), accents folded to ASCII, every other run
    of characters (spaces, dots, control characters, ``..``) one ``_``, no leading dot or dash, at most
    ``max_length`` characters with the extension kept. Inner dots go too, so ``photo.php.jpg`` becomes
    ``photo_php.jpg`` and no server can mistake a double extension.
    """
    text = (original or "").replace("\\", "/").rsplit("/", 1)[-1]
    text = _ascii(text).strip().rstrip(". ")
    extension = file_extension(text)
    stem = text[: -len(extension)] if extension else text
    stem = _clean(stem) or FALLBACK_STEM
    stem = stem[: max(1, max_length - len(extension))].rstrip("_-") or FALLBACK_STEM
    return stem + extension
