"""Reading request input (bodies and query strings) into domain values, and naming its problems.

Serializers and filtersets translate the API's camelCase names into the
domain's (``source=``) and check types; what they refuse becomes one 400 in
the envelope, with every field's reasons in ``details``. The top-level
``message`` is "Validation error" unless the serializer or filterset declares
a ``headlines`` entry for the first failing field: the interface's own texts
("Invalid priority value", "Search term is required") live there, beside the
field they describe, not in view bodies.

``headlines`` maps a field name to a message for any of its errors, or to
``{error_code: message}`` for particular ones.
"""

from collections.abc import Mapping

from backoffice.errors import ValidationFailed

GENERIC = "Validation error"


def flatten(detail, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail as {field.path: [reason, ...]}, strings only."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "nonFieldErrors" if key in ("non_field_errors", "__all__") else str(key)
            for k, v in flatten(value, f"{prefix}.{name}" if prefix else name).items():
                out.setdefault(k, []).extend(v)
    elif isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            out[prefix or "nonFieldErrors"] = [str(item) for item in detail]
        else:
            for index, item in enumerate(detail):
                for k, v in flatten(item, f"{prefix}[{index}]" if prefix else f"[{index}]").items():
                    out.setdefault(k, []).extend(v)
    else:
        out[prefix or "nonFieldErrors"] = [str(detail)]
    return out


def _codes(errors) -> list[str]:
    if isinstance(errors, Mapping):
        return [code for value in errors.values() for code in _codes(value)]
    if isinstance(errors, (list, tuple)):
        return [code for value in errors for code in _codes(value)]
    return [getattr(errors, "code", None) or "invalid"]


def headline(source, errors: Mapping) -> str:
    """The message of the first failing field that ``source`` (a serializer or filterset) has a headline for."""
    table = getattr(source, "headlines", None) or {}
    for name, field_errors in errors.items():
        entry = table.get(name)
        if isinstance(entry, str):
            return entry
        if isinstance(entry, Mapping):
            for code in _codes(field_errors):
                if code in entry:
                    return entry[code]
    return GENERIC


def input_error(source, errors: Mapping) -> ValidationFailed:
    return ValidationFailed(headline(source, errors), details=flatten(dict(errors)))


def validated(serializer_class, data, *, context: dict | None = None) -> dict:
    """The serializer's validated data (domain names), or one 400 naming every problem."""
    serializer = serializer_class(data=data, context=context or {})
    if not serializer.is_valid():
        raise input_error(serializer, serializer.errors)
    return serializer.validated_data


def filterset_errors(filterset) -> dict:
    """A filterset's form errors in DRF's shape (lists of messages carrying their codes)."""
    from rest_framework.exceptions import ErrorDetail

    return {
        name: [ErrorDetail(message, code=error.code or "invalid") for error in errors for message in error.messages]
        for name, errors in filterset.form.errors.as_data().items()
    }


def api_names(serializer_class) -> dict[str, str]:
    """Domain name -> API name for a serializer's fields (``source`` and, for a foreign key, its field name).

    A service that refuses a value names the domain field (``entity_user``,
    ``related_transaction_ids``); the API answers with the name the client
    sent (``entityUserId``, ``relatedTransactionIds``).
    """
    names: dict[str, str] = {}
    for field_name, field in serializer_class().fields.items():
        source = field.source or field_name
        if source == "*":
            continue
        names[source] = field_name
        if source.endswith("_id"):
            names.setdefault(source[: -len("_id")], field_name)
    return names


def rename_details(details: dict[str, list[str]] | None, names: Mapping[str, str]) -> dict[str, list[str]] | None:
    if not details:
        return details
    renamed: dict[str, list[str]] = {}
    for key, reasons in details.items():
        head, dot, rest = key.partition(".")
        new_key = names.get(head, head) + (dot + rest if dot else "")
        renamed.setdefault(new_key, []).extend(reasons)
    return renamed
