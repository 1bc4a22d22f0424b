# R9: `import *` reads every __all__ name; `late` is missing mid-cycle -> AttributeError (not ImportError).
from starimp.withall import *  # noqa: F401,F403
