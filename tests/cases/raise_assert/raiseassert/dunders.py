# module objects have __file__, __name__, __spec__, __dict__ even if their code never binds them
from . import plain

WHERE = plain.__file__
NAME = plain.__name__
SPEC = plain.__spec__
KEYS = plain.__dict__
