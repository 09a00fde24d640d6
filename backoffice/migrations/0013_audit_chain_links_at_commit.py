"""On PostgreSQL the chain is linked when a writer's transaction commits, not when it appends.

An entry is inserted with no sequence and its canonical form up to the sequence (``pending_prefix``); a
deferred constraint trigger, run inside the COMMIT, locks the head, gives the entry the next sequence, its
digest and hash, and a fresh id (so ids keep the chain's order, which ``verify_audit`` uses to see reordered
entries). The head is then held only for the commit itself, no longer from the append to the commit (the
client's round trips between them, docs/audit-chain.md "Concurrency and cost"). SQLite, whose writers take turns
over the whole database anyway, keeps linking at the append.
"""

from django.db import migrations, models

TRIGGER = "backoffice_audit_chain_at_commit"

CREATE = """
CREATE OR REPLACE FUNCTION backoffice_audit_chain_link() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    prefix bytea;
    linked_sequence bigint;
    linked_hash text;
BEGIN
    -- the row as it stands at commit, and only if still unlinked (before the head's lock is taken)
    SELECT pending_prefix INTO prefix FROM backoffice_auditlog WHERE id = NEW.id AND sequence IS NULL;
    IF NOT FOUND OR prefix IS NULL THEN
        RETURN NULL;
    END IF;
    LOOP
        -- locks the head until this COMMIT ends; the same bytes and rules as backoffice.audit_chain
        UPDATE backoffice_auditchainhead
           SET sequence = sequence + 1,
               hash = encode(sha256(convert_to(hash || encode(sha256(
                          prefix || convert_to((sequence + 1)::text || '}', 'UTF8')), 'hex'), 'UTF8')), 'hex')
         WHERE id = 1
        RETURNING sequence, hash INTO linked_sequence, linked_hash;
        EXIT WHEN FOUND;
        -- a database emptied by a test's flush has lost the row with every entry; with entries left it is damage
        IF EXISTS (SELECT 1 FROM backoffice_auditlog WHERE sequence IS NOT NULL) THEN
            RAISE EXCEPTION 'the audit chain''s head is missing while entries exist: run verify_audit';
        END IF;
        INSERT INTO backoffice_auditchainhead (id, sequence, hash) VALUES (1, 0, repeat('0', 64))
            ON CONFLICT (id) DO NOTHING;
    END LOOP;
    UPDATE backoffice_auditlog
       SET id = nextval(pg_get_serial_sequence('backoffice_auditlog', 'id')),
           sequence = linked_sequence,
           digest = encode(sha256(prefix || convert_to(linked_sequence::text || '}', 'UTF8')), 'hex'),
           hash = linked_hash,
           pending_prefix = NULL
     WHERE id = NEW.id;
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER {trigger} AFTER INSERT ON backoffice_auditlog
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.sequence IS NULL)
    EXECUTE FUNCTION backoffice_audit_chain_link();
""".replace("{trigger}", TRIGGER)

DROP = f"""
DROP TRIGGER IF EXISTS {TRIGGER} ON backoffice_auditlog;
DROP FUNCTION IF EXISTS backoffice_audit_chain_link();
"""


def _on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("backoffice", "0012_staff_totp_sealed")]

    operations = [
        migrations.AlterField(
            model_name="auditlog",
            name="sequence",
            field=models.BigIntegerField(
                editable=False,
                help_text="The entry's place in the chain (given at commit).",
                null=True,
                unique=True,
            ),
        ),
        migrations.AddField(
            model_name="auditlog",
            name="pending_prefix",
            field=models.BinaryField(editable=False, null=True),
        ),
        migrations.RunPython(_on_postgresql(CREATE), _on_postgresql(DROP)),
    ]
