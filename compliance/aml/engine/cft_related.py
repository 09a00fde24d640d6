"""cft_related (our design): transactions made in one of ``countries`` (ISO 3166-1 alpha-2) adding up
to ``thresholdAmount`` or more within ``timeWindowHours`` (rolling); a threshold of 0 flags any one."""

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import Scope, db_money, money_json, placeholders, tx_types, types_sql
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits
from compliance.aml.engine.words import Finding, listed, money, plural, window_of
from compliance.aml.models.parameters import AMOUNT, WINDOW, Param


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowHours"]) * 3600)
    countries = list(c["countries"])
    types, type_params = types_sql(tx_types(rule, None))
    rows = rolling_hits(
        scope,
        window_seconds=window,
        where=f"t.country IN ({placeholders(countries)}) AND {types}",
        params=[*countries, *type_params],
        having="total >= %s",
        having_params=[db_money(c["thresholdAmount"])],
    )
    return rolling_to_hits(
        rows,
        window_seconds=window,
        describe=lambda n, total, lo, hi: {"count": int(n), "total": money_json(total), "countries": countries},
    )


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return tx.country in rule.conditions["countries"] and bounds.types_ok(rule, tx)


def finding(d, c, ctx) -> Finding:
    threshold = money(c["thresholdAmount"]) + " or more" if float(c["thresholdAmount"]) > 0 else "any amount"
    return Finding(
        f"{plural(d['count'], 'transaction')} in {listed(d.get('countries') or c['countries'])} totalling "
        f"{money(d['total'])} within {window_of(d, c)}.",
        f"Rule: {threshold} in {listed(c['countries'])} within {window_of({}, c)}.",
    )


PARAMETERS = {"countries": Param("countries"), "thresholdAmount": AMOUNT, "timeWindowHours": WINDOW}

CATALOGUE = (
    shipped_rule(
        "AML-CFT-001",
        "cft_related",
        "Transaction with a FATF call-for-action country",
        "Any transaction in a jurisdiction under the FATF call for action (counter-measures).",
        "CRITICAL",
        5,
        "Counter-terrorist financing",
        countries=["KP", "IR", "MM"],
        thresholdAmount=0,
        timeWindowHours=24,
    ),
    shipped_rule(
        "AML-CFT-002",
        "cft_related",
        "Funds moving to conflict or high-risk regions",
        "E2,000 or more within 7 days in countries with active terrorist-financing risk.",
        "HIGH",
        15,
        "Counter-terrorist financing",
        countries=["SO", "SY", "YE", "AF", "ML", "SS", "LY", "CD"],
        thresholdAmount=2000,
        timeWindowHours=168,
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.CFT_RELATED, PARAMETERS, evaluate, could_hit, finding, CATALOGUE)
