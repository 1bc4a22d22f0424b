# an analysed pure function that reads a dependency's version, called in a condition
import fakedep


def _new_api():
    return fakedep.__version__ >= "2"


if not _new_api():
    from depver.j import J  # noqa: F401
I = 1
