"""KYC's reads, one module per concern: users, credits, history, flows (the customer view's money) and
name_matching (the index PEP screening searches). Import from the module: this package re-exports nothing."""
