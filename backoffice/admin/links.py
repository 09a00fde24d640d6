"""No admin page links to a page its viewer is refused (issue 31: a 403 behind a link reads as a broken site).

A read-only foreign key (a SAR's filer, a snooze's author, an audit entry's webhook) is drawn by Django and
Unfold as a link to the related record's change page, whoever looks: support and officers were shown links to
staff pages only admins open. ``ViewerMiddleware`` keeps the signed-in staff member of the request in a context
variable; ``install()`` (from ``BackofficeConfig.ready()``) makes the read-only field draw the link only when the
related model's admin lets that viewer see the record, and the plain name otherwise.
"""

import contextvars

from django.contrib.admin import helpers
from unfold.fields import UnfoldAdminReadonlyField

_request: contextvars.ContextVar = contextvars.ContextVar("admin_viewer_request", default=None)


class ViewerMiddleware:
    """The request, for the read-only fields of the admin pages it renders (set for its duration only)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)


def may_open(site, remote_model, remote_obj) -> bool:
    """Whether the request's viewer may open ``remote_obj``'s page on the admin ``site`` (no request: a page
    rendered outside a request, which links as before)."""
    request = _request.get()
    remote_admin = site._registry.get(remote_model)
    if request is None or remote_admin is None:
        return request is None
    return bool(remote_admin.has_view_or_change_permission(request, remote_obj))


def _guarded(original):
    def get_admin_url(self, remote_field, remote_obj):
        if not may_open(self.model_admin.admin_site, remote_field.model, remote_obj):
            return str(remote_obj)
        return original(self, remote_field, remote_obj)

    get_admin_url.__doc__ = original.__doc__
    return get_admin_url


def install() -> None:
    for field_class in (helpers.AdminReadonlyField, UnfoldAdminReadonlyField):
        if not getattr(field_class.get_admin_url, "_viewer_guarded", False):
            field_class.get_admin_url = _guarded(field_class.get_admin_url)
            field_class.get_admin_url._viewer_guarded = True
