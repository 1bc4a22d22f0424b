from .kinds import KINDS
