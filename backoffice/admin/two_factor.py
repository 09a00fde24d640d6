"""Two-factor sign-in in the admin site: the sign-in's second step, and each staff member's own set-up page.

The site's login (``install`` replaces ``admin.site.login``, which every page without permission calls or
redirects to) checks the password as before (``backoffice.auth.admin_login``). For staff with a second factor,
or whose role requires one (``STAFF_MFA_REQUIRED_ROLES``), the right password does *not* sign in: the session
only remembers, for ``STAFF_MFA_STEP_MINUTES``, who gave it, and the next page asks for the code (or, for a
required role not enrolled yet, sets up the app first). Only then is the session signed in. Wrong codes count
towards the same lockouts as wrong passwords, per address and per account.

"Two-factor sign-in" (``admin:staff_two_factor``, in the account menu and the sidebar) is where a signed-in staff
member sets up an authenticator app (QR code, confirmed by a first code), sees recovery codes once, makes new
ones, or removes the second factor with password and code.
"""

import time
from functools import partial, wraps
from types import MethodType

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login, logout
from django.contrib.auth.views import LoginView
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from unfold.widgets import BASE_INPUT_CLASSES

from backoffice.auth import login_guard, mfa, tokens
from backoffice.auth.admin_login import ADDRESS_GROUP, TOO_MANY
from backoffice.errors import DomainError
from backoffice.models import Staff
from backoffice.services import mfa as mfa_services

PENDING = "staff_mfa_pending"
BACKEND = "django.contrib.auth.backends.ModelBackend"
INPUT = " ".join(BASE_INPUT_CLASSES)


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Code",
        max_length=32,
        help_text="The 6-digit code your authenticator app shows now, or one of your recovery codes.",
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autofocus": "", "class": INPUT, "spellcheck": "false"}
        ),
    )


class FirstCodeForm(CodeForm):
    code = forms.CharField(
        label="Code from the app",
        max_length=32,
        help_text="After scanning, type the 6-digit code the app shows, to prove it is set up.",
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "class": INPUT}),
    )


class RemoveForm(forms.Form):
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password", "class": INPUT}),
    )
    code = forms.CharField(
        label="Code",
        max_length=32,
        help_text="The app's current code, or a recovery code.",
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "class": INPUT}),
    )


# ------------------------------------------------------------------ the sign-in's second step


class TwoStepLoginView(LoginView):
    """Django's login view, except that a right password of staff with a second factor leads to the code step."""

    def form_valid(self, form):
        staff = form.get_user()
        step = getattr(form, "second_step", None)
        if step is None:
            return super().form_valid(form)
        self.request.session[PENDING] = {
            "staff": str(staff.pk),
            "login": form.login_name,
            # a new password in the meantime voids the step, as it would void a session
            "hash": staff.get_session_auth_hash(),
            "since": int(time.time()),
            "next": self.get_success_url(),
        }
        name = "admin:staff_mfa_code" if step == mfa.CODE else "admin:staff_mfa_enrol"
        return HttpResponseRedirect(reverse(name))


def site_login(site, request, extra_context=None):
    """The admin site's login page (Django's ``AdminSite.login``, with ``TwoStepLoginView``)."""
    if request.method == "GET" and site.has_permission(request):
        return HttpResponseRedirect(reverse("admin:index", current_app=site.name))
    context = {
        **site.each_context(request),
        "title": "Log in",
        "subtitle": None,
        "app_path": request.get_full_path(),
        "username": request.user.get_username(),
    }
    if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
        context[REDIRECT_FIELD_NAME] = reverse("admin:index", current_app=site.name)
    context.update(extra_context or {})
    request.current_app = site.name
    return TwoStepLoginView.as_view(
        extra_context=context,
        authentication_form=site.login_form,
        template_name=site.login_template or "admin/login.html",
    )(request)


def _pending(request) -> tuple[Staff | None, dict]:
    """The staff member who gave the right password in this session, while the step is still open."""
    data = request.session.get(PENDING)
    if not isinstance(data, dict):
        return None, {}
    if time.time() - data.get("since", 0) > settings.STAFF_MFA_STEP_MINUTES * 60:
        request.session.pop(PENDING, None)
        return None, {}
    staff = Staff.objects.filter(pk=data.get("staff"), is_active=True).first()
    if staff is None or not constant_time_compare(staff.get_session_auth_hash(), data.get("hash", "")):
        request.session.pop(PENDING, None)
        return None, {}
    return staff, data


