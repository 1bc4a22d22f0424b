from .helpers import Maker

thing = Maker()
