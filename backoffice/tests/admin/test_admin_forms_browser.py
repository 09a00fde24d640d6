"""Every admin add and change form, filled and saved in a real browser (issue 21): never a 500 or an error page.

The browser twin of ``test_admin_forms_submitted``, on the same fixture tables (``admin_fixtures``). It walks
``admin.site``'s registry, so a new ModelAdmin is covered without a line here, and signs in once per role, as the
least powerful role (``StaffRole``'s order) the admin lets add, or change, each model. Then, for each model:

- add: opens the add page, fills the app's ``ADD_DATA`` into the inputs a user sees (a choice picked in its select,
  a box ticked, a date typed into the date picker's input, an inline row added with its "Add another" link) and
  clicks the Save button;
- change: opens the page of the app's ``INSTANCES`` record and clicks Save with nothing changed (but what the form
  asks on every save, the app's ``CHANGE_DATA``: a rule's reason for the new version);
- a decision page (``DECISION_PAGES``): writes the note its form asks for and presses each decision in turn, each
  on a fresh record.

Each must answer the POST with a redirect to the model's pages showing a success message, the record saved; the form
must not be refused by the browser (a required input the page leaves empty), answered with its errors, a server
error, or a JavaScript error. Every problem found is listed at the end, each with its model, step and role.
"""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Error as PlaywrightError

from backoffice.tests.admin_fixtures import (
    ADD_DATA,
    ADD_QUERY,
    CHANGE_DATA,
    DECISION_PAGES,
    INSTANCES,
    ROLES,
    editable_models,
    may,
    model_admin_of,
)
from backoffice.tests.browser import new_page, sign_in
from backoffice.tests.factories import StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Unfold draws the Save button in the sticky submit row below the form, tied to it by its form attribute
SAVE = "[name=_save]"
# Unfold draws messages as coloured boxes above the page's content (unfold/helpers/messages): green for success,
# amber for a warning such as a new service key's "copy it now, it is not shown again"; an error is an errornote
DONE = "#main ul > li > .bg-green-100, #main ul > li > .bg-orange-100"
ERRORS = ".errornote, .errorlist"
NOTE = "Written by the browser test that submits every admin form"
INLINE_FIELD = re.compile(r"^(?P<prefix>.+)-\d+-[^-]+$")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
# a textarea holding a JSON document: what a user cannot be asked to type (issue 31)
JSON_TEXTAREAS = "els => els.filter(e => /^\\s*[\\[{]/.test(e.value)).map(e => e.name)"


def assert_readable(page) -> None:
    """No raw JSON textarea in the page's forms, no UUID in its title or heading (issue 31)."""
    raw = page.locator("#content textarea, main textarea").evaluate_all(JSON_TEXTAREAS)
    assert not raw, f"raw JSON in textareas {raw}"
    titles = [page.title(), *page.locator("#content h1, main h1").all_inner_texts()]
    assert not [t for t in titles if UUID.search(t)], f"a UUID in the title: {titles}"


class Session:
    """One browser context signed in per role, and the server and script errors its pages met."""

    def __init__(self, browser, live_server):
        self.browser, self.live_server = browser, live_server
        self.pages = {}
        self.errors: list[str] = []

    def page(self, role: str):
        if role not in self.pages:
            page = new_page(self.browser)
            page.on("response", lambda r: r.status >= 500 and self.errors.append(f"{r.status} from {r.url}"))
            page.on("pageerror", lambda error: self.errors.append(f"JavaScript error: {error}"))
            self.pages[role] = sign_in(page, self.live_server, StaffFactory(role=role).email)
        return self.pages[role]

    def url(self, name: str, *args, query: str = "") -> str:
        return self.live_server.url + reverse(f"admin:{name}", args=args) + query


def _admin_name(model, view: str) -> str:
    return f"{model._meta.app_label}_{model._meta.model_name}_{view}"


