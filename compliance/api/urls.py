from django.urls import re_path

from backoffice.api.routers import ApiRouter
from compliance.api.views import sar as sar_views

router = ApiRouter()

urlpatterns = router.urls

# SARs (compliance/api/views/sar.py)
urlpatterns += [
    re_path(r"^admin/aml/sars/?$", sar_views.SARListCreateView.as_view(), name="sar-list"),
    re_path(r"^admin/aml/sars/(?P<sarId>[^/]+)/status/?$", sar_views.SARStatusView.as_view(), name="sar-status"),
    re_path(r"^admin/aml/sars/(?P<sarId>[^/]+)/export/?$", sar_views.SARExportView.as_view(), name="sar-export"),
]
