"""The customer view: sections of the KYC user page that apps contribute (kyc itself, compliance, verification).

kyc owns the user page but must not import the apps above it, so a section
is a ``Panel`` that an app registers from its ``AppConfig.ready()``::

    from kyc import panels

    panels.register(
        panels.Panel(
            key="pep_matches",                 # unique; registering the key again replaces the panel
            title="PEP matches",
            position=40,                       # lowest first on the page
            visible=panels.for_facet(Facet.PEP_MATCHES),  # backoffice.visibility
            render=render_pep_matches,         # (request, user) -> HTML string, escaped by its template
        )
    )

``visible(request)`` decides who sees a panel; the customer view is for
compliance roles, and nothing of it may reach support or finance
(tipping-off), so a panel that shows AML reasoning names its facet of the
visibility policy (``backoffice.visibility``) explicitly. ``render(request, user)`` returns the panel's HTML (render a
template with ``render_to_string``) and must cost a fixed number of queries
whatever the user's history: the user page has a query-count test that
grows alerts, SARs and transactions.

Keys and positions in use: ``risk`` 10, ``alerts`` 20, ``sars`` 30,
``threshold_reports`` 35 (cash threshold reports), ``pep_matches`` 40 (PEP screening),
``verifications`` 50 (kyc's records until the verification app registers its own panel under the same key),
``verification_status`` 50 (support's read-only status of the identity check: stage, what is missing),
``counterparties`` 60, ``money_flows`` 70.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.safestring import mark_safe

from backoffice.visibility import sees


@dataclass(frozen=True)
class Panel:
    key: str
    title: str
    position: int
    render: Callable
    visible: Callable = field(default=lambda request: False)


_PANELS: dict[str, Panel] = {}
logger = logging.getLogger("kyc.panels")


def register(panel: Panel) -> Panel:
    """Add (or, same key, replace) a section of the user page."""
    _PANELS[panel.key] = panel
    return panel


def unregister(key: str) -> None:
    _PANELS.pop(key, None)


def for_capability(capability: str) -> Callable:
    """A ``visible`` test: the signed-in staff member holds ``capability`` (backoffice.roles)."""
    return lambda request: bool(
        getattr(request.user, "is_authenticated", False) and request.user.has_capability(capability)
    )


def for_facet(facet) -> Callable:
    """A ``visible`` test: the signed-in staff member may see ``facet`` (backoffice.visibility)."""
    return lambda request: sees(getattr(request, "user", None), facet)


def panels_for(request) -> list[Panel]:
    """The panels the signed-in staff member may see, in page order."""
    return sorted((p for p in _PANELS.values() if p.visible(request)), key=lambda p: (p.position, p.key))


@dataclass(frozen=True)
class RenderedPanel:
    key: str
    title: str
    html: str


def render_panels(request, user) -> list[RenderedPanel]:
    """Each visible panel's HTML for ``user``; a panel that fails says so instead of breaking the page."""
    rendered = []
    for panel in panels_for(request):
        try:
            html = panel.render(request, user)
        except Exception:  # a broken section must not hide the rest of the customer view
            logger.exception("customer view panel %s failed", panel.key)
            html = mark_safe('<p class="vk-error">This section could not be shown.</p>')  # a constant, no input
        rendered.append(RenderedPanel(key=panel.key, title=panel.title, html=html))
    return rendered
