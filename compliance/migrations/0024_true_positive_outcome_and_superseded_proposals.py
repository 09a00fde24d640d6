"""Issue 31: the true-positive outcome of an alert (a confirmed PEP match, a rejected held transaction), and
the data it corrects; pending rule proposals the rule moved on from are superseded.

- PEP-match alerts closed by a confirmation were recorded "Closed: false positive" (reason PEP_MATCH_CONFIRMED):
  they become CLOSED_TRUE_POSITIVE, so no rule's false-positive rate counts them. Their history rows stay as
  they were written.
- A PENDING proposal made against an older version than its rule's current one can never be approved (409
  STALE_PROPOSAL): it is closed as the service now closes one (REJECTED, no decider, the reason), with a history
  row.
"""

import django_fsm
from django.db import migrations, models
from django.db.models import F
from django.utils import timezone


def forwards(apps, schema_editor):
    Alert = apps.get_model("compliance", "Alert")
    Alert.objects.filter(status="CLOSED_FALSE_POSITIVE", close_reason_code="PEP_MATCH_CONFIRMED").update(
        status="CLOSED_TRUE_POSITIVE"
    )
    RuleProposal = apps.get_model("compliance", "RuleProposal")
    RuleProposalEvent = apps.get_model("compliance", "RuleProposalEvent")
    now = timezone.now()
    for proposal in RuleProposal.objects.filter(status="PENDING", base_version__lt=F("rule__version")).select_related(
        "rule"
    ):
        reason = (
            f"Superseded: the rule changed to version {proposal.rule.version} after this was proposed against "
            f"version {proposal.base_version}; propose the change again against the current version."
        )
        RuleProposal.objects.filter(pk=proposal.pk).update(status="REJECTED", decided_at=now, decision_reason=reason)
        RuleProposalEvent.objects.create(proposal=proposal, from_status="PENDING", to_status="REJECTED", note=reason)


def backwards(apps, schema_editor):
    Alert = apps.get_model("compliance", "Alert")
    Alert.objects.filter(status="CLOSED_TRUE_POSITIVE", close_reason_code="PEP_MATCH_CONFIRMED").update(
        status="CLOSED_FALSE_POSITIVE"
    )


class Migration(migrations.Migration):

    dependencies = [
        ('compliance', '0023_sanctions_matches'),
    ]

    operations = [
        migrations.AlterField(
            model_name='alert',
            name='close_reason_code',
            field=models.CharField(blank=True, choices=[('EXPLAINED_ACTIVITY', 'Activity explained'), ('KNOWN_CUSTOMER_PATTERN', 'Known customer pattern'), ('DATA_ERROR', 'Data error'), ('DUPLICATE_ALERT', 'Duplicate alert'), ('OTHER', 'Other'), ('PEP_MATCH_DISMISSED', 'PEP match dismissed: not this PEP'), ('PEP_MATCH_CONFIRMED', 'PEP match confirmed: handled as a PEP'), ('SANCTIONS_MATCH_DISMISSED', 'Sanctions match dismissed: not the listed party'), ('SANCTIONS_ENTRY_REMOVED', 'Sanctions match closed: the entry left its list'), ('HELD_TRANSACTION_RELEASED', 'Held transaction released after review'), ('HELD_TRANSACTION_REJECTED', 'Held transaction rejected after review')], default='', max_length=32),
        ),
        migrations.AlterField(
            model_name='alert',
            name='status',
            field=django_fsm.FSMField(choices=[('OPEN', 'Open'), ('UNDER_REVIEW', 'Under review'), ('ESCALATED', 'Escalated'), ('CLOSED_FALSE_POSITIVE', 'Closed: false positive'), ('CLOSED_SAR_FILED', 'Closed: SAR filed'), ('CLOSED_TRUE_POSITIVE', 'Closed: confirmed (true positive)')], db_index=True, default='OPEN', max_length=24, protected=True),
        ),
        migrations.AlterField(
            model_name='alertevent',
            name='from_status',
            field=models.CharField(blank=True, choices=[('OPEN', 'Open'), ('UNDER_REVIEW', 'Under review'), ('ESCALATED', 'Escalated'), ('CLOSED_FALSE_POSITIVE', 'Closed: false positive'), ('CLOSED_SAR_FILED', 'Closed: SAR filed'), ('CLOSED_TRUE_POSITIVE', 'Closed: confirmed (true positive)')], default='', max_length=32),
        ),
        migrations.AlterField(
            model_name='alertevent',
            name='reason_code',
            field=models.CharField(blank=True, choices=[('EXPLAINED_ACTIVITY', 'Activity explained'), ('KNOWN_CUSTOMER_PATTERN', 'Known customer pattern'), ('DATA_ERROR', 'Data error'), ('DUPLICATE_ALERT', 'Duplicate alert'), ('OTHER', 'Other'), ('PEP_MATCH_DISMISSED', 'PEP match dismissed: not this PEP'), ('PEP_MATCH_CONFIRMED', 'PEP match confirmed: handled as a PEP'), ('SANCTIONS_MATCH_DISMISSED', 'Sanctions match dismissed: not the listed party'), ('SANCTIONS_ENTRY_REMOVED', 'Sanctions match closed: the entry left its list'), ('HELD_TRANSACTION_RELEASED', 'Held transaction released after review'), ('HELD_TRANSACTION_REJECTED', 'Held transaction rejected after review')], default='', max_length=32),
        ),
        migrations.AlterField(
            model_name='alertevent',
            name='to_status',
            field=models.CharField(blank=True, choices=[('OPEN', 'Open'), ('UNDER_REVIEW', 'Under review'), ('ESCALATED', 'Escalated'), ('CLOSED_FALSE_POSITIVE', 'Closed: false positive'), ('CLOSED_SAR_FILED', 'Closed: SAR filed'), ('CLOSED_TRUE_POSITIVE', 'Closed: confirmed (true positive)')], default='', max_length=32),
        ),
        migrations.RunPython(forwards, backwards),
    ]
