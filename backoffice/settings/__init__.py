"""Settings for the Vikela compliance back office, one module per topic.

Everything that differs between machines comes from the environment and is
parsed strictly (``backoffice.env``); nothing secret lives in these files. A
topic module reads only its own variables; later modules may use what earlier
ones defined (``base`` first), so the order below matters.
"""

from backoffice.settings.admin import *  # noqa: F401,F403
from backoffice.settings.api import *  # noqa: F401,F403
from backoffice.settings.approvals import *  # noqa: F401,F403
from backoffice.settings.audit import *  # noqa: F401,F403
from backoffice.settings.auth import *  # noqa: F401,F403
from backoffice.settings.base import *  # noqa: F401,F403
from backoffice.settings.cache import *  # noqa: F401,F403
from backoffice.settings.credits import *  # noqa: F401,F403
from backoffice.settings.database import *  # noqa: F401,F403
from backoffice.settings.deadlines import *  # noqa: F401,F403
from backoffice.settings.goaml import *  # noqa: F401,F403
from backoffice.settings.observability import *  # noqa: F401,F403
from backoffice.settings.peps import *  # noqa: F401,F403
from backoffice.settings.ratelimits import *  # noqa: F401,F403
from backoffice.settings.rules import *  # noqa: F401,F403
from backoffice.settings.sanctions_screening import *  # noqa: F401,F403
from backoffice.settings.security import *  # noqa: F401,F403
from backoffice.settings.storage import *  # noqa: F401,F403
from backoffice.settings.tasks import *  # noqa: F401,F403
from backoffice.settings.transactions import *  # noqa: F401,F403
from backoffice.settings.vendors import *  # noqa: F401,F403
from backoffice.settings.verification import *  # noqa: F401,F403
from backoffice.settings.webhooks import *  # noqa: F401,F403
