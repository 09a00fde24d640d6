import uuid

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice

from backoffice import roles, sealing
from backoffice.choices import ApprovalStatus, DeliveryStatus, OtpPurpose, StaffRole, WebhookEventType


class StaffManager(BaseUserManager):
    use_in_migrations = True

    def create_user(self, email, password=None, **extra):
        if not email:
            raise ValueError("Staff accounts need an e-mail address")
        staff = self.model(email=self.normalize_email(email).lower(), **extra)
        staff.set_password(password)
        staff.full_clean(exclude=["password"])
        staff.save(using=self._db)
        return staff

    def create_superuser(self, email, password=None, **extra):
        extra["role"] = StaffRole.ADMIN
        extra["is_superuser"] = True
        return self.create_user(email, password, **extra)

    def get_by_natural_key(self, username):
        return self.get(email__iexact=username)


class Staff(AbstractBaseUser):
    """A member of staff who signs in to the admin site and the admin API.

    Staff log in with their e-mail address and hold exactly one role from the
    contract's role table; the role alone decides what they may do.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    email = models.EmailField(unique=True)
    first_name = models.CharField(max_length=150, blank=True)
    last_name = models.CharField(max_length=150, blank=True)
    role = models.CharField(max_length=32, choices=StaffRole.choices, default=StaffRole.SUPPORT)
    is_active = models.BooleanField(default=True)
    is_superuser = models.BooleanField(default=False, help_text="Superusers are always administrators.")
    token_generation = models.PositiveIntegerField(
        default=0, editable=False, help_text="Grows when every session must end; tokens of an older one are refused."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = StaffManager()

    # A change to any of these ends every session of the account (backoffice.auth.tokens): a new password
    # (changed or reset, wherever), another role, deactivation (and reactivation).
    SESSION_FIELDS = ("password", "role", "is_active", "is_superuser")

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["first_name", "last_name"]

    class Meta:
        verbose_name = "staff member"
        verbose_name_plural = "staff"
        ordering = ["email"]

    def __str__(self):
        return f"{self.full_name} <{self.email}>" if self.full_name else self.email

    @classmethod
    def from_db(cls, db, field_names, values):
        staff = super().from_db(db, field_names, values)
        staff._session_state = staff._current_session_state()
        return staff

    def refresh_from_db(self, *args, **kwargs):
        super().refresh_from_db(*args, **kwargs)
        self._session_state = self._current_session_state()

    def _current_session_state(self) -> dict:
        # __dict__, not getattr: a field deferred by .only() must not cost a query here
        return {name: self.__dict__[name] for name in self.SESSION_FIELDS if name in self.__dict__}

    def save(self, *args, **kwargs):
        before = getattr(self, "_session_state", None)
        now = self._current_session_state()
        if before is not None and any(before[name] != now.get(name, before[name]) for name in before):
            self.token_generation += 1
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "token_generation"}
        super().save(*args, **kwargs)
        self._session_state = self._current_session_state()

    def clean(self):
        self.email = (self.email or "").strip().lower()
        if self.is_superuser and self.role != StaffRole.ADMIN:
            raise ValidationError({"role": "Superusers are administrators."})

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    # Every staff account may open the admin site; what it sees there follows the role.
    @property
    def is_staff(self) -> bool:
        return self.is_active

    def has_capability(self, capability: str) -> bool:
        return self.is_active and roles.has_capability(self.role, capability)

    def has_perm(self, perm, obj=None):
        if not self.is_active:
            return False
        if self.role == StaffRole.ADMIN:
            return True
        return perm in roles.admin_site_permissions(self.role)

    def has_perms(self, perm_list, obj=None):
        return all(self.has_perm(p, obj) for p in perm_list)

    def has_module_perms(self, app_label):
        if not self.is_active:
            return False
        if self.role == StaffRole.ADMIN:
            return True
        return any(p.startswith(app_label + ".") for p in roles.admin_site_permissions(self.role))


class AuditLog(models.Model):
    """One staff write, recorded forever: who did what to which object, from where.

    Rows are only ever inserted (``backoffice.audit_record``); the
    admin site shows them read-only and ``save`` refuses to change a stored row.

    Every entry is a link of a hash chain (``backoffice.audit_chain``, docs/audit-chain.md): its
    ``sequence`` (1, 2, 3, ... with no gaps), the ``digest`` (SHA-256 of its content's canonical form) and
    ``hash`` = SHA-256(previous hash + digest). A redacted entry (a purge blanked personal data) keeps its
    digest, so the chain still verifies, and says when it was redacted.

    On PostgreSQL an entry is inserted unlinked (no sequence, its canonical form up to the sequence in
    ``pending_prefix``) and a trigger links it when its transaction commits; a committed entry without a
    sequence was written around the chain, and ``verify_audit`` says so.
    """

    id = models.BigAutoField(primary_key=True)
    actor = models.ForeignKey(Staff, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    actor_email = models.CharField(max_length=254, blank=True, help_text="Kept when the account is removed.")
    action = models.CharField(max_length=64, db_index=True)
    object_type = models.CharField(max_length=64, db_index=True)
    object_id = models.CharField(max_length=64, blank=True, db_index=True)
    changes = models.JSONField(default=dict, blank=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    # set by ``audit_entry`` before the digest is taken (auto_now_add would overwrite it on insert)
    created_at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)
    sequence = models.BigIntegerField(
        unique=True, null=True, editable=False, help_text="The entry's place in the chain (given at commit)."
    )
    digest = models.CharField(max_length=64, editable=False, help_text="SHA-256 of the entry's content.")
    hash = models.CharField(max_length=64, editable=False, help_text="SHA-256 of the previous hash and the digest.")
    redacted_at = models.DateTimeField(null=True, blank=True, editable=False)
    # PostgreSQL: the bytes the commit-time link hashes (``canonical_prefix``), cleared once the entry is linked
    pending_prefix = models.BinaryField(null=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "audit entry"
        verbose_name_plural = "audit log"
        constraints = [models.CheckConstraint(condition=models.Q(sequence__gte=1), name="auditlog_sequence_positive")]

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_email or 'system'} {self.action} {self.object_type}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValidationError("Audit entries are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError("Audit entries are append-only.")


class AuditChainHead(models.Model):
    """The audit chain's last link: one row, locked by every writer that appends (it updates the row),
    so concurrent writers take turns and the chain never forks. ``sequence`` 0 and the zero hash before the
    first entry."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    sequence = models.BigIntegerField(default=0)
    hash = models.CharField(max_length=64, default="0" * 64)

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(id=1), name="auditchainhead_single_row")]

    def __str__(self):
        return f"audit chain head #{self.sequence}"


