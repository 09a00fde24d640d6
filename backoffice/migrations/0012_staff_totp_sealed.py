"""Staff's second-factor secrets were stored as django-otp stores them: the authenticator app's shared secret in hex
(anyone with a copy of the database could compute the codes) and the recovery codes as typed. The secret is sealed
now (``StaffTOTPDevice``, backoffice.sealing.seal_short) and each recovery code is kept as its keyed digest, existing
rows included. Going back opens the secrets again; a digest cannot be turned back into its code, so recovery codes
made before then are refused by the older code and staff make new ones.
"""

from binascii import unhexlify

from django.db import migrations

from backoffice import sealing

TOTP_PURPOSE = "totp-key"  # backoffice.models.TOTP_KEY_PURPOSE, as it was when this migration was written
RECOVERY_PURPOSE = "recovery-code"  # backoffice.auth.mfa.RECOVERY_CODE_PURPOSE, likewise
DIGEST_LENGTH = 16


def seal_existing(apps, schema_editor):
    devices = apps.get_model("otp_totp", "TOTPDevice")
    for device in devices.objects.all().only("id", "key"):
        if not device.key.startswith(sealing.SHORT_PREFIX):
            sealed = sealing.seal_short(unhexlify(device.key), purpose=TOTP_PURPOSE)
            devices.objects.filter(pk=device.pk).update(key=sealed)
    tokens = apps.get_model("otp_static", "StaticToken")
    for token in tokens.objects.all().only("id", "token"):
        if len(token.token) != DIGEST_LENGTH:  # django-otp's codes are 8 characters; a digest is 16
            digest = sealing.digests(token.token, purpose=RECOVERY_PURPOSE, length=DIGEST_LENGTH)[0]
            tokens.objects.filter(pk=token.pk).update(token=digest)


def open_existing(apps, schema_editor):
    devices = apps.get_model("otp_totp", "TOTPDevice")
    for device in devices.objects.all().only("id", "key"):
        if device.key.startswith(sealing.SHORT_PREFIX):
            plain = sealing.unseal_short(device.key, purpose=TOTP_PURPOSE).hex()
            devices.objects.filter(pk=device.pk).update(key=plain)


class Migration(migrations.Migration):
    dependencies = [
        ("backoffice", "0011_webhook_delivery_fewer_indexes"),
        ("otp_totp", "0003_add_timestamps"),
        ("otp_static", "0003_add_timestamps"),
    ]

    operations = [
        migrations.CreateModel(
            name="StaffTOTPDevice",
            fields=[],
            options={
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("otp_totp.totpdevice",),
        ),
        migrations.RunPython(seal_existing, open_existing),
    ]
