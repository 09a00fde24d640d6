"""The admin site's sign-in form, throttled like the API's logins (``backoffice.auth.login_guard``).

Only failures count. Per address: ``RATE_LIMIT_AUTH`` failed sign-ins a period, then the address is
refused until the period ends. Per login name: a lock after ``LOGIN_LOCKOUT_FAILURES`` failures, with
a message saying so and an audit entry. Wrong credentials keep Django's one message, the same whether
or not the account exists.

For staff with a second factor (``backoffice.auth.mfa``) a right password is only the first step: the form
says which step comes next (``second_step``) and leaves the failure count alone until the code is given
(``backoffice.admin.two_factor``), so a right password does not buy more guesses at the code.
"""

from django.core.exceptions import ValidationError
from unfold.forms import AuthenticationForm

from backoffice.auth import login_guard, mfa, tokens
from backoffice.models import Staff

ADDRESS_GROUP = "admin.login.failures"
TOO_MANY = "Too many failed sign-in attempts from your address. Wait a minute, then try again."


class ThrottledLoginForm(AuthenticationForm):
    second_step: str | None = None
    login_name = ""

    def clean(self):
        login = (self.cleaned_data.get("username") or "").strip().lower()
        self.login_name = login
        try:
            login_guard.check_address(self.request, group=ADDRESS_GROUP)
            login_guard.check_account(kind=tokens.STAFF, login=login)
        except login_guard.AccountLocked as exc:
            raise ValidationError(exc.message, code="locked") from None
        except login_guard.TooManyAttempts:
            raise ValidationError(TOO_MANY, code="rate_limited") from None
        try:
            cleaned = super().clean()
        except ValidationError:
            login_guard.record_address_failure(self.request, group=ADDRESS_GROUP)
            staff_id = Staff.objects.filter(email__iexact=login).values_list("pk", flat=True).first() if login else None
            if login and login_guard.record_failure(
                kind=tokens.STAFF, login=login, principal_id=staff_id, via="admin site"
            ):
                raise ValidationError(login_guard.AccountLocked().message, code="locked") from None
            raise
        self.second_step = mfa.second_step(self.user_cache)
        if self.second_step is None:
            login_guard.record_success(kind=tokens.STAFF, login=login)
        return cleaned