def _start_again(request, text="Sign in again: the time to give the code ran out."):
    request.session.pop(PENDING, None)
    messages.info(request, text)
    return HttpResponseRedirect(reverse("admin:login"))


def _refused(request, staff, data, form, error: DomainError) -> bool:
    """Count a wrong code like a wrong password; True when the account got locked by it (the step ends)."""
    if isinstance(error, mfa.OtpInvalid | mfa.OtpRequired):
        login_guard.record_address_failure(request, group=ADDRESS_GROUP)
        if login_guard.record_failure(kind=tokens.STAFF, login=data["login"], principal_id=staff.pk, via="admin site"):
            request.session.pop(PENDING, None)
            form.add_error(None, login_guard.AccountLocked().message)
            return True
        form.add_error("code", "That code is wrong, expired or already used.")
        return False
    form.add_error("code", error.message)
    return False


def _guards(request, data) -> str | None:
    """The lockouts' refusal, if any, before a code is looked at."""
    try:
        login_guard.check_address(request, group=ADDRESS_GROUP)
        login_guard.check_account(kind=tokens.STAFF, login=data["login"])
    except login_guard.AccountLocked as exc:
        request.session.pop(PENDING, None)
        return exc.message
    except login_guard.TooManyAttempts:
        return TOO_MANY
    return None


def _sign_in(request, staff, data) -> str:
    """The second factor was given: the session is signed in now. Where to go next."""
    login_guard.record_success(kind=tokens.STAFF, login=data["login"])
    request.session.pop(PENDING, None)
    login(request, staff, backend=BACKEND)
    return data.get("next") or reverse("admin:index")


def _attempt(request, staff, data, form, spend):
    """A posted code, behind the lockouts: ``spend(code)``'s response, or None (the form then says why not)."""
    if request.method != "POST" or not form.is_valid():
        return None
    refusal = _guards(request, data)
    if refusal:
        form.add_error(None, refusal)
        return None
    try:
        return spend(form.cleaned_data["code"])
    except DomainError as exc:
        _refused(request, staff, data, form, exc)
        return None


def _step_page(site, request, template, form, staff, **extra):
    context = {**site.each_context(request), "form": form, "staff": staff, **extra}
    return TemplateResponse(request, f"admin/backoffice/{template}", context)


def second_step(view):
    """A page of the sign-in's second step: only while a right password is waiting for its code."""

    @wraps(view)
    @sensitive_post_parameters("code")
    @csrf_protect
    @never_cache
    def page(request, *, site):
        staff, data = _pending(request)
        if staff is None:
            return _start_again(request)
        return view(request, site=site, staff=staff, data=data)

    return page


@second_step
def code_step(request, *, site, staff, data):
    """The code after the password, for staff with a second factor."""
    form = CodeForm(request.POST or None)

    def spend(code):
        try:
            mfa_services.staff_second_factor(staff=staff, otp=code, via="admin site")
        except mfa.EnrolmentRequired:  # removed meanwhile, and the role requires one
            return HttpResponseRedirect(reverse("admin:staff_mfa_enrol"))
        return HttpResponseRedirect(_sign_in(request, staff, data))

    done = _attempt(request, staff, data, form, spend)
    if done is not None:
        return done
    return _step_page(site, request, "mfa_code.html", form, staff, title="Two-factor sign-in", subtitle="One more step")


@second_step
def enrol_step(request, *, site, staff, data):
    """After the password, for a role that requires a second factor its member has not set up: set it up now."""
    if mfa.is_enrolled(staff):
        return HttpResponseRedirect(reverse("admin:staff_mfa_code"))
    device = mfa.totp_device(staff, confirmed=False) or mfa_services.staff_mfa_start(staff=staff)
    form = FirstCodeForm(request.POST or None)

    def spend(code):
        codes = mfa_services.staff_mfa_confirm(staff=staff, code=code)
        return _recovery_codes_page(site, request, codes, after=_sign_in(request, staff, data), first=True)

    done = _attempt(request, staff, data, form, spend)
    if done is not None:
        return done
    texts = {"title": "Set up two-factor sign-in", "subtitle": "Your role requires it"}
    return _step_page(site, request, "mfa_enrol_step.html", form, staff, **texts, **_setup(device))


