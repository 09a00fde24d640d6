from django import template

from backoffice.files import signed_file_url

register = template.Library()


@register.filter
def signed_url(document) -> str:
    """A short-lived link to a stored document (never a public media path)."""
    return signed_file_url(document.file.name, storage=document.file.storage)
