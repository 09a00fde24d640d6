from backoffice.api.routers import ApiRouter
from compliance.aml.api.views.alerts import AlertCaseWorkViewSet, AlertViewSet
from compliance.aml.api.views.rules import RuleViewSet
from compliance.aml.api.views.transactions import HeldTransactionViewSet, TransactionIntakeViewSet

router = ApiRouter()
router.register("admin/aml/rules", RuleViewSet, basename="aml-rule")
router.register("admin/aml/alerts", AlertViewSet, basename="aml-alert")
router.register("admin/aml/alerts", AlertCaseWorkViewSet, basename="aml-alert-casework")
router.register("admin/aml/transactions", TransactionIntakeViewSet, basename="aml-transaction")
router.register("admin/aml/held-transactions", HeldTransactionViewSet, basename="aml-held-transaction")

urlpatterns = router.urls
