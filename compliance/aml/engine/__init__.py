"""The AML rule engine, reads only: one evaluator per rule type (compliance/aml/engine/<ruleType>.py) and the
runner that dispatches to them; the services above raise the alerts and take the decisions (``services.scans``,
``services.screening``)."""
