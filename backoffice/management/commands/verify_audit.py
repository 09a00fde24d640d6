import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from backoffice.errors import DomainError
from backoffice.services.audit_verify import audit_record_outcome, audit_verify, checkpoint_read


class Command(BaseCommand):
    help = (
        "Walk the audit log's hash chain and name its first broken entry (exit 0 intact, 1 broken). "
        "--checkpoint FILE also proves the chain still holds a signed head (docs/audit-chain.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="start", type=int, help="first sequence to verify (default 1)")
        parser.add_argument("--to", dest="end", type=int, help="last sequence to verify (default the head)")
        parser.add_argument("--checkpoint", help="a file written by audit_checkpoint")
        parser.add_argument(
            "--public-key", help="base64 Ed25519 public key to trust (default: AUDIT_SIGNING_KEY's public half)"
        )
        parser.add_argument("--json", action="store_true", help="print the API's JSON instead of a sentence")

    def handle(self, *args, **options):
        start, end = options["start"], options["end"]
        if start is not None and start < 1 or end is not None and end < 1:
            raise CommandError("--from and --to are sequences, 1 or more")
        if start and end and end < start:
            raise CommandError("--to is before --from")
        checkpoint = None
        if options["checkpoint"]:
            try:
                text = Path(options["checkpoint"]).read_text()
            except OSError as exc:
                raise CommandError(f"cannot read {options['checkpoint']}: {exc.strerror}") from None
            try:
                checkpoint = checkpoint_read(text, public_key=options["public_key"])
            except DomainError as exc:
                raise CommandError(exc.message) from None
        result = audit_verify(start=start, end=end, checkpoint=checkpoint)
        if start in (None, 1) and end is None:
            audit_record_outcome(result)
        if options["json"]:
            self.stdout.write(json.dumps(result.as_json(), indent=2))
        elif result.intact:
            held = f"; it holds the signed head {checkpoint.sequence}" if checkpoint else ""
            self.stdout.write(
                self.style.SUCCESS(
                    f"audit chain intact: {result.entries} entries verified, head {result.head_sequence} "
                    f"{result.head_hash}{held}"
                )
            )
        else:
            broken = result.first_broken
            self.stderr.write(f"audit chain BROKEN at entry {broken.sequence}: {broken.reason}: {broken.detail}")
        if not result.intact:
            sys.exit(1)
