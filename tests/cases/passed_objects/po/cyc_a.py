from .tools import use


class Job:
    def run(self):
        from .cyc_b import VALUE
        return VALUE


job = Job()
use(job)
