from compliance.sars import events


def test_sars_stored_action_names_do_not_change():
    # old entries keep these names: a rename would split one action's history in two
    assert sorted(events.Action) == [
        "sar.correct",
        "sar.create",
        "sar.export",
        "sar.fiu_rejected",
        "sar.return",
        "sar.transition",
        "sar.update",
    ]
