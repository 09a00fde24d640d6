"""JSON shapes of the vendor endpoints: sign-up and sign-in."""

from rest_framework import serializers

from backoffice.api.serializers import TokenPairOut


class VendorRegisterIn(serializers.Serializer):
    businessName = serializers.CharField(max_length=200, source="business_name")
    phoneNumber = serializers.CharField(max_length=32, source="phone_number")
    email = serializers.EmailField()
    password = serializers.CharField(max_length=256, trim_whitespace=False)
    contactName = serializers.CharField(max_length=200, required=False, allow_blank=True, source="contact_name")


class VendorLoginIn(serializers.Serializer):
    email = serializers.CharField(max_length=254, source="login")
    password = serializers.CharField(max_length=256, trim_whitespace=False)


class VendorBriefOut(serializers.Serializer):
    id = serializers.UUIDField()
    businessName = serializers.CharField(source="business_name")
    email = serializers.EmailField()


class VendorLoginOut(TokenPairOut):
    vendor = VendorBriefOut()


class VendorRegisteredOut(serializers.Serializer):
    id = serializers.UUIDField()
    businessName = serializers.CharField(source="business_name")
    phoneNumber = serializers.CharField(source="phone_number")
    email = serializers.EmailField()
    kycStatus = serializers.CharField(source="kyc_status")
