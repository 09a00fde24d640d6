from backoffice.api.routers import ApiRouter
from compliance.peps.api.views.pep import PEPMatchViewSet, PEPViewSet

router = ApiRouter()
# matches before the PEPs themselves: /pep/matches must not be read as a PEP id
router.register("admin/aml/pep/matches", PEPMatchViewSet, basename="pep-match")
router.register("admin/aml/pep", PEPViewSet, basename="pep")

urlpatterns = router.urls
