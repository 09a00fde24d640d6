"""Where higher compliance sub-domains act on AML events without aml importing them.

Register from ``AppConfig.ready()``.

``sar_from_alert(alert=..., actor=...) -> SAR``
    Draft a SAR citing the alert (compliance.sars answers it); the alert page's "Draft a SAR" and the
    queue's bulk action call it.
"""

from backoffice.hooks import Hook

sar_from_alert = Hook("sar_from_alert")
