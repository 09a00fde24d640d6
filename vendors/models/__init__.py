from vendors.models.vendors import Vendor

__all__ = ["Vendor"]
