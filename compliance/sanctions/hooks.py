"""Where the screening side acts on a list import without the list side importing it.

Register from ``AppConfig.ready()``: ``compliance.sanctions.hooks.entries_changed.register(fn)``.

``entries_changed(list_code=..., version=..., added_ids=[...], changed_ids=[...], removed_ids=[...])``
    An import committed a new version of a list (``version``: the ``ListVersion``) that added, changed
    (what screening reads differs) or removed entries (ids of ``SanctionsEntry``). Called once the import's
    own transaction has ended, never for an import that changed nothing. A caller may hold an outer transaction
    (``seed_demo`` runs each app's demo in one, tests run in one): a handler that sends work to a worker sends
    it with ``transaction.on_commit``, as every dispatch here does. A function may answer the screening it
    did or started as a mapping with any of ``usersScanned``, ``matchesCreated``, ``matchesReopened``,
    ``matchesClosed`` (numbers); the import's answer sums them under ``screening`` (zeros without an answer).
"""

from collections.abc import Mapping

from backoffice.hooks import Hook

SCREENING_COUNTS = ("usersScanned", "matchesCreated", "matchesReopened", "matchesClosed")


class CountingHook(Hook):
    """A hook whose functions may each answer counts; ``counts()`` calls them all and sums what they answer."""

    def counts(self, **kwargs) -> dict[str, int]:
        totals = dict.fromkeys(SCREENING_COUNTS, 0)
        for function in self._functions:
            answer = function(**kwargs)
            if isinstance(answer, Mapping):
                for key in SCREENING_COUNTS:
                    totals[key] += int(answer.get(key) or 0)
        return totals


entries_changed = CountingHook("sanctions_entries_changed")