def _autocomplete(page, select, model, name: str, value: str) -> None:
    """Pick the record ``value`` in a select2 autocomplete (Unfold's, and the admin's ``autocomplete_fields``).

    The <select> itself is hidden behind select2, so a user's way is: open the box, let it search, click the result
    by its text. A result carries no record id a page can read (select2 keeps it in a cache of its own), so its text,
    the record's ``str()`` as the admin's autocomplete answers it, is looked up here. The tables' records are few in
    a test database, so the first page of results holds the one wanted.
    """
    label = str(model._meta.get_field(name).remote_field.model._default_manager.get(pk=value))
    select.locator("xpath=following-sibling::span[contains(@class, 'select2')][1]").click()
    results = page.locator(".select2-container--open .select2-results__option[role=option]")
    results.first.wait_for()
    wanted = results.filter(has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))
    assert wanted.count(), f"{label} is not among the autocomplete's results: {results.all_inner_texts()}"
    wanted.first.click()
    assert select.input_value() == value, f"{name}: picked {select.input_value()}, not {value}"


def _fill(page, form, model, name: str, value) -> None:
    """Put ``value`` into the form's input ``name`` as a user would (by its type); a list is a multiple choice."""
    values = [str(v) for v in (value if isinstance(value, list | tuple) else [value])]
    field = form.locator(f"[name='{name}']")
    inline = INLINE_FIELD.match(name)
    for _ in range(20):  # an inline's row appears when its "Add another" link is clicked
        if field.count() or not inline:
            break
        form.locator(f"#{inline['prefix']}-group .add-row a").click()
    assert field.count(), f"no input named {name} on the page"
    first = field.first
    tag, kind = first.evaluate("e => [e.tagName.toLowerCase(), (e.getAttribute('type') || '').toLowerCase()]")
    if tag == "select":
        if "select2-hidden-accessible" in (first.get_attribute("class") or ""):
            for item in values:
                _autocomplete(page, first, model, name, item)
        else:
            first.select_option(values)
    elif kind == "checkbox" and field.count() > 1:  # a multiple choice drawn as boxes
        for item in values:
            form.locator(f"[name='{name}'][value='{item}']").check()
    elif kind == "checkbox":
        first.set_checked(values[0].lower() in ("1", "true", "on", "yes"))
    elif kind == "radio":
        form.locator(f"[name='{name}'][value='{values[0]}']").check()
    else:
        assert first.is_editable(), f"{name} is a {kind or tag} a user cannot type into"
        first.fill(values[0])


def _save_button(page, model):
    form_id = f"{model._meta.model_name}_form"
    return page.locator(f"#{form_id} {SAVE}, [form={form_id}]{SAVE}").first


def _submit(page, form, button) -> str:
    """Click ``button`` of ``form`` as a user does; the page's path it lands on (the browser followed a redirect)."""
    # an admin form is novalidate (the server's errors are shown), a form of a page of our own may not be
    invalid = form.evaluate(
        "f => f.noValidate || f.checkValidity() ? [] : [...f.elements].filter(e => !e.checkValidity()).map(e => e.name)"
    )
    assert not invalid, f"the browser refuses to submit the form: {invalid} invalid (required or malformed)"
    with page.expect_navigation() as navigation:
        button.click()
    response = navigation.value
    errors = page.locator(ERRORS)
    assert not errors.count(), f"answered with errors: {' | '.join(errors.all_inner_texts())[:600]}"
    posted = response.request.redirected_from
    assert posted is not None and posted.method == "POST", f"the POST was answered {response.status}, no redirect"
    assert page.locator(DONE).count(), f"no success message on {page.url}"
    return re.sub(r"^https?://[^/]+", "", page.url).split("?")[0]


