from retpkg.fast import BACKEND


class Native:
    pass
