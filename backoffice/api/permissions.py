"""Role permissions for the API, read from ``backoffice.roles``.

A view declares ``capabilities = {"list": "users.read", ...}`` keyed by
viewset action (or HTTP method for plain views); ``"*"`` is the fallback.
A view without a matching entry is closed, never open by accident.
"""

from rest_framework.permissions import BasePermission

from backoffice.models import ServiceKey, Staff


class RolePermission(BasePermission):
    message = "Your role does not allow this action"

    def has_permission(self, request, view):
        staff = request.user
        if not isinstance(staff, Staff):
            return False
        if not _handles(request, view):
            # let the dispatch answer 405: a method the route does not serve is not a question of role
            return staff.is_active
        required = required_capability(request, view)
        return required is not None and staff.has_capability(required)


def _handles(request, view) -> bool:
    if hasattr(view, "action_map"):  # a viewset route maps methods to actions
        return request.method.lower() in view.action_map or request.method == "OPTIONS"
    return hasattr(view, request.method.lower())


def required_capability(request, view) -> str | None:
    table = getattr(view, "capabilities", None) or {}
    action = getattr(view, "action", None)
    for key in (action, request.method.lower(), "*"):
        if key and key in table:
            return table[key]
    return None


class IsStaff(BasePermission):
    """Any signed-in staff member, whatever the role."""

    def has_permission(self, request, view):
        return isinstance(request.user, Staff) and request.user.is_active


class Public(BasePermission):
    def has_permission(self, request, view):
        return True


class ServiceKeyScopeOrRole(RolePermission):
    """A service key passes when the action's ``service_key_scopes`` entry is among its scopes; staff by role.

    A key on an action it has no scope for is treated as no credential at all (401), as the contract says
    for a key anywhere but its endpoints.
    """

    def has_permission(self, request, view):
        if isinstance(request.user, ServiceKey):
            scope = (getattr(view, "service_key_scopes", None) or {}).get(getattr(view, "action", None))
            if scope is None or not request.user.has_scope(scope):
                from rest_framework.exceptions import NotAuthenticated

                raise NotAuthenticated("This API key does not open this endpoint")
            return True
        return super().has_permission(request, view)
