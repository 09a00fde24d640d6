"""Pieces the admin pages of every app share."""


class ReadOnlyAdminMixin:
    """For records that only services write (ledger rows, audit entries): the admin site only shows them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
