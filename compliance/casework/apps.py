from django.apps import AppConfig


class CaseworkConfig(AppConfig):
    """Case work on alerts and SARs: comments, attachments, deadlines (SLAs) and assignment."""

    name = "compliance.casework"
    label = "compliance_casework"
    verbose_name = "Compliance: case work"

    def ready(self):
        from compliance.casework import deadlines

        deadlines.check_settings()
