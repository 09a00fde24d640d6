"""The signature is Standard Webhooks': checked against the example the specification publishes."""

from backoffice.services.webhook_http import new_secret, sign


def test_the_published_example():
    # standard-webhooks/standard-webhooks, spec and reference libraries' test vector
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body = b'{"test": 2432232314}'
    assert sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body) == (
        "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    )


def test_a_new_secret_is_whsec_and_base64_of_32_random_bytes():
    import base64

    a, b = new_secret(), new_secret()
    assert a.startswith("whsec_") and a != b
    assert len(base64.b64decode(a.removeprefix("whsec_"))) == 32
