"""The compliance label's models come from its sub-domains (there is no compliance/models.py), and Django treats
the label as an app with models: migrate gives each model its content type and permissions."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission

pytestmark = pytest.mark.django_db


def test_every_sub_domain_model_is_registered_under_the_compliance_label():
    names = {model.__name__ for model in apps.get_app_config("compliance").get_models()}
    # one model of each sub-domain, and the one the hand-kept list in compliance/models.py had missed
    assert {"Alert", "CaseComment", "PEP", "NameScreening", "SAR", "ThresholdReport"} <= names


def test_migrate_gave_the_compliance_models_their_permissions():
    codenames = set(Permission.objects.filter(content_type__app_label="compliance").values_list("codename", flat=True))
    models = apps.get_app_config("compliance").get_models()
    assert {f"view_{model._meta.model_name}" for model in models} <= codenames
