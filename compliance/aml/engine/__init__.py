"""The AML rule engine: one evaluator per rule type (compliance/aml/engine/<ruleType>.py), a runner
that raises deduplicated alerts, and the hook that screens each ledger row as it is recorded."""
