from rest_framework.routers import SimpleRouter


class ApiRouter(SimpleRouter):
    """Routes without a required trailing slash: /admin/users and /admin/users/ both work."""

    def __init__(self):
        super().__init__()
        # SimpleRouter turns any truthy trailing_slash into "/", so the optional slash is set after it
        self.trailing_slash = "/?"
