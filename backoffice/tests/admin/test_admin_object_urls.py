"""One way to name and guard an admin's own pages for one object (``backoffice.admin.base.object_urls``)."""

from django.contrib import admin
from django.test import override_settings
from django.urls import include, path, reverse

from backoffice.admin.base import object_urls
from backoffice.models import Staff


def page(request, object_id, fmt=None):
    raise AssertionError("an anonymous visitor never reaches the view")


URLS = object_urls(admin.site._registry[Staff], {"export/<str:fmt>": page, "confirm-submit": page})
urlpatterns = [path("objects/", include(URLS)), path("admin/", admin.site.urls)]


def test_routes_are_named_after_the_model_and_their_words():
    assert [u.name for u in URLS] == ["backoffice_staff_export", "backoffice_staff_confirm_submit"]
    assert [str(u.pattern) for u in URLS] == ["<uuid:object_id>/export/<str:fmt>/", "<uuid:object_id>/confirm-submit/"]


@override_settings(ROOT_URLCONF=__name__)
def test_they_sit_behind_the_admin_sign_in(client):
    answer = client.get(reverse("backoffice_staff_export", args=["6f1d0c1e-2b9a-4c7e-9d55-3f0a4b1c2d3e", "goaml"]))
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]
