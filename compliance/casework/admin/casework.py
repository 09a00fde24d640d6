"""The case work section of an alert's or a SAR's page: the comment thread and the evidence files.

A self-contained mixin: a ModelAdmin that lists it first among its bases gets
the section (``compliance/admin/casework_section.html``, shown after the
page's own form, so its forms never nest in it), two POST views (add a
comment, attach a file) calling the same services as the API, and nothing
else of the page changes. The section costs two queries (three on an alert
page, which also names the reports citing it) however long the thread is.
"""

from django.urls import path, reverse

from backoffice.admin.actions import error_with_reasons, object_action
from backoffice.files import signed_file_url
from backoffice.uploads import ATTACHMENT
from compliance.casework.selectors.casework import attachments_of, comments_of
from compliance.casework.services.casework import WRITE_CAPABILITY, attachment_add, comment_add


class CaseWorkAdminMixin:
    """Adds the thread and the files to the change page of ``casework_kind`` ("alert" or "sar") records."""

    casework_kind = ""
    change_form_outer_after_template = "compliance/admin/casework_section.html"

    def _casework_name(self, suffix: str) -> str:
        return f"compliance_{self.casework_kind}_casework_{suffix}"

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<uuid:object_id>/comments/", view(self.casework_comment_view), name=self._casework_name("comment")),
            path(
                "<uuid:object_id>/attachments/",
                view(self.casework_attachment_view),
                name=self._casework_name("attachment"),
            ),
            *super().get_urls(),
        ]

    def casework_context(self, request, obj) -> dict:
        """What the section shows: the thread, the files with short-lived links, the forms if the viewer may add."""
        case = {self.casework_kind: obj}
        filed_at = self.casework_filed_at(obj)
        attachments = list(attachments_of(**case))
        comments = list(comments_of(**case))
        for attachment in attachments:
            attachment.url = signed_file_url(attachment.storage_name)
        for item in (*comments, *attachments):
            item.after_filing = filed_at is not None and item.created_at > filed_at
        context = {
            "kind": self.casework_kind,
            "filed_at": filed_at,
            "comments": comments,
            "attachments": attachments,
            "can_add": request.user.has_capability(WRITE_CAPABILITY[self.casework_kind]),
            "report_notes_closed": getattr(obj, "report_notes_closed", ""),
            "comment_url": reverse(f"admin:{self._casework_name('comment')}", args=[obj.pk]),
            "attachment_url": reverse(f"admin:{self._casework_name('attachment')}", args=[obj.pk]),
            "max_size": ATTACHMENT.max_size_text(),
        }
        context.update(self.casework_extra_context(request, obj))
        return context

    def casework_filed_at(self, obj):
        """When the case's report was filed, if it was: what is added later is shown as added after filing."""
        return None

    def casework_extra_context(self, request, obj) -> dict:
        """What the kind of case adds to the section (the alert page: the reports that cite it)."""
        return {}

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = dict(extra_context or {})
        obj = self.get_object(request, object_id)
        if obj is not None and self.has_view_permission(request, obj):
            extra_context["casework"] = self.casework_context(request, obj)
        return super().change_view(request, object_id, form_url, extra_context)

    def _casework_write(self, request, object_id, write, done: str):
        def act(obj):
            write(obj)
            return done

        url = reverse(f"admin:compliance_{self.casework_kind}_change", args=[object_id]) + "#casework"
        return object_action(self, request, object_id, act, back=url, error=error_with_reasons)

    def casework_comment_view(self, request, object_id):
        return self._casework_write(
            request,
            object_id,
            lambda obj: comment_add(
                actor=request.user,
                text=request.POST.get("text", ""),
                for_report=request.POST.get("for_report") == "on",
                **{self.casework_kind: obj},
            ),
            "Comment added.",
        )

    def casework_attachment_view(self, request, object_id):
        return self._casework_write(
            request,
            object_id,
            lambda obj: attachment_add(actor=request.user, file=request.FILES.get("file"), **{self.casework_kind: obj}),
            "File attached.",
        )
