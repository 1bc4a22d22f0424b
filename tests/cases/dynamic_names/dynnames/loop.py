# `globals()[f"List{i}"]` in a loop over literal values binds exactly those names; so does
# `vars()[name]` over a literal tuple
for i in range(2, 5):
    globals()[f"List{i}"] = i
for name in ("alpha", "beta"):
    vars()[name] = 1
SHARED = "shared"
for i in range(2, 4):
    globals()[f"Alias{i}"] = SHARED  # each name bound to SHARED's value
