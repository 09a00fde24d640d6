"""Readers of the publishers' own files: each turns one file (or OFAC's three) into ``ParsedEntry`` records.

Pure Python over bytes: no database, no Django, so each reader can be tested and timed on its own. A file a
reader cannot take (not of its format, cut off, empty, a DTD or entity in XML) raises ``ListFileProblem``
naming the file and the reason; the import service turns it into a 400 and writes nothing.
"""

from compliance.sanctions.formats.common import Alias, ListFileProblem, ParsedEntry, ProgressFn
from compliance.sanctions.formats.ftm import read_ftm
from compliance.sanctions.formats.ofac import read_ofac
from compliance.sanctions.formats.un import read_un

__all__ = ["Alias", "ListFileProblem", "ParsedEntry", "ProgressFn", "read_ftm", "read_ofac", "read_un"]
