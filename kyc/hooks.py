"""Where higher apps act on KYC events without kyc importing them (compliance, verification).

Register from ``AppConfig.ready()``: ``kyc.hooks.transaction_recorded.register(fn)``.

``transaction_recorded(transaction=...)``
    Every ledger row, right after it is written, inside the same database
    transaction and under the wallet's row lock. A function that raises a
    DomainError refuses the transaction (nothing is written); work that may
    fail or take time belongs in ``transaction.on_commit`` (the AML engine).
``transaction_completed(transaction=...)``
    A row recorded earlier (HELD) became COMPLETED: its money moved now. Called by whatever completes it
    (the release of a held transaction), inside that transaction and under the wallet's row lock, like
    ``transaction_recorded``; compliance opens or extends cash threshold reports on it.
``transaction_screen(transaction=..., dry_run=..., write_row=...) -> kyc.screening.Screening | None``
    Asked for a decision on a ledger row before any money moves, inside the
    ledger's database transaction, under the wallet's row lock; the answer's
    decision sets its status. The row is not written yet: a function that
    needs it in the ledger (a query over the wallet's windows) calls
    ``write_row()`` first, which writes it as COMPLETED with the balance
    untouched. One higher app answers (compliance's AML engine); None
    (nobody registered, or screening paused) allows. ``dry_run``: the row is
    rolled back afterwards; raise no alert.
``held_transaction_decided(transaction=..., actor=...)``
    An officer released (status COMPLETED) or rejected (REJECTED) a held row,
    inside the decision's database transaction.
``user_registered(user=...)``
    A platform user signed up (inside the registration's transaction).
``user_name_changed(user=..., previous_first_name=..., previous_last_name=...)``
    A user's first or last name changed (inside the update's transaction).
``identity_duplicate(user=..., other_user_id=..., kind=..., score=..., source=...)``
    An identity check found that the user's ID number, face or image may be another user's (``kind``:
    ID_NUMBER, FACE, IMAGE; ``score`` 0..100 or None; ``source``: the job and image it came from).
``identity_duplicate_decided(user=..., other_user_ids=..., approved=..., note=..., actor=..., source=...)``
    An identity check that found possible duplicates was decided by staff (``approved``: the identity stands,
    the duplicates are explained; else rejected). Compliance decides the duplicate alerts of those pairs.
``risk_scores(users=[...]) -> {user_id: score}``
    The risk score (0..100) the records indicate for each user, answered by one higher app (compliance's
    ``risk.risk_scores``: the PEP flag, SARs, open alerts, verification, money abroad). kyc's risk service
    asks it on every change of a fact, so the stored score never drifts from the facts; without an answer
    the stored score stays as it is.
``sar_risk_points(users=[...]) -> {user_id: points}``
    How many points of each user's stored risk score come from a SAR on file (users without one are left
    out), answered by compliance: support and finance see the score without them (backoffice.visibility).
``risk_floor_without_sar() -> expression``
    A query expression over users: the stored score less the points a SAR adds for a SAR's subject (at least
    the score ``sar_risk_points`` leaves, and in the same rating band). Filters and orders a user list's risk
    as support and finance see it, without kyc knowing SARs.
``party_flags(user_ids=[...]) -> {user_id: [words]}``
    What an investigator must see at a glance about each of these users in the customer view's money network
    ("sanctions match", "PEP", "open alerts"), answered by one higher app (compliance's ``risk.party_flags``);
    a user with nothing to flag is left out. kyc only shows the words.
``user_frozen(user=..., actor=...)``, ``user_unfrozen(user=..., actor=..., reason=...)``
    A wallet was frozen (a confirmed sanctions match) or a second person lifted the freeze (inside that
    transaction).
``purge_held(user=...) -> bool``
    Asked before a user is purged; any True refuses the purge with 409
    RETENTION_HOLD (compliance: the user is part of a SAR).
"""

from backoffice.hooks import Hook

transaction_recorded = Hook("transaction_recorded")
transaction_completed = Hook("transaction_completed")
transaction_screen = Hook("transaction_screen")
held_transaction_decided = Hook("held_transaction_decided")
user_registered = Hook("user_registered")
user_name_changed = Hook("user_name_changed")
purge_held = Hook("purge_held")
user_frozen = Hook("user_frozen")
user_unfrozen = Hook("user_unfrozen")
identity_duplicate = Hook("identity_duplicate")
identity_duplicate_decided = Hook("identity_duplicate_decided")
risk_scores = Hook("risk_scores")
sar_risk_points = Hook("sar_risk_points")
risk_floor_without_sar = Hook("risk_floor_without_sar")
party_flags = Hook("party_flags")
