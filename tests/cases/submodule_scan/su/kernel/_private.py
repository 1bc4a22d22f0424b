from ..lowering import LATE
