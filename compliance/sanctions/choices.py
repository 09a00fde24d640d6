from django.db import models


class ListFormat(models.TextChoices):
    """The publisher's file format a list is imported from (the contract names the list codes that use each)."""

    UN_XML = "UN_XML", "UN consolidated XML"
    OFAC_CSV = "OFAC_CSV", "OFAC legacy SDN CSV"
    FTM_JSON = "FTM_JSON", "FollowTheMoney JSON lines"


class EntryType(models.TextChoices):
    INDIVIDUAL = "INDIVIDUAL", "Individual"
    ENTITY = "ENTITY", "Entity"
    VESSEL = "VESSEL", "Vessel"
    AIRCRAFT = "AIRCRAFT", "Aircraft"


class AliasQuality(models.TextChoices):
    """How sure the publisher is of an alias (UN ``QUALITY``: Good or Low; OFAC's ``aka`` are strong, ``fka`` and
    ``nka`` former/new names; FtM ``weakAlias`` is weak)."""

    GOOD = "GOOD", "Good"
    LOW = "LOW", "Low"


class EntryChangeKind(models.TextChoices):
    ADDED = "ADDED", "Added"
    CHANGED = "CHANGED", "Changed"
    REMOVED = "REMOVED", "Removed"


class ImportStatus(models.TextChoices):
    QUEUED = "QUEUED", "Queued"
    RUNNING = "RUNNING", "Running"
    COMPLETED = "COMPLETED", "Completed"
    FAILED = "FAILED", "Failed"