class OneTimeCode(models.Model):
    """A six-digit code sent to a phone number; only its keyed hash is stored.

    A code is good for ``OTP_TTL_MINUTES`` and ``OTP_MAX_ATTEMPTS`` wrong tries;
    issuing a new code for the same phone and purpose retires older ones.
    """

    id = models.BigAutoField(primary_key=True)
    phone_number = models.CharField(max_length=20, db_index=True)
    purpose = models.CharField(max_length=32, choices=OtpPurpose.choices, default=OtpPurpose.PHONE_VERIFICATION)
    code_hash = models.CharField(max_length=64)
    attempts = models.PositiveSmallIntegerField(default=0)
    expires_at = models.DateTimeField()
    consumed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["phone_number", "purpose", "-created_at"])]

    def __str__(self):
        return f"code for {self.phone_number} ({self.purpose})"


class EndedSession(models.Model):
    """A signed-in session that was ended by signing out: none of its tokens, access or refresh, is honoured.

    A session is one sign-in and its chain of rotated refresh tokens; every token of it carries the
    session's id (``sid``, ``backoffice.auth.tokens``). Authentication reads this table in the same query
    that loads the principal. A row is of use until ``expires_at``, when the session's last token
    would have expired anyway; later rows are deleted as new ones are written.
    """

    sid = models.CharField(primary_key=True, max_length=32)
    kind = models.CharField(max_length=16)
    principal_id = models.CharField(max_length=64)
    ended_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-ended_at"]

    def __str__(self):
        return f"{self.kind} session {self.sid} (ended {self.ended_at:%Y-%m-%d %H:%M})"


class StateChange(models.Model):
    """One move of a record's state machine: from, to, who, when and why. Rows are only ever added.

    SAR transitions and alert events are both state changes; a subclass adds
    the foreign key to its record and the choices of its states. ``actor`` is
    empty for moves the system makes (an alert raised by the AML engine).
    """

    id = models.BigAutoField(primary_key=True)
    from_status = models.CharField(max_length=32, blank=True, default="")
    to_status = models.CharField(max_length=32)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    note = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.from_status or '(new)'} -> {self.to_status}"


