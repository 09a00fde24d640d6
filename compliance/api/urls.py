from django.urls import re_path

from backoffice.api.routers import ApiRouter
from compliance.api.views import sar as sar_views
from compliance.api.views.alerts import AlertViewSet
from compliance.api.views.rules import RuleViewSet

router = ApiRouter()
# AML rules and alerts
router.register("admin/aml/rules", RuleViewSet, basename="aml-rule")
router.register("admin/aml/alerts", AlertViewSet, basename="aml-alert")

urlpatterns = router.urls

# SARs (compliance/api/views/sar.py)
urlpatterns += [
    re_path(r"^admin/aml/sars/?$", sar_views.SARListCreateView.as_view(), name="sar-list"),
    re_path(r"^admin/aml/sars/(?P<sarId>[^/]+)/status/?$", sar_views.SARStatusView.as_view(), name="sar-status"),
    re_path(r"^admin/aml/sars/(?P<sarId>[^/]+)/export/?$", sar_views.SARExportView.as_view(), name="sar-export"),
]
