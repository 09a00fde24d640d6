"""verify_audit (exit 0 intact, 1 broken, naming the entry; --from/--to; --checkpoint) and audit_checkpoint."""

import base64
import io

import pytest
from django.core.management import CommandError, call_command

from backoffice.models import AuditLog
from backoffice.tests.audit.helpers import rehash_from, write_entries

pytestmark = pytest.mark.django_db


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_audit", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue(), err.getvalue()


def test_intact_exits_0_and_broken_exits_1_naming_the_entry():
    write_entries(5)
    code, out, _ = run()
    assert code == 0 and "intact: 5 entries verified" in out
    AuditLog.objects.filter(sequence=3).delete()
    code, _, err = run()
    assert code == 1 and "entry 3" in err and "REMOVED" in err
    assert run("--from", "5")[0] == 0 and run("--to", "2")[0] == 0
    with pytest.raises(CommandError):
        run("--from", "4", "--to", "2")


def test_a_checkpoint_file_catches_a_rewritten_chain(tmp_path, settings):
    out = io.StringIO()
    call_command("audit_checkpoint", "--generate-key", stdout=out)
    lines = out.getvalue().splitlines()
    settings.AUDIT_SIGNING_KEY = lines[0].split("=", 1)[1]
    public = lines[1].rsplit(" ", 1)[1]
    assert len(base64.b64decode(public)) == 32
    write_entries(3)
    checkpoint = tmp_path / "head.json"
    call_command("audit_checkpoint", "--out", str(checkpoint), stdout=io.StringIO())
    assert run("--checkpoint", str(checkpoint))[0] == 0
    AuditLog.objects.filter(sequence=1).update(changes={"n": 1, "x": 1.5})
    rehash_from(1)
    assert run()[0] == 0
    code, _, err = run("--checkpoint", str(checkpoint), "--public-key", public)
    assert code == 1 and "CHECKPOINT_MISMATCH" in err


def test_checkpoint_without_a_key_is_a_clear_error(settings):
    settings.AUDIT_SIGNING_KEY = None
    with pytest.raises(CommandError, match="AUDIT_SIGNING_KEY"):
        call_command("audit_checkpoint", stdout=io.StringIO())
    with pytest.raises(CommandError, match="cannot read"):
        run("--checkpoint", "/nonexistent/file.json")