def _add(session, label, model, model_admin) -> str | None:
    role = next((r for r in ROLES if may(model_admin, r, "add")), None)
    if role is None:
        return None
    page = session.page(role)
    url = session.url(_admin_name(model, "add"), query=ADD_QUERY.get(label, ""))
    data = ADD_DATA[label]() if label in ADD_DATA else None  # the records it names exist before the page opens
    page.goto(url)
    if not page.url.startswith(url.split("?")[0]):
        # the admin hands "add" over to a page of its own (a SAR's subject is chosen first), its app's tests fill it
        assert page.url.startswith(session.url(_admin_name(model, "changelist"))), f"add went to {page.url}"
        return role
    assert data is not None, f"{label}: its app's tests/admin_forms.py needs ADD_DATA for a valid add"
    assert_readable(page)
    form = page.locator(f"form#{model._meta.model_name}_form")
    before = model._default_manager.count()
    for name, value in data.items():
        _fill(page, form, model, name, value)
    landed = _submit(page, form, _save_button(page, model))
    assert landed.startswith(reverse(f"admin:{_admin_name(model, 'changelist')}")), f"landed on {landed}"
    assert model._default_manager.count() == before + 1, "the add did not save a record"
    return role


def _change(session, label, model, model_admin) -> str | None:
    obj = INSTANCES[label]()
    role = next((r for r in ROLES if may(model_admin, r, "change", obj)), None)
    if role is None:
        return None
    page = session.page(role)
    page.goto(session.url(_admin_name(model, "change"), obj.pk))
    assert_readable(page)
    changelist = reverse(f"admin:{_admin_name(model, 'changelist')}")
    if label in DECISION_PAGES:
        _decide(session, page, label, changelist, obj)
        return role
    form = page.locator(f"form#{model._meta.model_name}_form")
    save = _save_button(page, model)
    assert save.count(), f"{role} may change it, but the page has no Save button"
    for name, value in CHANGE_DATA.get(label, dict)().items():
        _fill(page, form, model, name, value)
    landed = _submit(page, form, save)
    assert landed.startswith(changelist), f"landed on {landed}"
    assert model._default_manager.filter(pk=obj.pk).exists(), "the record is gone"
    return role


def _decide(session, page, label, changelist, obj) -> None:
    """Each decision of the page's form, on a fresh record: its required notes written, its button pressed."""
    model = type(obj)
    decisions = page.locator("#content form[method=post i]").first.locator("button[type=submit], input[type=submit]")
    assert decisions.count(), "the decision page has no form with a decision to press"
    for index in range(decisions.count()):
        if index:
            obj = INSTANCES[label]()
            page.goto(session.url(_admin_name(model, "change"), obj.pk))
        form = page.locator("#content form[method=post i]").first
        for field in form.locator("textarea[required], input[required]:not([type=hidden])").all():
            if not field.input_value():
                field.fill(NOTE)
        button = form.locator("button[type=submit], input[type=submit]").nth(index)
        landed = _submit(page, form, button)
        assert landed.startswith(changelist), f"decision {index + 1} landed on {landed}"


def test_every_admin_form_is_filled_and_saved_in_a_browser(browser, live_server, media):
    labels = editable_models()
    missing = sorted(set(labels) - set(INSTANCES))
    assert not missing, f"registered admins without INSTANCES in their app's tests/admin_forms.py: {missing}"
    session, problems, saved = Session(browser, live_server), [], set()
    for label in labels:
        model, model_admin = model_admin_of(label)
        for step in (_add, _change):
            seen = len(session.errors)
            try:
                if step(session, label, model, model_admin):
                    saved.add(label)
            except (AssertionError, PlaywrightError) as error:
                problems.append(f"{label} {step.__name__[1:]}: {str(error).splitlines()[0]}")
            problems.extend(f"{label} {step.__name__[1:]}: {error}" for error in session.errors[seen:])
    assert not problems, "\n".join(problems)
    # a permission read wrongly would skip the forms and pass an empty walk: every model some role may add went
    # through its form (a model no role may change one record of has none: an alert's page is read-only)
    addable = {label for label in labels if any(may(model_admin_of(label)[1], role, "add") for role in ROLES)}
    assert addable and addable <= saved, addable - saved