# What a service key may open: the payment platform's intake and its dry run (contract: transactions
# from the payment platform). A key names the scopes it holds; nothing else is reachable with a key.
SERVICE_KEY_SCOPES = ("transactions.record", "transactions.screen")


class ServiceKey(models.Model):
    """A key one of the payment platform's services sends as ``X-API-Key``.

    Only ``key_hash`` (sha256 of the whole key) is kept; ``prefix`` (the key's
    public first part) finds the row, then the hash is compared in constant
    time (``backoffice.api.authentication.ServiceKeyAuthentication``). The key
    itself is shown once, when it is made. A revoked key (``revoked_at``)
    opens nothing; rows stay for the audit trail.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=100, unique=True)
    prefix = models.CharField(max_length=16, unique=True)
    key_hash = models.CharField(max_length=64)
    scopes = models.JSONField(default=list)
    created_by = models.ForeignKey(Staff, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = "service key"

    def __str__(self):
        return self.name

    # DRF treats request.user as a principal: a key is authenticated, never staff
    is_authenticated = True
    is_anonymous = False
    is_active = True

    @property
    def email(self) -> str:
        """How the audit log names the caller (``AuditLog.actor_email``)."""
        return f"service-key:{self.name}"

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def has_scope(self, scope: str) -> bool:
        return scope in (self.scopes or [])


class WebhookEndpoint(models.Model):
    """A URL of the payment platform's that is sent the events it subscribed to, signed with its secret.

    The secret (``whsec_`` and base64 of 32 random bytes) is shown once, when the endpoint is made or its secret
    rotated. After a rotation the previous secret stays valid until ``previous_secret_expires_at`` (a day): both
    signatures go with every delivery meanwhile, so the receiver can switch without losing one. A deleted
    endpoint (``deleted_at``) is sent nothing more; its rows stay for the record.

    Both secrets are stored sealed (``backoffice.sealing``: encrypted under a key derived from ``SECRET_KEY``) and
    opened only to sign a delivery.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    url = models.URLField(max_length=2000)
    events = models.JSONField(default=list, help_text="The event types it is sent.")
    description = models.CharField(max_length=500, blank=True)
    is_active = models.BooleanField(default=True)
    secret_sealed = models.TextField(editable=False)
    previous_secret_sealed = models.TextField(blank=True, editable=False)
    previous_secret_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(Staff, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "webhook endpoint"

    def __str__(self):
        return self.description or self.url


class WebhookEvent(models.Model):
    """One thing that happened, as the platform is told it: ``{id, type, createdAt, data}``. Written in the same
    transaction as the change it describes (the outbox), so a committed change always has it and a rolled-back
    one never does. Its id is the ``webhook-id`` of every attempt, so the receiver can drop a repeat."""

    id = models.CharField(primary_key=True, max_length=40, editable=False)
    type = models.CharField(max_length=64, choices=WebhookEventType.choices, db_index=True)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "webhook event"

    def __str__(self):
        return f"{self.type} {self.id}"


class WebhookDelivery(models.Model):
    """One event for one endpoint: sent until a 2xx answers (DELIVERED) or the attempts run out (FAILED).

    ``next_attempt_at`` is when it is due; a sender claims a delivery by pushing it forward by the time one
    attempt can take, so two senders never send it at once and one that dies mid-way leaves it due again soon.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # no index of their own: the unique constraint and the endpoint's list lead with the endpoint, and the event's
    # plain index below serves the event's deliveries (a foreign key's default adds a LIKE index no query uses);
    # every index is written on each of the sender's claims and answers
    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries", db_index=False)
    event = models.ForeignKey(WebhookEvent, on_delete=models.CASCADE, related_name="deliveries", db_index=False)
    status = models.CharField(max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True, default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "webhook delivery"
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "event"], name="webhookdelivery_one_per_endpoint_event")
        ]
        indexes = [
            # the sweep: what is due, oldest first
            models.Index(fields=["status", "next_attempt_at"], name="webhookdelivery_due"),
            models.Index(fields=["endpoint", "-created_at"], name="webhookdelivery_endpoint_new"),
            models.Index(fields=["event"], name="webhookdelivery_event"),
        ]

    def __str__(self):
        # the page's title: the event and where it goes, in words (issue 31: the endpoint's UUID read as a title)
        return f"{self.event_id} to {self.endpoint}: {self.get_status_display().lower()}"


class ApprovalRequest(models.Model):
    """A sensitive action one person asked for and a second one decides (dual control, docs/dual-control.md).

    ``kind`` names the action in the declared policy (``backoffice.dual_control``), ``target_type`` /
    ``target_id`` what it acts on (empty for a record the action creates), ``payload`` the change itself as domain
    values (what the policy's apply function is given), ``amount`` / ``severity`` what the policy judged it by.
    A request waits (``PENDING``) until a second eligible person approves it, which applies it in the same
    transaction (``APPLIED``, ``applied_at``), rejects it with a reason, or ``expires_at`` passes (``EXPIRED``).
    The decider is never the requester, and a request is applied at most once: check constraints back both up,
    and the services move the status with a conditional update on the locked row.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=64, db_index=True)
    target_type = models.CharField(max_length=64, blank=True, default="")
    target_id = models.CharField(max_length=100, blank=True, default="")
    summary = models.CharField(max_length=255)
    payload = models.JSONField(default=dict, blank=True)
    amount = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    severity = models.CharField(max_length=16, blank=True, default="")
    requested_by = models.ForeignKey(Staff, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=500)
    status = models.CharField(
        max_length=10, choices=ApprovalStatus.choices, default=ApprovalStatus.PENDING, db_index=True
    )
    decided_by = models.ForeignKey(Staff, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=500, blank=True, default="")
    expires_at = models.DateTimeField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "approval request"
        constraints = [
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=F("requested_by")),
                name="backoffice_approval_four_eyes",
            ),
            # applied exactly when the status says so: a second application has no state to land in
            models.CheckConstraint(
                condition=(Q(status=ApprovalStatus.APPLIED) & Q(applied_at__isnull=False))
                | (~Q(status=ApprovalStatus.APPLIED) & Q(applied_at__isnull=True)),
                name="backoffice_approval_applied_once",
            ),
            # approved, applied or rejected by somebody: a decision always names its decider
            models.CheckConstraint(
                condition=Q(status__in=[ApprovalStatus.PENDING, ApprovalStatus.EXPIRED]) | Q(decided_by__isnull=False),
                name="backoffice_approval_decided_by",
            ),
            # one waiting request per target and kind: a second ask is told the first one waits
            models.UniqueConstraint(
                fields=["kind", "target_type", "target_id"],
                condition=Q(status=ApprovalStatus.PENDING) & ~Q(target_id=""),
                name="backoffice_approval_one_pending",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "kind", "created_at"], name="backoffice_approval_queue"),
            models.Index(fields=["kind", "target_type", "target_id"], name="backoffice_approval_target"),
        ]

    def __str__(self):
        return f"{self.summary} ({self.get_status_display().lower()})"

    def clean(self):
        if self.decided_by_id is not None and self.decided_by_id == self.requested_by_id:
            raise ValidationError({"decided_by": "The person who asked never decides their own request."})

    @property
    def is_due(self) -> bool:
        """Past its lifetime while still waiting (the expiry task, or the next read, marks it EXPIRED)."""
        return (
            self.status == ApprovalStatus.PENDING and self.expires_at is not None and self.expires_at <= timezone.now()
        )


# what a staff member's authenticator-app secret is sealed for (backoffice.sealing derives one key per purpose)
TOTP_KEY_PURPOSE = "totp-key"


class StaffTOTPDevice(TOTPDevice):
    """A staff member's authenticator app: django-otp's TOTP device whose secret is stored sealed.

    django-otp keeps the shared secret as hex in ``key``; with it anyone holding a copy of the database (a backup,
    a read-only account) computes the member's codes. Here ``key`` holds the secret sealed for ``TOTP_KEY_PURPOSE``
    (``backoffice.sealing.seal_short``: AES-GCM under a key derived from ``SECRET_KEY``), and the codes are checked
    against the opened secret. A proxy: the table is django-otp's. A plain ``TOTPDevice`` read of the same row
    cannot use the sealed value as a secret (it is not hex), so no path that forgets the proxy accepts a code, and a
    hex secret written into the column by someone without ``SECRET_KEY`` is refused here.
    """

    class Meta:
        proxy = True

    @property
    def bin_key(self) -> bytes:
        return sealing.unseal_short(self.key, purpose=TOTP_KEY_PURPOSE)
