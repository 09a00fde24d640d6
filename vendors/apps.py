from django.apps import AppConfig


class VendorsConfig(AppConfig):
    name = "vendors"
    verbose_name = "Vendors"

    def ready(self):
        from backoffice import demo, principals
        from vendors import demo as vendors_demo
        from vendors.services import PRINCIPAL

        principals.register(PRINCIPAL)
        demo.register_seeder(self.label, vendors_demo.seed)
