"""One way to name and guard an admin's own pages for one object (``backoffice.admin_base.object_urls``)."""

import uuid

from django.urls import reverse

from backoffice.admin_base import object_urls


def test_routes_are_named_after_the_model_and_their_words_and_sit_behind_the_sign_in(client):
    from django.contrib import admin

    from compliance.sars.models.sar import SAR

    urls = object_urls(admin.site._registry[SAR], {"export/<str:fmt>": lambda r: None, "confirm-submit": None})
    assert [u.name for u in urls] == ["compliance_sar_export", "compliance_sar_confirm_submit"]
    assert [str(u.pattern) for u in urls] == ["<uuid:object_id>/export/<str:fmt>/", "<uuid:object_id>/confirm-submit/"]
    # the registered SAR admin uses it: its pages answer anonymous visitors with the sign-in, never the view
    page = reverse("admin:compliance_sar_export", args=[uuid.uuid4(), "goaml"])
    answer = client.get(page)
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]
