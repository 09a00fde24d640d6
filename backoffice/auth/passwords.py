"""Password rules beyond Django's own."""

import re
from difflib import SequenceMatcher

from django.contrib.auth.password_validation import UserAttributeSimilarityValidator, exceeds_maximum_length_ratio
from django.core.exceptions import FieldDoesNotExist, ValidationError


class AttributeSimilarityValidator(UserAttributeSimilarityValidator):
    """Refuses a password too much like the person's own email, names or phone number, as Django's does, but
    by their real similarity (the longest matching runs, ``SequenceMatcher.ratio``). Django decides on
    ``quick_ratio``, an upper bound that only counts shared characters in any order: two unrelated random hex
    strings (a generated password beside an address like ``user.3fa9c1e0b2d4@...``) share most of their
    sixteen letters, so about one random registration in a thousand was refused as "too similar" to an
    address it has nothing in common with."""

    def validate(self, password, user=None):
        if not user:
            return
        password = password.lower()
        for attribute_name in self.user_attributes:
            value = getattr(user, attribute_name, None)
            if not value or not isinstance(value, str):
                continue
            value = value.lower()
            for part in [*re.split(r"\W+", value), value]:
                if exceeds_maximum_length_ratio(password, self.max_similarity, part):
                    continue
                matcher = SequenceMatcher(a=password, b=part)
                # quick_ratio first: it bounds ratio from above and is cheap, so most parts stop there
                if matcher.quick_ratio() >= self.max_similarity and matcher.ratio() >= self.max_similarity:
                    try:
                        verbose_name = str(user._meta.get_field(attribute_name).verbose_name)
                    except FieldDoesNotExist:
                        verbose_name = attribute_name
                    raise ValidationError(
                        self.get_error_message(), code="password_too_similar", params={"verbose_name": verbose_name}
                    )
