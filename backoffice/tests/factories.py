import factory

from backoffice.choices import StaffRole
from backoffice.models import Staff

PASSWORD = "Test-Passw0rd!x"


class StaffFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Staff
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"staff{n}@example.com")
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    role = StaffRole.SUPPORT
    password = factory.django.Password(PASSWORD)
