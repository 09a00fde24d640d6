#!/usr/bin/env python
import os
import sys
from pathlib import Path


def secret_key_of_make_run() -> None:
    """In a checkout where ``make run`` has run, a command uses the key that server uses, with no variable.

    ``make run`` makes ``.secret_key`` once (random, never committed) and passes it to the server it starts;
    the documented commands (``create_service_key``, ``import_peps``, ...) are run afterwards from the same
    checkout without it and stopped at "SECRET_KEY must be set". The file is read only when the environment
    sets no SECRET_KEY: a deployment sets it (the file is then ignored) and its servers never read the file.
    Nor does a production environment (ENVIRONMENT=production): there the key comes from the deployment or
    start-up stops, whatever a checkout holds.
    """
    key_file = Path(__file__).resolve().parent / ".secret_key"
    production = os.environ.get("ENVIRONMENT", "").strip().lower() == "production"
    if "SECRET_KEY" not in os.environ and not production and key_file.is_file():
        key = key_file.read_text().strip()
        if key:
            os.environ["SECRET_KEY"] = key


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")
    secret_key_of_make_run()
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
