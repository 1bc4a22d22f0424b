from .registry import R


@R.register
class Pi:
    pass
