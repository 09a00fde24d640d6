"""Signed webhooks to the payment platform (docs/webhooks.md)."""

from backoffice.env import env_int, env_list

# Hosts an endpoint may name over http:// or at a private, loopback or reserved address (a receiver on the same
# network, the demo's local receiver); every other endpoint is https:// to a public address.
WEBHOOK_ALLOWED_HOSTS = [host.lower() for host in env_list("WEBHOOK_ALLOWED_HOSTS", [])]
# Seconds a receiver has to answer 2xx; and attempts before a delivery is FAILED (the last about a day later).
WEBHOOK_TIMEOUT_SECONDS = env_int("WEBHOOK_TIMEOUT_SECONDS", 5, minimum=1, maximum=60)
WEBHOOK_MAX_ATTEMPTS = env_int("WEBHOOK_MAX_ATTEMPTS", 8, minimum=1, maximum=20)
# How often beat's sweep sends the deliveries that are due (retries, and any a lost message left behind).
WEBHOOK_SWEEP_SECONDS = env_int("WEBHOOK_SWEEP_SECONDS", 15, minimum=1)
