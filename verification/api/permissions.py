"""Who may call /verification: staff by the role table, and a platform user about their own jobs."""

from rest_framework.permissions import BasePermission

from backoffice.api.permissions import RolePermission
from kyc.models import PlatformUser


class StaffRoleOrOwnUser(BasePermission):
    """Staff through ``capabilities`` (closed by default); a user only for the view's ``user_actions``.

    Which job a user may see is the selectors' business (``job_get(principal=...)`` answers 404 for another
    user's job), so a user can never learn that someone else's job exists.
    """

    message = RolePermission.message

    def has_permission(self, request, view):
        if isinstance(request.user, PlatformUser):
            return getattr(view, "action", None) in getattr(view, "user_actions", ())
        return RolePermission().has_permission(request, view)
