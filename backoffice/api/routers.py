from rest_framework.routers import SimpleRouter


class ApiRouter(SimpleRouter):
    """Routes without a required trailing slash: /admin/users and /admin/users/ both work."""

    def __init__(self):
        super().__init__()
        # DRF >= 3.15 turns any truthy trailing_slash argument into "/", so the optional slash is set here.
        self.trailing_slash = "/?"
