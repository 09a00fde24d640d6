from rest_framework.routers import SimpleRouter


class ApiRouter(SimpleRouter):
    """Routes without a required trailing slash: /admin/users and /admin/users/ both work."""

    def __init__(self):
        super().__init__(trailing_slash="/?")