# ------------------------------------------------------------------ a staff member's own page


def _setup(device) -> dict:
    uri = device.config_url
    return {"qr_svg": mfa.qr_svg(uri), "secret": mfa.base32_secret(device), "otpauth_uri": uri}


def _recovery_codes_page(site, request, codes, *, after: str, first: bool):
    context = {
        **site.each_context(request),
        "title": "Your recovery codes",
        "codes": [mfa.shown_code(code) for code in codes],
        "after": after,
        "first": first,
    }
    response = TemplateResponse(request, "admin/backoffice/mfa_recovery_codes.html", context)
    response["Cache-Control"] = "no-store"  # shown once: never from a cache or the back button
    return response


@sensitive_post_parameters("code", "password")
@never_cache
def manage(request, *, site):
    """Set up, confirm, make new recovery codes, remove: one page, one form per step (``action``)."""
    staff = request.user
    here = reverse("admin:staff_two_factor")
    first_code, remove = FirstCodeForm(), RemoveForm()
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "start":
                mfa_services.staff_mfa_start(staff=staff)
                return HttpResponseRedirect(here)
            if action == "confirm":
                first_code = FirstCodeForm(request.POST)
                if first_code.is_valid():
                    codes = mfa_services.staff_mfa_confirm(staff=staff, code=first_code.cleaned_data["code"])
                    messages.success(request, "Two-factor sign-in is on: every sign-in now asks for a code.")
                    return _recovery_codes_page(site, request, codes, after=here, first=True)
            elif action == "regenerate":
                codes = mfa_services.staff_mfa_recovery_regenerate(staff=staff)
                messages.success(request, "New recovery codes made: the old ones no longer work.")
                return _recovery_codes_page(site, request, codes, after=here, first=False)
            elif action == "remove":
                remove = RemoveForm(request.POST)
                if remove.is_valid():
                    mfa_services.staff_mfa_remove(
                        staff=staff, password=remove.cleaned_data["password"], code=remove.cleaned_data["code"]
                    )
                    if mfa.is_required(staff):
                        # the role may not be signed in without a second factor: sign-in sets up a new one
                        logout(request)
                        messages.warning(
                            request, "Two-factor sign-in removed. Your role requires it: sign in to set up a new app."
                        )
                        return HttpResponseRedirect(reverse("admin:login"))
                    messages.success(request, "Two-factor sign-in removed: sign-in asks for your password only.")
                    return HttpResponseRedirect(here)
            else:
                messages.error(request, "Unknown action")
        except DomainError as exc:
            if action == "confirm":
                first_code.add_error("code", exc.message)
            elif action == "remove":
                remove.add_error("password" if exc.details and "password" in exc.details else "code", exc.message)
            else:
                messages.error(request, exc.message)
    enrolled = mfa.is_enrolled(staff)
    pending = None if enrolled else mfa.totp_device(staff, confirmed=False)
    context = {
        **site.each_context(request),
        "title": "Two-factor sign-in",
        "enrolled": enrolled,
        "device": mfa.totp_device(staff) if enrolled else None,
        "required": mfa.is_required(staff),
        "recovery_left": mfa.recovery_codes_left(staff) if enrolled else 0,
        "first_code": first_code,
        "remove": remove,
        **(_setup(pending) if pending is not None else {}),
        "pending": pending is not None,
    }
    return TemplateResponse(request, "admin/backoffice/mfa_manage.html", context)


def install(site) -> None:
    """Make ``site``'s login the two-step one and add the pages above to its URLs (unfold's ``extra_urls``)."""
    site.login = MethodType(site_login, site)

    def extra_urls():
        return [
            path("login/code/", partial(code_step, site=site), name="staff_mfa_code"),
            path("login/set-up/", partial(enrol_step, site=site), name="staff_mfa_enrol"),
            path("two-factor/", site.admin_view(partial(manage, site=site)), name="staff_two_factor"),
        ]

    site.extra_urls = extra_urls
