"""System checks of compliance's configuration (``manage.py check``; ``--deploy`` adds the deployment ones)."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.compatibility, deploy=True)
def goaml_rentity_id_is_configured(app_configs, **kwargs):
    """Our id at the FIU has no default worth filing: a deployment must set it (goaml.md)."""
    if settings.GOAML_RENTITY_ID_CONFIGURED:
        return []
    value = "empty" if settings.GOAML_RENTITY_ID is None else f"the development placeholder {settings.GOAML_RENTITY_ID}"
    return [
        Warning(
            f"GOAML_RENTITY_ID is not set: goAML reports carry {value} as our reporting-entity id, "
            "which the financial intelligence unit will refuse.",
            hint="Set GOAML_RENTITY_ID to the numeric id the FIU gave the institution.",
            id="compliance.W001",
        )
    ]
