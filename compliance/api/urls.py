"""Compliance's routes: each sub-domain's own, SARs first as before (the order routes were registered in)."""

from django.urls import include, path

urlpatterns = [
    path("", include("compliance.sars.api.urls")),
    path("", include("compliance.aml.api.urls")),
    path("", include("compliance.peps.api.urls")),
    path("", include("compliance.sanctions.api.match_urls")),
    path("", include("compliance.reporting.api.urls")),
    path("", include("compliance.sanctions.api.urls")),
]
