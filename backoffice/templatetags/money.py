"""``{{ amount|money }}`` renders ``SZL 1,334.06`` (``backoffice.money``); a builtin of every template."""

from django import template

from backoffice.money import money as format_money

register = template.Library()


@register.filter
def money(value, currency: str = "SZL") -> str:
    return format_money(value, currency)
