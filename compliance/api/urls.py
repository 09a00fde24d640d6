from backoffice.api.routers import ApiRouter

router = ApiRouter()

urlpatterns = router.urls
