"""The admin site's sidebar, assembled from what each app contributes.

The foundation knows no domain app, so each app adds its own section from its
``AppConfig.ready()`` with ``add_section``; unfold calls ``sidebar(request)``
(``UNFOLD["SIDEBAR"]["navigation"]``) on every page. Sections are shown by
their ``position`` (lowest first), so the order does not depend on which app
happened to start first.
"""

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Item:
    """One sidebar link; ``visible(request)`` decides whether the signed-in staff member sees it."""

    title: str
    icon: str
    url_name: str
    visible: Callable = field(default=lambda request: True)


@dataclass(frozen=True)
class Section:
    title: str
    items: tuple[Item, ...]
    position: int


_SECTIONS: list[Section] = []


def add_section(*, title: str, items: list[Item], position: int) -> None:
    """Contribute a sidebar section; adding the same title again replaces it (``ready()`` may run twice)."""
    _SECTIONS[:] = [s for s in _SECTIONS if s.title != title]
    _SECTIONS.append(Section(title=title, items=tuple(items), position=position))


def has_perm(perm: str) -> Callable:
    return lambda request: request.user.has_perm(perm)


def has_capability(capability: str) -> Callable:
    """For links the admin-site permissions do not express (SARs: compliance roles only, for tipping-off)."""
    return lambda request: request.user.is_authenticated and request.user.has_capability(capability)


def sidebar(request) -> list[dict]:
    from django.urls import reverse

    sections = sorted(_SECTIONS, key=lambda s: s.position)
    overview = [{"title": "Dashboard", "icon": "dashboard", "link": reverse("admin:index")}]
    navigation = [{"title": "Overview", "items": overview}]
    for section in sections:
        items = [
            {"title": item.title, "icon": item.icon, "link": reverse(item.url_name)}
            for item in section.items
            if item.visible(request)
        ]
        if items:
            navigation.append({"title": section.title, "items": items})
    return navigation
