class Loader:
    def import_now(self):
        from . import late_mod
        return late_mod.NAME
