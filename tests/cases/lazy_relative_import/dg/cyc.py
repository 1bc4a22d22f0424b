# imported first, it works
X = 1

from dg import sub_value  # noqa: E402,F401
