"""Pluggable providers chosen by a setting: one registry of dotted paths per kind of provider.

One-time-code delivery (``OTP_BACKEND``) and identity verification
(``VERIFICATION_PROVIDER``) each have a ``ProviderRegistry``: a name in the
setting picks a dotted path, imported lazily, so a provider that needs heavy
libraries costs nothing until it is used. The app that owns the registry calls
``check()`` from its ``ready()``, so a setting naming no provider stops start-up
with a clear message instead of failing on the first request.
"""

import threading

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string


class ProviderRegistry:
    def __init__(self, setting: str, entries: dict[str, str]):
        self.setting = setting
        self.entries = dict(entries)
        self._instances: dict[str, object] = {}
        self._lock = threading.Lock()

    def register(self, name: str, dotted_path: str) -> None:
        self.entries[name] = dotted_path

    def names(self) -> list[str]:
        return sorted(self.entries)

    def selected(self) -> str:
        return getattr(settings, self.setting)

    def check(self) -> None:
        name = self.selected()
        if name not in self.entries:
            raise ImproperlyConfigured(f"{self.setting} must be one of {self.names()}, got {name!r}")

    def get(self, name: str | None = None):
        """The provider instance named by ``name`` or by the setting; one instance per process and name."""
        name = name or self.selected()
        if name not in self.entries:
            raise ImproperlyConfigured(f"{self.setting} must be one of {self.names()}, got {name!r}")
        instance = self._instances.get(name)
        if instance is None:
            with self._lock:
                instance = self._instances.get(name)
                if instance is None:
                    instance = import_string(self.entries[name])()
                    self._instances[name] = instance
        return instance
