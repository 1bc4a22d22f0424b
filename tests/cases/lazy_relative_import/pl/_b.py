# imported first, it works: B is bound before _a asks the package for it
class B:
    pass


from pl._a import A  # noqa: E402,F401
