"""No link of the admin site's frame leads nowhere: every same-site link and asset of the sign-in page and
the dashboard answers (following redirects), the favicon included, for every role."""

from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


class Links(HTMLParser):
    """Every href and src of a page, and the href of its icon links."""

    def __init__(self):
        super().__init__()
        self.targets: set[str] = set()
        self.icons: set[str] = set()

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name in ("href", "src"):
            if values.get(name):
                self.targets.add(values[name])
        if tag == "link" and "icon" in (values.get("rel") or "").split():
            self.icons.add(values.get("href") or "")


def links_of(page: bytes) -> Links:
    parser = Links()
    parser.feed(page.decode())
    return parser


def same_site(base: str, targets) -> set[str]:
    found = set()
    for target in targets:
        url = urljoin(base, target)
        parts = urlsplit(url)
        if parts.scheme in ("http", "https") and parts.netloc == "testserver" and not target.startswith("#"):
            found.add(parts.path + (f"?{parts.query}" if parts.query else ""))
    return found


def assert_all_answer(client: Client, base: str, targets) -> None:
    dead = {}
    for path in sorted(same_site("http://testserver" + base, targets)):
        response = client.get(path, follow=True)
        if response.status_code >= 400:
            dead[path] = response.status_code
    assert not dead, f"links on {base} that lead nowhere: {dead}"


def test_every_link_of_the_sign_in_page_answers_and_it_has_a_favicon():
    client = Client()
    links = links_of(client.get("/admin/login/").content)
    assert links.icons, "the page declares no icon: browsers ask for /favicon.ico"
    assert_all_answer(client, "/admin/login/", links.targets | links.icons)


@pytest.mark.parametrize("role", StaffRole.values)
def test_every_link_of_the_dashboard_answers_for_every_role(role):
    client = Client()
    client.force_login(StaffFactory(role=role))
    links = links_of(client.get("/admin/").content)
    assert links.icons
    assert_all_answer(client, "/admin/", links.targets | links.icons)


def test_the_favicon_browsers_ask_for_by_themselves_is_there():
    response = Client().get("/favicon.ico", follow=True)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/")


def test_the_root_of_the_site_leads_to_the_admin_site():
    response = Client().get("/", follow=True)
    assert response.status_code == 200 and response.redirect_chain[-1][0].startswith("/admin/")


# Links a walk never follows: signing out ends the walk's session, and static files are the sign-in test's.
NOT_FOLLOWED = ("/admin/logout/", "/static/", "/media/")


def _walked_pages(client: Client) -> list[str]:
    """The dashboard, every changelist the client opens, and the change page of each list's first record."""
    from django.contrib import admin
    from django.urls import NoReverseMatch, reverse

    pages = [reverse("admin:index")]
    for model in sorted(admin.site._registry, key=lambda m: m._meta.label):
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        try:
            pages.append(reverse(f"{name}_changelist"))
        except NoReverseMatch:
            continue
        first = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
        if first is not None:
            pages.append(reverse(f"{name}_change", args=[first]))
    return pages


@pytest.mark.parametrize("role", StaffRole.values)
def test_no_admin_page_links_to_a_page_the_role_is_refused(role, media):
    """Issue 31: every admin page a role opens (the dashboard, each list, a record of each) shows no link that
    answers that role 403 (Regulator statistics for officers, staff and vendor pages for finance, ...)."""
    from backoffice.tests.admin_fixtures import INSTANCES

    for make in INSTANCES.values():
        make()
    client = Client()
    client.force_login(StaffFactory(role=role))
    answers: dict[str, int] = {}
    refused: dict[str, set[str]] = {}
    for page in _walked_pages(client):
        response = client.get(page)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        for path in sorted(same_site("http://testserver" + page, links_of(response.content).targets)):
            if not path.startswith("/admin/") or path.startswith(NOT_FOLLOWED):
                continue
            # a page's permission is its path's, whatever the query (a list's filter and sort links, dozens a
            # list): one link per path is followed
            page_of = path.split("?", 1)[0]
            if page_of not in answers:
                answers[page_of] = client.get(path, follow=True).status_code
            if answers[page_of] == 403:
                refused.setdefault(path, set()).add(page)
    assert not refused, f"{role} is shown links it gets 403 on: " + "; ".join(
        f"{path} (on {', '.join(sorted(pages)[:3])})" for path, pages in sorted(refused.items())
    )
