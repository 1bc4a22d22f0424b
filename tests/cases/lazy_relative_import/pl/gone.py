# listed, but _b binds no Gone: the saved __getattr__ raises AttributeError
from pl import Gone  # noqa: F401
