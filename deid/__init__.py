"""deid: clinical de-identification on Presidio, usable on its own (no jarvis imports).

from deid import Deidentifier
d = Deidentifier()                                  # once per process
r = d.deidentify("Pt Gita Bhat seen 7/22 by dr healey", known_names=("Gita Bhat",))
r.text   # "Pt [NAME] seen [DATE] by dr [NAME]"
r.spans  # PhiSpan(start, end, entity, score) into the original text
"""

from deid.engine import Deidentifier
from deid.types import ENTITIES, DeidError, DeidResult, PhiSpan

__all__ = ["ENTITIES", "DeidError", "DeidResult", "Deidentifier", "PhiSpan"]
