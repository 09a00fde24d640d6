"""Where higher compliance sub-domains act on AML events without aml importing them.

Register from ``AppConfig.ready()``.

``decision_screeners(transaction=..., dry_run=...) -> list[kyc.screening.ScreeningHit]``
    Screenings of a ledger row besides the rules (compliance.sanctions: the customer's sanctions state and the
    counterparty's name), asked by the decision before the money moves, inside the ledger's transaction and
    under the wallet's lock; their hits join the rules' and the strongest action decides. ``dry_run``: open
    nothing.
``sar_from_alert(alert=..., actor=...) -> SAR``
    Draft a SAR citing the alert (compliance.sars answers it); the alert page's "Draft a SAR" and the
    queue's bulk action call it.

``evidence.finding_register(alert_type, build)``
    How an alert no AML rule raised reads on the alert page: ``build(details) -> Finding`` (the sub-domain
    that raises the alert knows its details' keys; compliance.peps registers the PEP match's).
"""

from backoffice.hooks import Hook


class ScreenerHook(Hook):
    """A hook whose functions each answer a list of hits: ``hits(**kwargs)`` is all of them, in order."""

    def hits(self, **kwargs) -> list:
        found: list = []
        for function in self._functions:
            found.extend(function(**kwargs) or ())
        return found


sar_from_alert = Hook("sar_from_alert")
decision_screeners = ScreenerHook("decision_screeners")
