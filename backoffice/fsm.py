"""Helpers for the declared state machines (django-fsm-2 ``@transition`` methods on models)."""


def transition_table(model, field_name: str = "status") -> dict[tuple[str, str], str]:
    """(from, to) -> name of the model method that makes the move, read from its ``@transition`` declarations.

    The model is the one place the table exists; services look moves up here
    instead of keeping a copy.
    """
    field = model._meta.get_field(field_name)
    return {(str(t.source), str(t.target)): t.name for t in field.get_all_transitions(model)}
