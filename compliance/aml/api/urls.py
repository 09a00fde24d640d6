from backoffice.api.routers import ApiRouter
from compliance.aml.api.views.alerts import AlertCaseWorkViewSet, AlertViewSet
from compliance.aml.api.views.rules import RuleViewSet

router = ApiRouter()
router.register("admin/aml/rules", RuleViewSet, basename="aml-rule")
router.register("admin/aml/alerts", AlertViewSet, basename="aml-alert")
router.register("admin/aml/alerts", AlertCaseWorkViewSet, basename="aml-alert-casework")

urlpatterns = router.urls
