from kyc.models import Transaction


class HeldTransaction(Transaction):
    """A ledger row seen as compliance work: the admin site's queue of HELD transactions (oldest first).

    A proxy: no table of its own; kyc's ledger service decides the rows (release, reject).
    """

    class Meta:
        proxy = True
        app_label = "compliance"
        verbose_name = "held transaction"
        ordering = ["created_at", "id"]
