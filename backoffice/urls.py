from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from backoffice.api.views import api_not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("backoffice.api.urls")),
]

# Last: anything else under /api/ is a 404 in the envelope, in every environment.
urlpatterns.append(re_path(r"^api(?:/.*)?$", api_not_found))
