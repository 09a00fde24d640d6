from compliance.casework import events


def test_casework_s_stored_action_names_do_not_change():
    # old entries keep these names: a rename would split one action's history in two
    assert sorted(events.Action) == ["case.attachment", "case.comment"]
