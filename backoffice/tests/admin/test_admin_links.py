"""No link of the admin site's frame leads nowhere: every same-site link and asset of the sign-in page and
the dashboard answers (following redirects), the favicon included, for every role. The walk of every admin page per
role (issue 31) also reads each page for what a user cannot be shown: a link they get 403 on, a form asking for raw
JSON, a UUID for a title."""

import json
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


# a stored code shown as it is stored (TOP_UP, MANUAL_REVIEW, DOCUMENTS_SUBMITTED): what a page should say in words
CODE = re.compile(r"[A-Z]{2,}(?:_[A-Z]{2,})+")
# where a code is not shown as words: option values are not text, scripts and code samples are not prose
NOT_WORDS = {"option", "script", "style", "code", "pre", "textarea"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)


class Links(HTMLParser):
    """Every href and src of a page, and the href of its icon links; and what the page shows as titles (the
    document's, its first heading, each inline row's: Unfold titles a row with the record's ``str()``) and the
    text of each textarea, by its name."""

    def __init__(self):
        super().__init__()
        self.targets: set[str] = set()
        self.icons: set[str] = set()
        self.titles: list[str] = []
        self.textareas: dict[str, str] = {}
        self._open: list[tuple[str, str]] = []  # (tag, what it collects) of the elements being read
        self._tags: list[str] = []  # the elements the parser is inside of, innermost last
        self.codes: set[str] = set()

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag not in VOID:
            self._tags.append(tag)
        for name in ("href", "src"):
            if values.get(name):
                self.targets.add(values[name])
        if tag == "link" and "icon" in (values.get("rel") or "").split():
            self.icons.add(values.get("href") or "")
        if tag in ("title", "h1") or (tag == "p" and "group/title" in (values.get("class") or "").split()):
            self._open.append((tag, "title"))
            self.titles.append("")
        elif tag == "textarea":
            self._open.append((tag, values.get("name") or "(unnamed)"))
            self.textareas[self._open[-1][1]] = ""

    def handle_endtag(self, tag):
        if tag in self._tags:
            while self._tags.pop() != tag:
                pass
        if self._open and self._open[-1][0] == tag:
            self._open.pop()

    def handle_data(self, data):
        text = data.strip()
        if CODE.fullmatch(text) and self._tags and self._tags[-1] not in NOT_WORDS:
            self.codes.add(text)
        if not self._open:
            return
        tag, what = self._open[-1]
        if what == "title":
            self.titles[-1] += data
        elif tag == "textarea":
            self.textareas[what] += data

    def raw_json(self) -> list[str]:
        """The textareas holding a JSON object or list: what a user cannot be asked to type."""
        found = []
        for name, text in self.textareas.items():
            if text.strip()[:1] in ("{", "["):
                try:
                    json.loads(text)
                except ValueError:
                    continue
                found.append(name)
        return found

    def uuid_titles(self) -> list[str]:
        return [" ".join(title.split()) for title in self.titles if UUID.search(title)]


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
# a record's id in an admin path (a UUID or a number): the pages of one kind differ only there
RECORD_ID = re.compile(r"/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)/", re.IGNORECASE)


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


def _html(response) -> Links | None:
    if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
        return None
    return links_of(response.content)


@pytest.mark.parametrize("role", StaffRole.values)
def test_every_admin_page_a_role_opens_is_readable_and_links_only_where_it_may_go(role, demo_data):
    """Issue 31: every admin page a role opens (the dashboard, each list, a record of each, and every page those
    link to: the statistics, a backtest, a proposal's decision page, ...) shows no link that answers that role 403
    (Regulator statistics for officers, staff and vendor pages for finance, ...), no textarea holding raw JSON (a
    rule's actions, a PEP's additional info, a key's scopes), no UUID for a title (a proposal, a snooze, a
    history row) and no stored code for words (TOP_UP, MANUAL_REVIEW: a label says it). The pages hold the demo,
    which has a record of every kind in every state a user meets first."""
    client = Client()
    client.force_login(StaffFactory(role=role))
    answers: dict[str, int] = {}
    refused: dict[str, set[str]] = {}
    raw_json: dict[str, set[str]] = {}
    uuid_titles: dict[str, set[str]] = {}
    codes: dict[str, set[str]] = {}

    def read(page: str, links: Links) -> None:
        # by kind of page, so that a message names each fault once, not once per record
        kind = RECORD_ID.sub("/<id>/", page.split("?", 1)[0])
        if found := links.raw_json():
            raw_json.setdefault(kind, set()).update(found)
        if found := links.uuid_titles():
            uuid_titles.setdefault(kind, set()).update(UUID.sub("<uuid>", title) for title in found)
        in_titles = {code for title in links.titles for code in CODE.findall(title)}
        # an export is the report's own document, the API's too (its history names states as the contract does)
        if (links.codes or in_titles) and "/export/" not in kind:
            codes.setdefault(kind, set()).update(links.codes | in_titles)

    for page in _walked_pages(client):
        links = _html(client.get(page))
        if links is None:
            continue
        read(page, links)
        for path in sorted(same_site("http://testserver" + page, links.targets)):
            if not path.startswith("/admin/") or path.startswith(NOT_FOLLOWED):
                continue
            # a page's permission is its kind's, whatever the query (a list's filter and sort links, dozens a
            # list) or the record (a list links each of its rows): one link per kind of page is followed
            page_of = RECORD_ID.sub("/<id>/", path.split("?", 1)[0])
            if page_of not in answers:
                response = client.get(path, follow=True)
                answers[page_of] = response.status_code
                if (followed := _html(response)) is not None:
                    read(path, followed)
            if answers[page_of] == 403:
                refused.setdefault(path, set()).add(page)
    assert not refused, f"{role} is shown links it gets 403 on: " + "; ".join(
        f"{path} (on {', '.join(sorted(pages)[:3])})" for path, pages in sorted(refused.items())
    )
    assert not raw_json, f"{role} is asked for raw JSON: {raw_json}"
    assert not uuid_titles, f"{role} reads UUIDs as titles: {uuid_titles}"
    assert not codes, f"{role} reads stored codes for words: {codes}"
