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
