from backoffice.errors import DomainError


class SARNotEditable(DomainError):
    """Only a DRAFT is edited; a report under review or filed changes through its workflow alone."""

    status = 409
    code = "SAR_NOT_EDITABLE"
    default_message = "Only a SAR in DRAFT can be edited"


class GoamlInvalid(DomainError):
    """The goAML report does not validate against the unit's schema (``details["report"]`` lists why)."""

    status = 409
    code = "GOAML_INVALID"
    default_message = "The goAML report does not validate against the FIU's schema"


class SARIncomplete(DomainError):
    """The narrative still holds template prompts (``[...]``): it cannot leave DRAFT, nor be reviewed or filed."""

    status = 409
    code = "SAR_INCOMPLETE"
    default_message = "The SAR's narrative still has unanswered template prompts"
