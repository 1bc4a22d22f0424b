# keys not known, but all start with "_env_": other names are decided
import os

for _n in sorted(os.environ)[:0]:
    _key = f"_env_{_n}"
    globals()[_key] = 1
PUBLIC = 1
