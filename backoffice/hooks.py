"""Named extension points: how a lower app lets a higher one act without importing it.

A lower app declares its hooks (``kyc.hooks``); a higher app registers
functions on them from its ``AppConfig.ready()``. Hooks are called with
keyword arguments only, so a new argument never breaks a registered function
that takes ``**kwargs``. Registering the same function twice is a no-op
(``ready()`` can run more than once in tests).
"""

from collections.abc import Callable


class Hook:
    """Functions to call when something happens; each is called in registration order."""

    def __init__(self, name: str):
        self.name = name
        self._functions: list[Callable] = []

    def register(self, function: Callable) -> Callable:
        if function not in self._functions:
            self._functions.append(function)
        return function

    def __call__(self, **kwargs) -> None:
        for function in self._functions:
            function(**kwargs)

    def first(self, **kwargs):
        """The answer of the first registered function (a hook one higher app answers), or None with none."""
        return self._functions[0](**kwargs) if self._functions else None

    def any(self, **kwargs) -> bool:
        """True when any registered function answers truthily (guards: "is anything holding this back?")."""
        return any(function(**kwargs) for function in self._functions)

    def __repr__(self):
        return f"<Hook {self.name}: {len(self._functions)} registered>"
