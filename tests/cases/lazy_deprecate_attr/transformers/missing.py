# neither table has it: AttributeError, so ImportError
import transformers.kw  # noqa: F401
from transformers.proc import Missing  # noqa: F401,E402
