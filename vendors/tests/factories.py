import factory

from vendors.models import Vendor

PASSWORD = "Vendor-Passw0rd!x"


class VendorFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Vendor
        skip_postgeneration_save = True

    business_name = factory.Faker("company")
    email = factory.Sequence(lambda n: f"vendor{n}@example.com")
    phone_number = factory.Sequence(lambda n: f"+268781{n:05d}")
    password = factory.django.Password(PASSWORD)
