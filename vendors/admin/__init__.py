from vendors.admin.vendors import VendorAdmin

__all__ = ["VendorAdmin"]
