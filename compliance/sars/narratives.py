"""Narrative templates: for each activity type, the questions a SAR's narrative must answer.

An FIU analyst reads the narrative first; one that answers who, what, when,
where, why and how can be acted on without calling us back. Each template
asks the six questions in the words of its typology. ``[...]`` marks a
prompt still to be answered: the SAR page counts those left in a draft.
"""

import re

from compliance.sars.choices import ActivityType

QUESTIONS = ("who", "what", "when", "where", "why", "how")
PROMPT = re.compile(r"\[[^\[\]\n]{3,}\]")

_PROMPTS: dict[str, dict[str, str]] = {
    ActivityType.STRUCTURING: {
        "what": "the deposits or transfers kept under a threshold: how many, each amount, the total",
        "how": "the pattern: amounts just under the reporting threshold, split across days, channels or agents",
        "why": "why splitting is suspicious here: no business reason given, a threshold avoided",
    },
    ActivityType.LARGE_CASH: {
        "what": "the cash-funded amounts and their total against the customer's usual activity",
        "how": "how the cash came in: channel, agent, who deposited it",
        "why": "why the volume does not fit the customer's occupation, income or stated purpose",
    },
    ActivityType.UNUSUAL_PATTERN: {
        "what": "the activity that departs from the customer's profile, with figures",
        "how": "how it differs: new counterparties, velocity, pass-through, dormant account reactivated",
        "why": "why no ordinary explanation fits (what the customer said, if asked)",
    },
    ActivityType.MONEY_LAUNDERING: {
        "what": "the funds and movements that suggest laundering, with the total",
        "how": "placement, layering or integration: the chain of transfers and how fast money moved on",
        "why": "the indicators: source of funds unexplained, funds moved on at once, links to known cases",
    },
    ActivityType.FRAUD: {
        "what": "the fraudulent transactions, the loss and who bore it",
        "how": "the method: account takeover, false identity, social engineering, chargebacks",
        "why": "what shows it is fraud: the victim's complaint, device or identity evidence",
    },
    ActivityType.TERRORIST_FINANCING: {
        "what": "the payments that may fund terrorism, however small, with the total",
        "how": "how the funds moved: recurring small transfers, collection accounts, cross-border routes",
        "why": "the link: a screening match, a high-risk jurisdiction, a known typology",
    },
    ActivityType.SANCTIONS_VIOLATION: {
        "what": "the dealings with a sanctioned person or entity, amounts and dates",
        "how": "how the sanctioned party is involved: direct payee, director, beneficial owner",
        "why": "the list and entry matched, and why it is a true match",
    },
    ActivityType.OTHER: {
        "what": "the activity reported and its amounts",
        "how": "how the activity was carried out",
        "why": "why it is suspicious",
    },
}
_COMMON = {
    "who": "the subject (name, customer since, occupation) and every other person or business involved",
    "when": "the dates and times, first to last, and the period they cover",
    "where": "where it happened: channels, regions, countries, vendors, agents",
}


def prompts(activity_type: str) -> dict[str, str]:
    """The six questions for ``activity_type``, each a short hint of what answers it."""
    specific = _PROMPTS.get(activity_type, _PROMPTS[ActivityType.OTHER])
    return {question: specific.get(question) or _COMMON[question] for question in QUESTIONS}


def template(activity_type: str, facts: dict[str, str] | None = None) -> str:
    """A narrative to fill in: one paragraph per question, a known fact where ``facts`` has one, else a prompt."""
    facts = facts or {}
    return "\n\n".join(
        f"{question.upper()}: {facts.get(question) or f'[{hint}]'}" for question, hint in prompts(activity_type).items()
    )


def templates() -> dict[str, str]:
    """Every activity type's template, for the editor to offer."""
    return {activity_type: template(activity_type) for activity_type in ActivityType.values}


def open_prompts(text: str) -> int:
    """How many ``[...]`` prompts of a template are still in ``text``."""
    return len(PROMPT.findall(text or ""))


def open_prompt_texts(text: str) -> list[str]:
    """The ``[...]`` prompts still in ``text``, in order, as written (brackets included)."""
    return PROMPT.findall(text or "")
