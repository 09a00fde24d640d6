"""Assertions the hostile-input tests share."""


def assert_envelope(response, status: int | None = None, code: str | None = None) -> dict:
    """``response`` is an error in the contract's envelope (of ``status``/``code`` when given), never HTML."""
    assert response["Content-Type"].startswith("application/json"), (response.status_code, response.content[:200])
    body = response.json()
    if status is not None:
        assert response.status_code == status, body
    if code is not None:
        assert body["error"]["code"] == code, body
    assert body["success"] is False and body["statusCode"] == response.status_code
    assert body["message"] == body["error"]["message"] and body["message"]
    assert "Traceback" not in body["message"]
    return body
