from compliance.reporting import events


def test_reporting_s_stored_action_names_do_not_change():
    # old entries keep these names: a rename would split one action's history in two
    assert sorted(events.Action) == [
        "threshold_batch.export",
        "threshold_batch.prepare",
        "threshold_batch.submit",
        "threshold_report.fiu_response",
    ]
