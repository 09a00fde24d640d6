"""Who signs in and what they may do: principals, tokens, one-time codes, roles, sign-in throttling."""
