"""The columns a joined window query reads of a wallet are the ones kyc's covering index carries: a column
added to the query but not to the index would quietly send every decision back to the heap, row by row."""

from compliance.aml.engine.windows import WALLET_COLUMNS
from kyc.models import Transaction


def _index_columns(name: str) -> set[str]:
    index = next(i for i in Transaction._meta.indexes if i.name == name)
    fields = [f.lstrip("-") for f in index.fields] + list(index.include)
    return {Transaction._meta.get_field(f).column for f in fields}


def test_the_wallet_columns_of_a_joined_window_are_in_the_ledger_index():
    read = {column.removeprefix("t.") for column in WALLET_COLUMNS.split(", ")}
    assert read <= _index_columns("kyc_tx_user_window")
    assert {"user_id", "created_at", "status", "type", "amount"} <= read  # what every window filters and sums
