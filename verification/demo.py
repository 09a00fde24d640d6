"""Demo verification jobs (placeholder until the engine lands; replaced below)."""


def seed(stdout) -> None:
    return None
