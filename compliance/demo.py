"""Demo compliance data: each sub-domain seeds its own (``compliance/<domain>/demo.py``); this module only
runs them in an order that tells one story, then puts the users' risk scores in step with the records.
"""

from compliance.aml import demo as aml_demo
from compliance.peps import demo as peps_demo
from compliance.reporting import demo as reporting_demo
from compliance.sanctions import demo as sanctions_demo
from compliance.sanctions import screening_demo as sanctions_screening_demo
from compliance.sars import demo as sars_demo
from kyc.models import PlatformUser
from kyc.services import user_risk_refresh_many


def seed(stdout) -> None:
    # PEPs first: the AML scan then sees the potential PEPs they flag (the pep_related rules), on the first run
    # as on any later one, so a second seed raises nothing new
    # the sanctions lists and their story (a potential match, a confirmed one frozen, a payment held for a listed
    # counterparty) first: the customers they add are then screened and counted by what follows, on the first run
    # as on any later one, so a second seed changes nothing
    sanctions_demo.seed(stdout)
    sanctions_screening_demo.seed(stdout)
    peps_demo.seed(stdout)
    aml_demo.seed(stdout)
    sars_demo.seed(stdout)
    reporting_demo.seed(stdout)
    seed_risk(stdout)


def seed_risk(stdout) -> None:
    """The demo users were loaded with onboarding scores; put every stored score in step with the records, as the
    services keep it from here on (a second seed changes nothing)."""
    ids = list(PlatformUser.objects.order_by("pk").values_list("pk", flat=True))
    changes = user_risk_refresh_many(user_ids=ids, reason="Demo data: the score the records indicate")
    stdout.write(f"Risk: {sum(c.changed for c in changes.values())} of {len(ids)} users' scores set from the records")
