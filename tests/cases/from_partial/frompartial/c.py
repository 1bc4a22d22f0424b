# R5: the variant that works: X is bound before the import that closes the cycle.
X = "x from c"

import frompartial.d  # noqa: E402
