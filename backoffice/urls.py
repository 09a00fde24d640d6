from django.conf import settings
from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from backoffice.api.operations import metrics_view
from backoffice.api.views import api_not_found

urlpatterns = [
    # the site is the admin site and the API: its root leads to the admin site (sign-in first)
    path("", lambda request: redirect("admin:index"), name="root"),
    # browsers ask for /favicon.ico of any page by themselves (the API's docs, a JSON answer)
    path("favicon.ico", lambda request: redirect(static(settings.FAVICON), permanent=True), name="favicon"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("backoffice.api.urls")),
    # Prometheus scrapes the site root (contract, "Operations"); not under /api/, so no rate limit counts it
    path("metrics", metrics_view, name="metrics"),
]

# Last: anything else under /api/ is a 404 in the envelope, in every environment. [\s\S] and \Z so that
# a path holding a newline (/api/v1/x%0A) matches too: "." stops at a newline and "$" matches before one.
urlpatterns.append(re_path(r"^api(?:/[\s\S]*)?\Z", api_not_found))

# Django's own error pages answer in the envelope under /api/ (and as Django's HTML elsewhere).
handler400 = "backoffice.api.views.error_400"
handler403 = "backoffice.api.views.error_403"
handler404 = "backoffice.api.views.error_404"
handler500 = "backoffice.api.views.error_500"
