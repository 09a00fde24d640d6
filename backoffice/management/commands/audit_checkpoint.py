import base64
import json
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat
from django.core.management.base import BaseCommand, CommandError

from backoffice.errors import DomainError
from backoffice.services.audit_verify import audit_checkpoint_make


class Command(BaseCommand):
    help = (
        "Print the audit chain's head (sequence, hash, time) signed with AUDIT_SIGNING_KEY (Ed25519), to keep "
        "outside the database; --out FILE writes it there. --generate-key prints a new key pair instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("--out", help="write the checkpoint to this file instead of printing it")
        parser.add_argument(
            "--generate-key", action="store_true", help="print a new AUDIT_SIGNING_KEY and its public key"
        )

    def handle(self, *args, **options):
        if options["generate_key"]:
            key = Ed25519PrivateKey.generate()
            private = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
            public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
            self.stdout.write(f"AUDIT_SIGNING_KEY={base64.b64encode(private).decode()}")
            self.stdout.write(f"public key (for verify_audit --public-key): {base64.b64encode(public).decode()}")
            return
        try:
            checkpoint = audit_checkpoint_make()
        except DomainError as exc:
            raise CommandError(exc.message) from None
        text = json.dumps(checkpoint.as_json(), indent=2) + "\n"
        if options["out"]:
            try:
                Path(options["out"]).write_text(text)
            except OSError as exc:
                raise CommandError(f"cannot write {options['out']}: {exc.strerror}") from None
            self.stdout.write(
                self.style.SUCCESS(f"checkpoint of entry {checkpoint.sequence} written to {options['out']}")
            )
        else:
            self.stdout.write(text, ending="")
