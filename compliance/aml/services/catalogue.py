"""The shipped rule catalogue loaded into the database: new rules created, changed ones reset (or proposed).

Its own module because it uses both the rule services and governance, which builds on them.
"""

from django.db import transaction

from backoffice.services import Actor
from compliance.aml import events
from compliance.aml.engine.catalogue import previous_actions
from compliance.aml.engine.registry import CATALOGUE
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.governance import needs_approval, proposals_supersede, rule_propose
from compliance.aml.services.rules import rule_create, rule_update


@transaction.atomic
def rule_catalogue_load(*, actor: Actor = None, reset: bool = False) -> dict[str, int]:
    """Load the shipped catalogue (compliance.aml.engine.registry.CATALOGUE, each rule type's own) idempotently.

    Missing rules are created (inactive or active as the catalogue says).
    Existing rules are left alone, even when an officer edited them, unless
    ``reset`` is given: then a rule whose text differs from the catalogue is
    restored to it as a new version (its history keeps the officer's edit),
    or, under four eyes (``RULE_FOUR_EYES``) for an active rule's governed
    fields, proposed for a second person's approval.
    Rules that still carry the actions the catalogue shipped before decisions
    existed (never edited) get the catalogue's hold/block actions, as a new
    version (``aml_rule.catalogue_upgrade``) or a proposal; an officer's edited actions stay.
    Returns counts: created, reset, upgraded, proposed, unchanged.
    """
    counts = {"created": 0, "reset": 0, "upgraded": 0, "unchanged": 0, "proposed": 0}
    existing = {r.rule_id: r for r in AMLRule.objects.filter(rule_id__in=[e["rule_id"] for e in CATALOGUE])}
    for entry in CATALOGUE:
        rule_id, fields = entry["rule_id"], {k: v for k, v in entry.items() if k != "rule_id"}
        rule = existing.get(rule_id)
        if rule is None:
            rule_create(actor=actor, rule_id=rule_id, **fields)
            counts["created"] += 1
        elif reset and any(getattr(rule, name) != value for name, value in fields.items()):
            diff = {name: value for name, value in fields.items() if getattr(rule, name) != value}
            if needs_approval(rule, diff):
                # under four eyes a restore of a live rule is a proposal like any other change
                rule_propose(rule=rule, actor=actor, changes=diff, reason="Restore the shipped catalogue values")
                counts["proposed"] += 1
                continue
            restored = rule_update(rule=rule, actor=actor, changes=fields, action=events.Action.RULE_RESET)
            proposals_supersede(rule=restored)
            counts["reset"] += 1
        elif rule.actions == previous_actions(rule.severity) and rule.actions != fields["actions"]:
            upgrade = {"actions": fields["actions"]}
            if needs_approval(rule, upgrade):
                rule_propose(rule=rule, actor=actor, changes=upgrade, reason="The catalogue's hold/block actions")
                counts["proposed"] += 1
                continue
            upgraded = rule_update(rule=rule, actor=actor, changes=upgrade, action=events.Action.RULE_CATALOGUE_UPGRADE)
            proposals_supersede(rule=upgraded)
            counts["upgraded"] += 1
        else:
            counts["unchanged"] += 1
    return counts
