from backoffice.api.routers import ApiRouter
from compliance.reporting.api.views.threshold import ThresholdBatchViewSet, ThresholdReportViewSet

router = ApiRouter()
# batches first: "threshold-reports/batches" must not be read as a report's id
router.register("admin/aml/threshold-reports/batches", ThresholdBatchViewSet, basename="threshold-batch")
router.register("admin/aml/threshold-reports", ThresholdReportViewSet, basename="threshold-report")

urlpatterns = router.urls
