from compliance.peps import events


def test_peps_stored_action_names_do_not_change():
    # old entries keep these names: a rename would split one action's history in two
    assert sorted(events.Action) == [
        "pep.create",
        "pep.delete",
        "pep.import_create",
        "pep.import_update",
        "pep.screen_name",
        "pep.update",
        "pep_match.review",
    ]
