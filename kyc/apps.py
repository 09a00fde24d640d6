from django.apps import AppConfig


class KycConfig(AppConfig):
    name = "kyc"
    verbose_name = "KYC users"
