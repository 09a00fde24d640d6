from backoffice.api.routers import ApiRouter
from compliance.api.views.alerts import AlertViewSet
from compliance.api.views.casework import AlertCaseWorkViewSet, SARCaseWorkViewSet
from compliance.api.views.pep import PEPMatchViewSet, PEPViewSet
from compliance.api.views.rules import RuleViewSet
from compliance.api.views.sar import SARViewSet

router = ApiRouter()
router.register("admin/aml/sars", SARViewSet, basename="sar")
router.register("admin/aml/sars", SARCaseWorkViewSet, basename="sar-casework")
router.register("admin/aml/rules", RuleViewSet, basename="aml-rule")
router.register("admin/aml/alerts", AlertViewSet, basename="aml-alert")
router.register("admin/aml/alerts", AlertCaseWorkViewSet, basename="aml-alert-casework")
# matches before the PEPs themselves: /pep/matches must not be read as a PEP id
router.register("admin/aml/pep/matches", PEPMatchViewSet, basename="pep-match")
router.register("admin/aml/pep", PEPViewSet, basename="pep")

urlpatterns = router.urls
