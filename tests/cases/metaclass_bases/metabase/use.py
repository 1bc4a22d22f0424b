from metabase.config import Item, Namespace


class Conf(Namespace):
    color = Item()
