from ..b import LATE
