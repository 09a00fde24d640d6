from compliance.aml import events


def test_aml_s_stored_action_names_do_not_change():
    # old entries keep these names: a rename would split one action's history in two
    assert sorted(events.Action) == [
        "alert.assign",
        "alert.bulk",
        "alert.raise",
        "alert.reopen",
        "alert.status",
        "aml_rule.approve",
        "aml_rule.catalogue_upgrade",
        "aml_rule.create",
        "aml_rule.propose",
        "aml_rule.reject",
        "aml_rule.reset",
        "aml_rule.snooze",
        "aml_rule.snooze_end",
        "aml_rule.toggle",
        "aml_rule.update",
    ]
