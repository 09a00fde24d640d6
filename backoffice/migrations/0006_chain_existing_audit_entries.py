"""Chain the audit entries written before the chain existed, in the order they were written (their ids).

The hashing is ``backoffice.audit_chain``'s own (the historical model has the same fields), so an entry
chained here verifies exactly like one appended later.
"""

from django.db import migrations


def chain(apps, schema_editor):
    from backoffice import audit_chain

    AuditLog = apps.get_model("backoffice", "AuditLog")
    AuditChainHead = apps.get_model("backoffice", "AuditChainHead")
    previous, sequence = audit_chain.GENESIS, 0
    batch = []
    for entry in AuditLog.objects.order_by("id").iterator(chunk_size=2000):
        sequence += 1
        entry.sequence = sequence
        entry.digest = audit_chain.entry_digest(entry)
        entry.hash = previous = audit_chain.link(previous, entry.digest)
        batch.append(entry)
        if len(batch) >= 2000:
            AuditLog.objects.bulk_update(batch, ["sequence", "digest", "hash"])
            batch = []
    if batch:
        AuditLog.objects.bulk_update(batch, ["sequence", "digest", "hash"])
    AuditChainHead.objects.update_or_create(pk=1, defaults={"sequence": sequence, "hash": previous})


class Migration(migrations.Migration):
    dependencies = [("backoffice", "0005_audit_chain_fields")]

    operations = [migrations.RunPython(chain, migrations.RunPython.noop)]
