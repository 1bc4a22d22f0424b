from metabase.cyc_config import Namespace


class Conf(Namespace):
    size = 1
